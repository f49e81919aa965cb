import type { EntityManager } from '@mikro-orm/postgresql';
import { addYears } from '../clock';
import { sql } from '../unit-of-work';
import { type EngineFighter, type EngineResult, rankKey } from './ranking.engine';

/**
 * Whether fighter `f` may be ranked (docs/decisions.md#ranked): adult on the as-of date, licensed,
 * published, the current licence active and in date. Joins: `fighter_identity fi`, `licence l`
 * (current, left); parameters: the date 18 years before as-of, then as-of.
 */
const ELIGIBLE = `(fi.date_of_birth <= ?::date and f.status = 'licensed' and f.ranking_published
  and l.state = 'active' and (l.valid_until is null or l.valid_until >= ?::date)) is true`;
const ELIGIBILITY_JOINS = `join fighter_identity fi on fi.fighter_id = f.id left join licence l on l.fighter_id = f.id and l.current`;

/** Every fighter, with whether they may be ranked on `asOf`. */
export async function loadFighters(em: EntityManager, asOf: string): Promise<EngineFighter[]> {
  return sql<EngineFighter[]>(em, `select f.id, f.name, f.country_slug as "countrySlug", c.continent_slug as "continentSlug", ${ELIGIBLE} as eligible
       from fighter f join country c on c.slug = f.country_slug ${ELIGIBILITY_JOINS}`,
  [addYears(asOf, -18), asOf]);
}

export interface PreviousRun {
  asOf: string | null;
  /** rankKey to the rank, every scope. */
  ranks: Map<string, number>;
  /** rankKey to the points, world scope only (what ranking.published compares). */
  worldPoints: Map<string, number>;
}

/** The latest run before `asOf`, as the engine and the change list need it (no row is kept). */
export async function loadPreviousRun(em: EntityManager, asOf: string): Promise<PreviousRun> {
  const [run] = await sql<{ id: string; as_of: string }[]>(em,
    `select id, as_of::text as as_of from ranking_run where as_of < ? order by as_of desc limit 1`, [asOf]);
  const previous: PreviousRun = { asOf: run?.as_of ?? null, ranks: new Map(), worldPoints: new Map() };
  if (!run) return previous;
  await streamRows<{ division_id: string; scope: string; fighter_id: string; rank: number; points: number }>(em,
    `select division_id, scope, fighter_id, rank, points from ranking_entry where run_id = ?`, [run.id], (p) => {
      const key = rankKey(p.division_id, p.scope, p.fighter_id);
      previous.ranks.set(key, p.rank);
      if (p.scope === 'world') previous.worldPoints.set(key, p.points);
    });
  return previous;
}

/**
 * Hands the verified results of sanctioned events up to `asOf` to `onResult`, streamed through a
 * cursor (a million rows are never held at once), the columns named as the engine's so that each
 * row is handed over as it arrives. Only eligible fighters' results: the engine ignores the others
 * (a quarter of the rows at scale). Returns the number of results handed over.
 */
export function streamResults(em: EntityManager, asOf: string, onResult: (r: EngineResult) => void): Promise<number> {
  return streamRows<EngineResult>(em,
    `select r.fighter_id as "fighterId", r.division_id as "divisionId", r.result as outcome, r.method, e.level, e.date::text as "eventDate"
       from verified_result r join event e on e.id = r.event_id
      where e.date <= ? and e.sanctioned_at is not null
        and r.fighter_id in (select f.id from fighter f ${ELIGIBILITY_JOINS} where ${ELIGIBLE})`,
    [asOf, addYears(asOf, -18), asOf], onResult);
}

/**
 * Rows fetched per round trip when streaming a query through a cursor: a few MB of rows at once,
 * 74 round trips for a 100k federation's results (2,000 a fetch measured no better).
 */
const FETCH = 10_000;

/**
 * Runs `query` through a cursor on the transaction of `em`, handing each row to `onRow` and
 * keeping only one batch in memory. Returns the number of rows. Must run inside a transaction.
 */
export async function streamRows<T>(em: EntityManager, query: string, params: unknown[], onRow: (row: T) => void): Promise<number> {
  const cursor = 'ranking_rows';
  await sql(em, `declare ${cursor} no scroll cursor for ${query}`, params);
  let count = 0;
  for (;;) {
    const rows = await sql<T[]>(em, `fetch forward ${FETCH} from ${cursor}`);
    for (const row of rows) onRow(row);
    count += rows.length;
    if (rows.length < FETCH) break;
  }
  await sql(em, `close ${cursor}`);
  return count;
}

/** Seconds since the previous lap, to three decimals. */
export function phaseTimer(): { lap: () => number } {
  let last = performance.now();
  return {
    lap: () => {
      const now = performance.now();
      const seconds = Math.round(now - last) / 1000;
      last = now;
      return seconds;
    },
  };
}
