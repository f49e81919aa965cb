// Computes a whole ranking run (docs/decisions.md#points, #rank-order) in memory from plain rows,
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
  points: number;
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
  private readonly eligible = new Map<string, EngineFighter>();
  /** Division, then fighter: the unrounded sum of the rounded result totals (see `#points`). */
  private readonly sums = new Map<string, Map<string, number>>();
  private readonly records = new Map<string, FighterRecord>();
  private readonly timeValues = new Map<string, number>();

  constructor(private readonly asOf: string, fighters: Iterable<EngineFighter>) {
    for (const fighter of fighters) if (fighter.eligible) this.eligible.set(fighter.id, fighter);
  }

  add(r: EngineResult): void {
    // Canonical YYYY-MM-DD strings order like the dates they name; timeValue validates them.
    if (!(r.eventDate <= this.asOf)) return;
    if (!OUTCOMES.has(r.outcome)) throw new RangeError(`unknown outcome: ${String(r.outcome)}`);
    if (!this.eligible.has(r.fighterId)) return;
    let record = this.records.get(r.fighterId);
    if (!record) {
      record = { W: 0, L: 0, D: 0, NC: 0, KO: 0 };
      this.records.set(r.fighterId, record);
    }
    record[r.outcome] += 1;
    if (r.outcome === 'W' && isKnockout(r.method)) record.KO += 1;
    // resultPoints(...).total, with the time value of the event's date looked up once per date.
    const base = basePoints(r.outcome, r.method);
    const multiplier = levelMultiplier(r.level);
    let time = this.timeValues.get(r.eventDate);
    if (time === undefined) {
      time = timeValue(r.eventDate, this.asOf);
      this.timeValues.set(r.eventDate, time);
    }
    const total = roundPoints(base * multiplier * time);
    let division = this.sums.get(r.divisionId);
    if (!division) {
      division = new Map();
      this.sums.set(r.divisionId, division);
    }
    division.set(r.fighterId, (division.get(r.fighterId) ?? 0) + total);
  }

  finish(previousRanks: ReadonlyMap<string, number>): RankingEntryDraft[] {
    const drafts: RankingEntryDraft[] = [];
    for (const divisionId of [...this.sums.keys()].sort(compareCodeUnits)) {
      const contenders: Contender[] = [];
      for (const [fighterId, sum] of this.sums.get(divisionId)!) {
        const points = roundPoints(sum);
        if (points > 0) contenders.push({ fighter: this.eligible.get(fighterId)!, points });
      }
      // One sort per division; each scope is a filtered subsequence, so it stays in rank order
      // and competition ranks (1, 2, 2, 4) are assigned in a single pass.
      contenders.sort(compareContenders);
      const scopes = new Map<string, { entries: RankingEntryDraft[]; lastPoints: number; lastRank: number }>();
      for (const { fighter, points } of contenders) {
        const record = this.records.get(fighter.id)!;
        // Deduplicated so that a slug shared by two levels cannot list the fighter twice in one table.
        const { continentSlug, countrySlug } = fighter;
        const own = continentSlug === WORLD_SCOPE ? [WORLD_SCOPE] : [WORLD_SCOPE, continentSlug];
        if (!own.includes(countrySlug)) own.push(countrySlug);
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
        }
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
