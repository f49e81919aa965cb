import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { sql, type UnitOfWork } from '../unit-of-work';
import type { RankingChange } from '../domain-events';
import { rankKey, RunBuilder, type RankingEntryDraft } from './ranking.engine';
import { loadFighters, loadPreviousRun, phaseTimer, streamResults } from './ranking.loader';
import { RankingRun } from './ranking.entities';
import { analyzeRankingTables, insertFighterStandings, insertRankingEntries } from './ranking.writer';

export interface PublishedRun {
  run: RankingRun;
  entries: RankingEntryDraft[];
  previousAsOf: string | null;
  /** What the run was computed from and how long the publication took. */
  figures: {
    fighters: number;
    results: number;
    divisions: number;
    rows: number;
    /** From the call to the commit (to the end of this work when the transaction is the caller's). */
    seconds: number;
    /**
     * Seconds spent loading (fighters, previous run, results streamed into the engine), computing
     * the rest, writing the entries and standings, analysing, refreshing (read model, audit entry,
     * ranking.published in the outbox) and committing (0 in the caller's transaction).
     */
    phases: { load: number; compute: number; write: number; analyze: number; refresh: number; commit: number };
  };
}

/** Computes and stores a whole ranking run (every division and scope) for an as-of date. */
export class RankingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async publish(actor: Actor, asOfInput?: string, tx?: EntityManager): Promise<PublishedRun> {
    const asOf = asOfInput ?? this.clock.today();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(asOf))) {
      throw new DomainError('invalid_as_of', 'as-of must be a date, YYYY-MM-DD');
    }
    const started = performance.now();
    let ended = 0;
    const published = await this.uow.run(tx, async (em, changed): Promise<PublishedRun> => {
      const latest = await sql<{ as_of: string }[]>(em, `select as_of::text as as_of from ranking_run order by as_of desc limit 1`);
      if (latest[0] && latest[0].as_of >= asOf) {
        throw new DomainError('invalid_state', `a ranking run for ${latest[0].as_of} is already published; publish a later date`);
      }
      const timer = phaseTimer();
      const { entries, standings, previous, fighters, results, load } = await loadAndCompute(em, asOf, timer);
      const compute = timer.lap();
      // Writes: the run, its entries and standings in bulk, fresh statistics for the planner.
      const run = Object.assign(new RankingRun(), { asOf, publishedAt: this.clock.now() });
      await em.persistAndFlush(run);
      await insertRankingEntries(em, run.id, entries);
      await insertFighterStandings(em, run.id, standings);
      const write = timer.lap();
      await analyzeRankingTables(em);
      const analyze = timer.lap();
      audit(em, actor, 'rankings.publish', asOf, { entries: entries.length });
      // no card changes (a card's standing is read from the run it is served with, fighter_standing;
      // docs/adr/0009), but every partner body names the run
      await changed({ topics: ['catalog'], events: [{ type: 'ranking.published', asOf, changes: worldChanges(entries, previous.worldPoints) }] });
      const refresh = timer.lap();
      ended = performance.now();
      const figures = {
        fighters,
        results,
        divisions: new Set(entries.map((e) => e.divisionId)).size,
        rows: entries.length,
        seconds: 0,
        phases: { load, compute, write, analyze, refresh, commit: 0 },
      };
      return { run, entries, previousAsOf: previous.asOf, figures };
    });
    const done = performance.now();
    if (!tx) published.figures.phases.commit = Math.round(done - ended) / 1000;
    published.figures.seconds = Math.round(done - started) / 1000;
    return published;
  }
}

/**
 * Loads what a run is computed from (fighters, the previous run, the results streamed into the
 * engine) and computes it; in a function of its own so that none of it outlives the computation.
 */
async function loadAndCompute(em: EntityManager, asOf: string, timer: { lap: () => number }) {
  const fighters = await loadFighters(em, asOf);
  const builder = new RunBuilder(asOf, fighters);
  const previous = await loadPreviousRun(em, asOf);
  let results = 0;
  await streamResults(em, asOf, (r) => {
    if (builder.add(r)) results += 1;
  });
  const load = timer.lap();
  const entries = builder.finish(previous.ranks);
  return {
    entries,
    standings: builder.standings,
    previous: { asOf: previous.asOf, worldPoints: previous.worldPoints },
    fighters: fighters.length,
    results,
    load,
  };
}

/** docs/decisions.md#ranking-runs: a fighter newly ranked, or whose world rank or points changed in their division. */
export function worldChanges(entries: RankingEntryDraft[], previousPoints: Map<string, number>): RankingChange[] {
  return entries
    .filter((e) => e.scope === 'world')
    .filter((e) => e.previousRank === null || e.previousRank !== e.rank || previousPoints.get(rankKey(e.divisionId, e.scope, e.fighterId)) !== e.points)
    .map((e) => ({ fighterId: e.fighterId, divisionId: e.divisionId, rank: e.rank, previousRank: e.previousRank, movement: e.movement, points: e.points }));
}
