import type { EntityManager } from '@mikro-orm/postgresql';
import { copyRows } from '../../db/copy-out';
import { addYears } from '../clock';
import { boutResultSql } from '../results/bout-result.sql';
import { sql } from '../unit-of-work';
import type { EventLevel, Outcome } from './points.calculator';
import { type EngineFighter, type EngineResult, rankKey } from './ranking.engine';

/**
 * Whether fighter `f` may be ranked (docs/decisions.md#ranked): adult on the as-of date, licensed,
 * published, the current licence active and in date. Joins: `fighter_identity fi`, `licence l`
 * (current, left); parameters: the date 18 years before as-of, then as-of.
 */
const ELIGIBLE = `(fi.date_of_birth <= ?::date and f.status = 'licensed' and f.ranking_published
  and l.state = 'active' and (l.valid_until is null or l.valid_until >= ?::date)) is true`;
const ELIGIBILITY_JOINS = `join fighter_identity fi on fi.fighter_id = f.id left join licence l on l.fighter_id = f.id and l.current`;

/**
 * Every fighter, with whether they may be ranked on `asOf` and their own division. Rows arrive through COPY (see
 * src/db/copy-out.ts), as every bulk read of the publication: text columns, no row objects.
 */
export async function loadFighters(em: EntityManager, asOf: string): Promise<EngineFighter[]> {
  const fighters: EngineFighter[] = [];
  await copyRows(
    em,
    `select f.id, f.name, f.country_slug, c.continent_slug, f.division_id, ${ELIGIBLE}
       from fighter f join country c on c.slug = f.country_slug ${ELIGIBILITY_JOINS}`,
    [addYears(asOf, -18), asOf],
    ([id, name, countrySlug, continentSlug, divisionId, eligible]) => {
      fighters.push({ id: id!, name: name!, countrySlug: countrySlug!, continentSlug: continentSlug!, divisionId: divisionId!, eligible: eligible === 't' });
    },
  );
  return fighters;
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
  const [run] = await sql<{ id: string; as_of: string }[]>(em, `select id, as_of::text as as_of from ranking_run where as_of < ? order by as_of desc limit 1`, [
    asOf,
  ]);
  const previous: PreviousRun = { asOf: run?.as_of ?? null, ranks: new Map(), worldPoints: new Map() };
  if (!run) return previous;
  // float8 is written as its shortest exact text (PostgreSQL 12 and later), so Number() reads back the stored double.
  await copyRows(
    em,
    `select division_id, scope, fighter_id, rank, points from ranking_entry where run_id = ?`,
    [run.id],
    ([divisionId, scope, fighterId, rank, points]) => {
      const key = rankKey(divisionId!, scope!, fighterId!);
      previous.ranks.set(key, Number(rank));
      if (scope === 'world') previous.worldPoints.set(key, Number(points));
    },
  );
  return previous;
}

/**
 * Hands the verified results of sanctioned events up to `asOf` to `onResult`, streamed (a million
 * results are never held at once): one row per bout, both sides' results on it (as the results
 * view defines them), so half the rows of the view and no join on the fighters' eligibility; the
 * engine skips the results of fighters it may not rank. Returns the number of bouts read.
 */
export function streamResults(em: EntityManager, asOf: string, onResult: (r: EngineResult) => void): Promise<number> {
  return copyRows(
    em,
    `select b.fighter_a_id, b.fighter_b_id, b.division_id, ${boutResultSql('a')}, ${boutResultSql('b')}, b.method, e.level, e.date::text
       from bout b join event e on e.id = b.event_id
      where b.verified_at is not null and e.sanctioned_at is not null and e.date <= ?`,
    [asOf],
    ([a, b, divisionId, resultA, resultB, method, level, eventDate]) => {
      onResult({ fighterId: a!, divisionId: divisionId!, outcome: resultA as Outcome, method, level: level as EventLevel | null, eventDate: eventDate! });
      onResult({ fighterId: b!, divisionId: divisionId!, outcome: resultB as Outcome, method, level: level as EventLevel | null, eventDate: eventDate! });
    },
  );
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
