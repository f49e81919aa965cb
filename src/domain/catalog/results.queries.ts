import type { Connection } from '@mikro-orm/core';
import type { Outcome } from '../rankings/points.calculator';
import { eventColumns, fighterColumns, fighterJoins, PARAMS_CTE, type EventRow, type FighterRow, type Page, type Paged } from './fighter-summary.sql';
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

const SELECT = `select r.bout_id, r.bout_order, r.result, r.method, r.round, r.verified_at, o.name as opponent,
    ${eventColumns()}, ${fighterColumns()}
  from p cross join verified_result r
  join event e on e.id = r.event_id and e.sanctioned_at is not null
  join fighter o on o.id = r.opponent_id
  join fighter f on f.id = r.fighter_id ${fighterJoins()}`;

const ORDER = `order by e.date desc, e.code collate "C", r.bout_order, case r.result when 'W' then 0 when 'D' then 1 when 'NC' then 2 else 3 end, f.slug collate "C"`;

/** Verified results, one per adult fighter of a bout; minors' results never leave the database. */
export class ResultQueries {
  constructor(private readonly connection: () => Connection) {}

  async list(ctx: ReadContext, filters: ResultFilters, page: Page): Promise<Paged<ResultRow>> {
    const where = ['fi.date_of_birth <= p.adult_cutoff'];
    const params: unknown[] = [];
    if (filters.since) { where.push('e.date >= ?::date'); params.push(filters.since); }
    if (filters.country) { where.push('f.country_slug = ?'); params.push(filters.country); }
    if (filters.disc) { where.push('fd.discipline = ?'); params.push(filters.disc); }
    if (filters.event) { where.push('e.code = ?'); params.push(filters.event); }
    const conn = this.connection();
    const [count, rows] = await Promise.all([
      conn.execute<{ n: number }[]>(
        `${PARAMS_CTE} select count(*)::int as n from (${SELECT} where ${where.join(' and ')}) x`,
        [...contextParams(ctx), ...params],
      ),
      conn.execute<ResultRow[]>(
        `${PARAMS_CTE} ${SELECT} where ${where.join(' and ')} ${ORDER} limit ? offset ?`,
        [...contextParams(ctx), ...params, page.perPage, (page.page - 1) * page.perPage],
      ),
    ]);
    return { rows, total: count[0].n };
  }

  async forEvent(ctx: ReadContext, eventId: string): Promise<ResultRow[]> {
    return this.connection().execute<ResultRow[]>(
      `${PARAMS_CTE} ${SELECT} where e.id = ? and fi.date_of_birth <= p.adult_cutoff ${ORDER}`,
      [...contextParams(ctx), eventId],
    );
  }

  /** The fighter's last verified bouts, newest first. */
  async forFighter(ctx: ReadContext, fighterId: string, limit: number): Promise<ResultRow[]> {
    return this.connection().execute<ResultRow[]>(
      `${PARAMS_CTE} ${SELECT} where r.fighter_id = ? and fi.date_of_birth <= p.adult_cutoff ${ORDER} limit ?`,
      [...contextParams(ctx), fighterId, limit],
    );
  }

  /** The adult sides of one verified bout (what result.verified announces). */
  async forBout(ctx: ReadContext, boutId: string): Promise<ResultRow[]> {
    return this.connection().execute<ResultRow[]>(
      `${PARAMS_CTE} ${SELECT} where r.bout_id = ? and fi.date_of_birth <= p.adult_cutoff ${ORDER}`,
      [...contextParams(ctx), boutId],
    );
  }
}
