import type { Connection } from '@mikro-orm/core';
import type { Outcome } from '../rankings/points.calculator';
import { eventColumns, fighterColumns, fighterJoins, PARAMS_CTE, pgArray, type EventRow, type FighterRow } from './fighter-summary.sql';
import { contextParams, type ReadContext } from './read-context';
import { OPPONENT_MINOR_SQL } from './withheld-opponent';

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
  /** The other fighter's name: show it through shownOpponent (withheld-opponent.ts), never as is. */
  opponent: string;
  /** Whether the other fighter is a minor today. */
  opponent_minor: boolean;
  verified_at: Date;
}

/**
 * What the results feed reads of a result (result-feed.queries.ts): the columns its view shows, or
 * decides what to show from (docs/adr/0013-cold-reads.md, decision 10).
 */
export type FeedRow = Omit<ResultRow, 'f_id' | 'f_division_id' | 'f_minor' | 'e_id' | 'bout_id' | 'bout_order' | 'verified_at'>;

/** What a profile shows of a bout: the event's columns, the opponent and the outcome. */
export type BoutRow = Pick<
  ResultRow,
  'e_code' | 'e_name' | 'e_city' | 'e_country' | 'e_date' | 'e_level' | 'e_status' | 'opponent' | 'opponent_minor' | 'result' | 'method' | 'round'
>;

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
 * The adult sides of verified bouts read from the source tables, inside a writer's transaction
 * (what result.verified announces). Partner reads use the read model (result-feed.queries.ts).
 */
export class ResultQueries {
  constructor(private readonly connection: () => Connection) {}

  async forBout(ctx: ReadContext, boutId: string): Promise<ResultRow[]> {
    return this.hydrate(ctx, await this.keys(ctx, 'where r.bout_id = ?', [boutId]));
  }

  private keys(ctx: ReadContext, clause: string, params: unknown[]): Promise<ResultKey[]> {
    return this.connection().execute<ResultKey[]>(
      `${PARAMS_CTE} select r.bout_id, r.bout_order, r.result, r.method, r.round, r.verified_at, r.fighter_id, r.opponent_id, r.event_id
       ${FROM} ${clause} ${ORDER}`,
      [...contextParams(ctx), ...params],
    );
  }

  private async hydrate(ctx: ReadContext, keys: ResultKey[]): Promise<ResultRow[]> {
    if (keys.length === 0) return [];
    const fighterIds = pgArray([...new Set(keys.map((k) => k.fighter_id))]);
    const eventIds = pgArray([...new Set(keys.map((k) => k.event_id))]);
    const opponentIds = pgArray([...new Set(keys.map((k) => k.opponent_id))]);
    const conn = this.connection();
    const [fighters, events, opponents] = await Promise.all([
      conn.execute(`${PARAMS_CTE} select ${fighterColumns()} from p cross join fighter f ${fighterJoins()} where f.id = any(?::uuid[])`, [
        ...contextParams(ctx),
        fighterIds,
      ]) as Promise<FighterRow[]>,
      conn.execute(`select ${eventColumns()} from event e where e.id = any(?::uuid[])`, [eventIds]) as Promise<EventRow[]>,
      conn.execute(
        `${PARAMS_CTE} select o.id, o.name, ${OPPONENT_MINOR_SQL} as minor
         from p cross join fighter o join fighter_identity oi on oi.fighter_id = o.id where o.id = any(?::uuid[])`,
        [...contextParams(ctx), opponentIds],
      ) as Promise<{ id: string; name: string; minor: boolean }[]>,
    ]);
    const fighterById = new Map(fighters.map((f) => [f.f_id, f]));
    const eventById = new Map(events.map((e) => [e.e_id, e]));
    const opponentById = new Map(opponents.map((o) => [o.id, o]));
    return keys.map((k) => ({
      ...fighterById.get(k.fighter_id)!,
      ...eventById.get(k.event_id)!,
      bout_id: k.bout_id,
      bout_order: k.bout_order,
      result: k.result,
      method: k.method,
      round: k.round,
      verified_at: k.verified_at,
      opponent: opponentById.get(k.opponent_id)!.name,
      // A missing identity row cannot prove adulthood: withhold.
      opponent_minor: opponentById.get(k.opponent_id)?.minor !== false,
    }));
  }
}
