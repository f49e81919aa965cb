import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import { noEvents, type DomainEventSink } from '../domain-events';
import type { Clock } from '../clock';
import { addYears } from '../clock';
import { DomainError } from '../errors';
import { refreshAfterPublish } from '../catalog/read-model/read-model.refresh';
import type { EventLevel } from '../events/event.entity';
import { inTransaction, sql } from '../unit-of-work';
import type { RankingChange } from '../domain-events';
import type { Outcome } from './points.calculator';
import { computeRun, rankKey, type EngineFighter, type EngineResult, type RankingEntryDraft } from './ranking.engine';
import { RankingRun } from './ranking.entities';
import { analyzeRankingTables, insertRankingEntries } from './ranking.writer';

export interface PublishedRun {
  run: RankingRun;
  entries: RankingEntryDraft[];
  previousAsOf: string | null;
  /** What the run was computed from and how long the publication took. */
  figures: { fighters: number; results: number; divisions: number; rows: number; seconds: number };
}

/** Computes and stores a whole ranking run (every division and scope) for an as-of date. */
export class RankingService {
  constructor(
    private readonly root: EntityManager,
    private readonly clock: Clock,
    private readonly events: DomainEventSink = noEvents,
  ) {}

  async publish(actor: Actor, asOfInput?: string, tx?: EntityManager): Promise<PublishedRun> {
    const asOf = asOfInput ?? this.clock.today();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(asOf))) {
      throw new DomainError('invalid_as_of', 'as-of must be a date, YYYY-MM-DD');
    }
    const started = performance.now();
    return inTransaction(this.root, tx, async (em) => {
      const latest = await sql<{ as_of: string }[]>(em, `select as_of::text as as_of from ranking_run order by as_of desc limit 1`);
      if (latest[0] && latest[0].as_of >= asOf) {
        throw new DomainError('invalid_state', `a ranking run for ${latest[0].as_of} is already published; publish a later date`);
      }
      const results = await sql<{ fighter_id: string; division_id: string; result: Outcome; method: string | null; level: EventLevel | null; date: string }[]>(em, `select r.fighter_id, r.division_id, r.result, r.method, e.level, e.date::text as date
           from verified_result r join event e on e.id = r.event_id
          where e.date <= ? and e.sanctioned_at is not null`,
        [asOf],
      );
      const fighters = await sql<{ id: string; name: string; country_slug: string; continent_slug: string; eligible: boolean }[]>(em, `select f.id, f.name, f.country_slug, c.continent_slug,
                (fi.date_of_birth <= ?::date and f.status = 'licensed' and f.ranking_published
                 and l.state = 'active' and (l.valid_until is null or l.valid_until >= ?::date)) is true as eligible
           from fighter f
           join country c on c.slug = f.country_slug
           join fighter_identity fi on fi.fighter_id = f.id
           left join licence l on l.fighter_id = f.id and l.current`,
        [addYears(asOf, -18), asOf],
      );
      const previous = await sql<{ as_of: string; division_id: string; scope: string; fighter_id: string; rank: number; points: number }[]>(em, `select r.as_of::text as as_of, e.division_id, e.scope, e.fighter_id, e.rank, e.points
           from ranking_entry e join ranking_run r on r.id = e.run_id
          where r.id = (select id from ranking_run where as_of < ? order by as_of desc limit 1)`,
        [asOf],
      );
      const previousRanks = new Map(previous.map((p) => [rankKey(p.division_id, p.scope, p.fighter_id), p.rank]));
      const entries = computeRun({
        asOf,
        results: results.map((r): EngineResult => ({
          fighterId: r.fighter_id, divisionId: r.division_id, outcome: r.result, method: r.method, level: r.level, eventDate: r.date,
        })),
        fighters: fighters.map((f): EngineFighter => ({
          id: f.id, name: f.name, countrySlug: f.country_slug, continentSlug: f.continent_slug, eligible: f.eligible,
        })),
        previousRanks,
      });
      // Writes: the run, its entries in bulk, fresh statistics for the planner.
      const run = Object.assign(new RankingRun(), { asOf, publishedAt: this.clock.now() });
      await em.persistAndFlush(run);
      await insertRankingEntries(em, run.id, entries);
      await analyzeRankingTables(em);
      audit(em, actor, 'rankings.publish', asOf, { entries: entries.length });
      await em.flush();
      await refreshAfterPublish(em, run.id);
      const previousPoints = new Map(previous.map((p) => [rankKey(p.division_id, p.scope, p.fighter_id), p.points]));
      await this.events.publish(em, [{ type: 'ranking.published', asOf, changes: worldChanges(entries, previousPoints) }]);
      const figures = {
        fighters: fighters.length, results: results.length, divisions: new Set(entries.map((e) => e.divisionId)).size,
        rows: entries.length, seconds: Math.round(performance.now() - started) / 1000,
      };
      return { run, entries, previousAsOf: previous[0]?.as_of ?? null, figures };
    });
  }
}

/** docs/decisions.md#ranking-runs: a fighter newly ranked, or whose world rank or points changed in their division. */
export function worldChanges(entries: RankingEntryDraft[], previousPoints: Map<string, number>): RankingChange[] {
  return entries
    .filter((e) => e.scope === 'world')
    .filter((e) => e.previousRank === null || e.previousRank !== e.rank || previousPoints.get(rankKey(e.divisionId, e.scope, e.fighterId)) !== e.points)
    .map((e) => ({ fighterId: e.fighterId, divisionId: e.divisionId, rank: e.rank, previousRank: e.previousRank, movement: e.movement, points: e.points }));
}
