import type { Connection } from '@mikro-orm/core';
import { TtlCache } from '../../lib/ttl-cache';
import type { Outcome } from '../rankings/points.calculator';
import { eventColumns, fighterColumns, fighterJoins, PARAMS_CTE, pgArray, type EventRow, type FighterRow, type Page, type Paged } from './fighter-summary.sql';
import { contextParams, type ReadContext } from './read-context';

export interface ResultFilters {
  since?: string;
  country?: string;
  disc?: string;
  event?: string;
}

export interface ResultRow extends FighterRow, EventRow {
  bout_id: string;
  bout_order: number;
  result: Outcome;
  method: string | null;
  round: number | null;
  opponent: string;
  verified_at: Date;
}

interface ResultKey {
  bout_id: string;
  bout_order: number;
  result: Outcome;
  method: string | null;
  round: number | null;
  verified_at: Date;
  fighter_id: string;
  opponent_id: string;
  event_id: string;
}

// Adult fighters only: minors' results never leave the database.
const FROM = `from p cross join verified_result r
  join event e on e.id = r.event_id and e.sanctioned_at is not null
  join fighter f on f.id = r.fighter_id
  join fighter_identity fi on fi.fighter_id = f.id and fi.date_of_birth <= p.adult_cutoff`;

const ORDER = `order by e.date desc, e.code collate "C", r.bout_order, case r.result when 'W' then 0 when 'D' then 1 when 'NC' then 2 else 3 end, f.slug collate "C"`;

/**
 * Verified results, one per adult fighter of a bout. Reads pick the page's keys with a narrow
 * query (cheap to plan, walks events newest first), then load the fighters, events and opponents
 * of that page in bulk: a wide join planned per request cost more than running it.
 */
export class ResultQueries {
  /** `counts` may keep totals for a little while: they only move when results are verified. */
  constructor(private readonly connection: () => Connection, private readonly counts: TtlCache<number> = new TtlCache(0)) {}

  async list(ctx: ReadContext, filters: ResultFilters, page: Page): Promise<Paged<ResultRow>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filters.since) { where.push('e.date >= ?::date'); params.push(filters.since); }
    if (filters.country) { where.push('f.country_slug = ?'); params.push(filters.country); }
    if (filters.disc) { where.push('r.division_id in (select id from division where discipline = ?)'); params.push(filters.disc); }
    if (filters.event) { where.push('e.code = ?'); params.push(filters.event); }
    const clause = where.length ? `where ${where.join(' and ')}` : '';
    const [total, keys] = await Promise.all([
      this.counts.get(JSON.stringify([ctx.today, clause, params]), async () =>
        (await this.connection().execute<{ n: number }[]>(`${PARAMS_CTE} select count(*)::int as n ${FROM} ${clause}`, [...contextParams(ctx), ...params]))[0].n),
      this.keys(ctx, clause, params, `limit ? offset ?`, [page.perPage, (page.page - 1) * page.perPage]),
    ]);
    return { rows: await this.hydrate(ctx, keys), total };
  }

  async forEvent(ctx: ReadContext, eventId: string): Promise<ResultRow[]> {
    return this.hydrate(ctx, await this.keys(ctx, 'where e.id = ?', [eventId]));
  }

  /** The fighter's last verified bouts, newest first. */
  async forFighter(ctx: ReadContext, fighterId: string, limit: number): Promise<ResultRow[]> {
    return this.hydrate(ctx, await this.keys(ctx, 'where (r.side_a = ? or r.side_b = ?) and r.fighter_id = ?', [fighterId, fighterId, fighterId], 'limit ?', [limit]));
  }

  /** The adult sides of one verified bout (what result.verified announces). */
  async forBout(ctx: ReadContext, boutId: string): Promise<ResultRow[]> {
    return this.hydrate(ctx, await this.keys(ctx, 'where r.bout_id = ?', [boutId]));
  }

  private keys(ctx: ReadContext, clause: string, params: unknown[], tail = '', tailParams: unknown[] = []): Promise<ResultKey[]> {
    return this.connection().execute<ResultKey[]>(
      `${PARAMS_CTE} select r.bout_id, r.bout_order, r.result, r.method, r.round, r.verified_at, r.fighter_id, r.opponent_id, r.event_id
       ${FROM} ${clause} ${ORDER} ${tail}`,
      [...contextParams(ctx), ...params, ...tailParams],
    );
  }

  private async hydrate(ctx: ReadContext, keys: ResultKey[]): Promise<ResultRow[]> {
    if (keys.length === 0) return [];
    const fighterIds = pgArray([...new Set(keys.map((k) => k.fighter_id))]);
    const eventIds = pgArray([...new Set(keys.map((k) => k.event_id))]);
    const opponentIds = pgArray([...new Set(keys.map((k) => k.opponent_id))]);
    const conn = this.connection();
    const [fighters, events, opponents] = await Promise.all([
      conn.execute(`${PARAMS_CTE} select ${fighterColumns()} from p cross join fighter f ${fighterJoins()} where f.id = any(?::uuid[])`,
        [...contextParams(ctx), fighterIds]) as Promise<FighterRow[]>,
      conn.execute(`select ${eventColumns()} from event e where e.id = any(?::uuid[])`, [eventIds]) as Promise<EventRow[]>,
      conn.execute(`select id, name from fighter where id = any(?::uuid[])`, [opponentIds]) as Promise<{ id: string; name: string }[]>,
    ]);
    const fighterById = new Map(fighters.map((f) => [f.f_id, f]));
    const eventById = new Map(events.map((e) => [e.e_id, e]));
    const nameById = new Map(opponents.map((o) => [o.id, o.name]));
    return keys.map((k) => ({
      ...fighterById.get(k.fighter_id)!,
      ...eventById.get(k.event_id)!,
      bout_id: k.bout_id,
      bout_order: k.bout_order,
      result: k.result,
      method: k.method,
      round: k.round,
      verified_at: k.verified_at,
      opponent: nameById.get(k.opponent_id)!,
    }));
  }
}
