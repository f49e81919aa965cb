// Computes a whole ranking run (docs/decisions.md#points, docs/decisions.md#rank-order) in memory from plain rows,
// so that the service only loads and stores, and the rules can be tested without a database.
import { type EventLevel, type Outcome, basePoints, isKnockout, levelMultiplier, roundPoints, timeValue } from './points.calculator';

export interface EngineResult {
  fighterId: string;
  divisionId: string;
  outcome: Outcome;
  method: string | null;
  level: EventLevel | null;
  eventDate: string;
}

// eligible = adult, licensed, licence active, ranking_published: decided by the caller.
export interface EngineFighter {
  id: string;
  name: string;
  countrySlug: string;
  continentSlug: string;
  eligible: boolean;
  /** The fighter's own division (the one their card shows): their standing is taken in it. */
  divisionId?: string;
}

export interface FighterRecord {
  W: number;
  L: number;
  D: number;
  NC: number;
  KO: number;
}

export interface RankingEntryDraft {
  divisionId: string;
  scope: string;
  fighterId: string;
  rank: number;
  points: number;
  previousRank: number | null;
  movement: number | null;
  record: FighterRecord;
}

/** A fighter's world points and ranks in their own division, as their card shows them. */
export interface FighterStanding {
  fighterId: string;
  points: number;
  /** Scope and rank: the world first, then the continent, then the country (the order of the scopes in finish). */
  ranks: [scope: string, rank: number][];
}

export interface ComputeRunInput {
  asOf: string;
  results: EngineResult[];
  fighters: EngineFighter[];
  previousRanks: Map<string, number>;
}

export const WORLD_SCOPE = 'world';

// Created once: Intl.Collator is far cheaper per comparison than String#localeCompare.
const byName = new Intl.Collator('en', { sensitivity: 'base' });

// Outcomes arrive as database strings; an unknown one must not create a stray record key.
const OUTCOMES: ReadonlySet<string> = new Set<Outcome>(['W', 'L', 'D', 'NC']);

// JSON keeps the key unambiguous whatever characters the ids contain.
export function rankKey(divisionId: string, scope: string, fighterId: string): string {
  return JSON.stringify([divisionId, scope, fighterId]);
}

export function computeRecord(results: EngineResult[]): Map<string, FighterRecord> {
  const records = new Map<string, FighterRecord>();
  for (const result of results) {
    let record = records.get(result.fighterId);
    if (!record) {
      record = { W: 0, L: 0, D: 0, NC: 0, KO: 0 };
      records.set(result.fighterId, record);
    }
    if (!OUTCOMES.has(result.outcome)) throw new RangeError(`unknown outcome: ${String(result.outcome)}`);
    record[result.outcome] += 1;
    if (result.outcome === 'W' && isKnockout(result.method)) record.KO += 1;
  }
  return records;
}

interface Contender {
  fighter: EngineFighter;
  record: FighterRecord;
  points: number;
}

interface Tally {
  fighter: EngineFighter;
  record: FighterRecord;
  /** Division to the unrounded sum of the rounded result totals (see docs/decisions.md#points). */
  sums: Map<string, number>;
}

