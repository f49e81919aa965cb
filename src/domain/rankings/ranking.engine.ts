// Computes a whole ranking run (docs/decisions.md#ranked, docs/decisions.md#rank-order) in memory from plain rows, so that the
// service only loads and stores, and the rules can be tested without a database.
import { type EventLevel, type Outcome, isKnockout, resultPoints, roundPoints } from './points.calculator';

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

// Sums per division and fighter, rounding once after summing as docs/decisions.md#ranked sums the rounded totals.
function pointsByDivision(
  results: EngineResult[],
  eligible: Map<string, EngineFighter>,
  asOf: string,
): Map<string, Map<string, number>> {
  const sums = new Map<string, Map<string, number>>();
  for (const r of results) {
    if (!eligible.has(r.fighterId)) continue;
    const total = resultPoints(r.outcome, r.method, r.level, r.eventDate, asOf).total;
    let division = sums.get(r.divisionId);
    if (!division) {
      division = new Map();
      sums.set(r.divisionId, division);
    }
    division.set(r.fighterId, (division.get(r.fighterId) ?? 0) + total);
  }
  return sums;
}

export function computeRun(input: ComputeRunInput): RankingEntryDraft[] {
  const { asOf, previousRanks } = input;
  // Canonical YYYY-MM-DD strings order like the dates they name; resultPoints validates them.
  const counted = input.results.filter((r) => r.eventDate <= asOf);
  const records = computeRecord(counted);
  const eligible = new Map<string, EngineFighter>();
  for (const fighter of input.fighters) if (fighter.eligible) eligible.set(fighter.id, fighter);

  const drafts: RankingEntryDraft[] = [];
  const sums = pointsByDivision(counted, eligible, asOf);
  for (const divisionId of [...sums.keys()].sort(compareCodeUnits)) {
    const contenders: Contender[] = [];
    for (const [fighterId, sum] of sums.get(divisionId)!) {
      const points = roundPoints(sum);
      if (points > 0) contenders.push({ fighter: eligible.get(fighterId)!, points });
    }
    // One sort per division; each scope is a filtered subsequence, so it stays in rank order and
    // competition ranks (1, 2, 2, 4) are assigned in a single pass.
    contenders.sort(compareContenders);
    const scopes = new Map<string, { entries: RankingEntryDraft[]; lastPoints: number; lastRank: number }>();
    for (const { fighter, points } of contenders) {
      // A Set so that a slug shared by two levels cannot list the fighter twice in one table.
      for (const scope of new Set([WORLD_SCOPE, fighter.continentSlug, fighter.countrySlug])) {
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
          record: { ...records.get(fighter.id)! },
        });
      }
    }
    for (const scope of [...scopes.keys()].sort(compareCodeUnits)) {
      for (const entry of scopes.get(scope)!.entries) drafts.push(entry);
    }
  }
  return drafts;
}
