import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../catalog/fighter-summary.sql';
import { bulkSql, sql } from '../unit-of-work';
import type { FighterStanding, RankingEntryDraft } from './ranking.engine';

/**
 * Rows per statement: small enough that no parameter string or array reaches V8's large-object
 * space (128 KB), which only a full collection frees; with 50,000 rows a statement the seeder's
 * four publications piled up some 100 MB of it each. Batches follow the engine's division order,
 * so sorting each by the primary key still keeps that index's inserts at its right edge.
 */
const BATCH = 2_500;
/** The same bound for standings, whose ranks (a JSON object each, quoted in an array) are longer. */
const STANDINGS_BATCH = 1_000;

function intArray(values: readonly (number | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
}

/**
 * Stores a run's entries with `insert ... select from unnest(...)`: one statement per 2,500 rows
 * instead of one ORM batch per thousand. The rows are the ones the entity would have written: the
 * engine's order as `position`, the record as a JSON object. They are inserted in the order of
 * the (run, division, scope, fighter) primary key, so that its new entries are appended to its
 * rightmost page rather than scattered (a third less time at 100,000 fighters).
 */
export async function insertRankingEntries(em: EntityManager, runId: string, entries: readonly RankingEntryDraft[]): Promise<void> {
  for (let offset = 0; offset < entries.length; offset += BATCH) {
    const batch = entries.slice(offset, offset + BATCH);
    const col = <T>(f: (e: RankingEntryDraft) => T) => batch.map(f);
    await bulkSql(
      em,
      `insert into ranking_entry (run_id, division_id, scope, fighter_id, rank, position, points, previous_rank, movement, record)
       select ?::uuid, x.division_id, x.scope, x.fighter_id, x.rank, ?::int + x.ord::int - 1, x.points, x.previous_rank, x.movement,
              jsonb_build_object('W', x.w, 'L', x.l, 'D', x.d, 'NC', x.nc, 'KO', x.ko)
         from unnest(?::text[], ?::text[], ?::uuid[], ?::int[], ?::float8[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[])
              with ordinality as x(division_id, scope, fighter_id, rank, points, previous_rank, movement, w, l, d, nc, ko, ord)
        order by x.division_id, x.scope, x.fighter_id`,
      [
        runId,
        offset,
        pgArray(col((e) => e.divisionId)),
        pgArray(col((e) => e.scope)),
        `{${col((e) => e.fighterId).join(',')}}`,
        intArray(col((e) => e.rank)),
        `{${col((e) => e.points).join(',')}}`,
        intArray(col((e) => e.previousRank)),
        intArray(col((e) => e.movement)),
        intArray(col((e) => e.record.W)),
        intArray(col((e) => e.record.L)),
        intArray(col((e) => e.record.D)),
        intArray(col((e) => e.record.NC)),
        intArray(col((e) => e.record.KO)),
      ],
    );
  }
}

/** A standing's ranks as the JSON object stored and served, keys in their order whatever they look like. */
export function ranksJson(ranks: FighterStanding['ranks']): string {
  return `{${ranks.map(([scope, rank]) => `${JSON.stringify(scope)}:${rank}`).join(',')}}`;
}

/** Stores each ranked fighter's standing in the run (what their card shows), 1,000 rows a statement. */
export async function insertFighterStandings(em: EntityManager, runId: string, standings: readonly FighterStanding[]): Promise<void> {
  for (let offset = 0; offset < standings.length; offset += STANDINGS_BATCH) {
    const batch = standings.slice(offset, offset + STANDINGS_BATCH);
    await bulkSql(
      em,
      `insert into fighter_standing (run_id, fighter_id, points, ranks)
       select ?::uuid, x.fighter_id, x.points, x.ranks::json from unnest(?::uuid[], ?::float8[], ?::text[]) as x(fighter_id, points, ranks)
        order by x.fighter_id`,
      [runId, `{${batch.map((s) => s.fighterId).join(',')}}`, `{${batch.map((s) => s.points).join(',')}}`, pgArray(batch.map((s) => ranksJson(s.ranks)))],
    );
  }
}

/**
 * Leaves the planner's statistics true: without them a new run's id is unknown and reads of it
 * scan the whole table. Inside the publishing transaction, ANALYZE samples the run's own rows.
 */
export async function analyzeRankingTables(em: EntityManager): Promise<void> {
  await sql(em, `analyze ranking_run, ranking_entry, fighter_standing`);
}