function compareContenders(a: Contender, b: Contender): number {
  if (a.points !== b.points) return b.points - a.points;
  const byNameOrder = byName.compare(a.fighter.name, b.fighter.name);
  if (byNameOrder !== 0) return byNameOrder;
  return a.fighter.id < b.fighter.id ? -1 : a.fighter.id > b.fighter.id ? 1 : 0;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A run built result by result, so that the publication can stream its results rather than hold
 * them all: only eligible fighters' points and records are kept (per division and fighter), and
 * each event date's time value is computed once. `computeRun` is the same over an array.
 */
export class RunBuilder {
  /** Eligible fighters only, each with its record and its points per division. */
  private readonly tallies = new Map<string, Tally>();
  private readonly timeValues = new Map<string, number>();
  private readonly knockouts = new Map<string, boolean>();
  /** Filled by finish: the standing of each fighter ranked in their own division (`divisionId`). */
  readonly standings: FighterStanding[] = [];

  constructor(
    private readonly asOf: string,
    fighters: Iterable<EngineFighter>,
  ) {
    for (const fighter of fighters) {
      if (fighter.eligible) this.tallies.set(fighter.id, { fighter, record: { W: 0, L: 0, D: 0, NC: 0, KO: 0 }, sums: new Map() });
    }
  }

  /** Counts a result towards its fighter's tally; false when it does not count (an ineligible fighter, a later date). */
  add(r: EngineResult): boolean {
    // Canonical YYYY-MM-DD strings order like the dates they name; timeValue validates them.
    if (!(r.eventDate <= this.asOf)) return false;
    if (!OUTCOMES.has(r.outcome)) throw new RangeError(`unknown outcome: ${String(r.outcome)}`);
    const tally = this.tallies.get(r.fighterId);
    if (!tally) return false;
    const knockout = r.outcome === 'W' && this.isKnockout(r.method);
    tally.record[r.outcome] += 1;
    if (knockout) tally.record.KO += 1;
    // resultPoints(...).total, with each event date's time value and each method's reading once.
    const base = knockout ? basePoints('W', 'KO') : basePoints(r.outcome, null);
    let time = this.timeValues.get(r.eventDate);
    if (time === undefined) {
      time = timeValue(r.eventDate, this.asOf);
      this.timeValues.set(r.eventDate, time);
    }
    const total = roundPoints(base * levelMultiplier(r.level) * time);
    tally.sums.set(r.divisionId, (tally.sums.get(r.divisionId) ?? 0) + total);
    return true;
  }

  private isKnockout(method: string | null): boolean {
    if (method === null) return false;
    let knockout = this.knockouts.get(method);
    if (knockout === undefined) {
      knockout = isKnockout(method);
      this.knockouts.set(method, knockout);
    }
    return knockout;
  }

  finish(previousRanks: ReadonlyMap<string, number>): RankingEntryDraft[] {
    const byDivision = new Map<string, Contender[]>();
    for (const { fighter, record, sums } of this.tallies.values()) {
      for (const [divisionId, sum] of sums) {
        const points = roundPoints(sum);
        if (points <= 0) continue;
        let contenders = byDivision.get(divisionId);
        if (!contenders) {
          contenders = [];
          byDivision.set(divisionId, contenders);
        }
        contenders.push({ fighter, record, points });
      }
    }
    const drafts: RankingEntryDraft[] = [];
    for (const divisionId of [...byDivision.keys()].sort(compareCodeUnits)) {
      const contenders = byDivision.get(divisionId)!;
      // One sort per division; each scope is a filtered subsequence, so it stays in rank order
      // and competition ranks (1, 2, 2, 4) are assigned in a single pass.
      contenders.sort(compareContenders);
      const scopes = new Map<string, { entries: RankingEntryDraft[]; lastPoints: number; lastRank: number }>();
      for (const { fighter, record, points } of contenders) {
        // Deduplicated so that a slug shared by two levels cannot list the fighter twice in one table.
        const { continentSlug, countrySlug } = fighter;
        const own = continentSlug === WORLD_SCOPE ? [WORLD_SCOPE] : [WORLD_SCOPE, continentSlug];
        if (!own.includes(countrySlug)) own.push(countrySlug);
        const standing: FighterStanding | null = fighter.divisionId === divisionId ? { fighterId: fighter.id, points, ranks: [] } : null;
        for (const scope of own) {
          let state = scopes.get(scope);
          if (!state) {
            state = { entries: [], lastPoints: Number.NaN, lastRank: 0 };
            scopes.set(scope, state);
          }
          if (points !== state.lastPoints) state.lastRank = state.entries.length + 1;
          state.lastPoints = points;
          const previous = previousRanks.get(rankKey(divisionId, scope, fighter.id));
          state.entries.push({
            divisionId,
            scope,
            fighterId: fighter.id,
            rank: state.lastRank,
            points,
            previousRank: previous ?? null,
            movement: previous === undefined ? null : previous - state.lastRank,
            record: { ...record },
          });
          standing?.ranks.push([scope, state.lastRank]);
        }
        if (standing) this.standings.push(standing);
      }
      for (const scope of [...scopes.keys()].sort(compareCodeUnits)) {
        for (const entry of scopes.get(scope)!.entries) drafts.push(entry);
      }
    }
    return drafts;
  }
}

export function computeRun(input: ComputeRunInput): RankingEntryDraft[] {
  const builder = new RunBuilder(input.asOf, input.fighters);
  for (const result of input.results) builder.add(result);
  return builder.finish(input.previousRanks);
}
