import type { EventLevel, Outcome } from './points.calculator';
import { type EngineFighter, type EngineResult, type RankingEntryDraft, computeRun } from './ranking.engine';

/** The engine over larger generated data: a whole run, and ranks that agree with their definition. */

const AS_OF = '2025-06-30';

function fighter(id: string, name: string, countrySlug = 'germany', continentSlug = 'europe', eligible = true): EngineFighter {
  return { id, name, countrySlug, continentSlug, eligible };
}

function result(fighterId: string, outcome: Outcome, method: string | null, level: EventLevel | null, eventDate: string, divisionId: string): EngineResult {
  return { fighterId, divisionId, outcome, method, level, eventDate };
}

describe('computeRun at scale', () => {
  // Deterministic pseudo-random data, so a failure reproduces.
  function generate(fighterCount: number, resultCount: number): { fighters: EngineFighter[]; results: EngineResult[] } {
    let seed = 42;
    const next = (n: number): number => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const continents = ['africa', 'asia', 'europe', 'north-america', 'south-america', 'oceania'];
    const outcomes: Outcome[] = ['W', 'W', 'L', 'D', 'NC'];
    const methods = [null, 'KO', 'TKO', 'Decision'];
    const levels: Array<EventLevel | null> = [null, 'national', 'international', 'continental', 'worldcup', 'world'];
    const fighters = Array.from({ length: fighterCount }, (_, i) => {
      const country = next(40);
      return fighter(`f${i}`, `Name ${next(500)}`, `country-${country}`, continents[country % 6]!, next(10) > 0);
    });
    const results = Array.from({ length: resultCount }, () => {
      const date = `${2022 + next(4)}-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(28)).padStart(2, '0')}`;
      return result(`f${next(fighterCount)}`, outcomes[next(5)]!, methods[next(4)]!, levels[next(6)]!, date, `div-${next(8)}`);
    });
    return { fighters, results };
  }

  // How fast the engine is shows in rankings:publish's printed figures and in npm run bench, not here.
  test('10,000 results and 2,000 fighters give a whole run', () => {
    const { fighters, results } = generate(2_000, 10_000);
    const entries = computeRun({ asOf: AS_OF, results, fighters, previousRanks: new Map() });
    expect(entries.length).toBeGreaterThan(3_000);
    expect(new Set(entries.map((e) => e.scope)).has('world')).toBe(true);
  });

  test('ranks agree with the definition: 1 + the number of fighters in the scope with more points', () => {
    const { fighters, results } = generate(300, 1_500);
    const entries = computeRun({ asOf: AS_OF, results, fighters, previousRanks: new Map() });
    const groups = new Map<string, RankingEntryDraft[]>();
    for (const e of entries) {
      const key = `${e.divisionId} ${e.scope}`;
      groups.set(key, [...(groups.get(key) ?? []), e]);
    }
    expect(groups.size).toBeGreaterThan(100);
    for (const group of groups.values()) {
      for (const e of group) {
        expect(e.rank).toBe(1 + group.filter((other) => other.points > e.points).length);
        expect(e.points).toBeGreaterThan(0);
      }
    }
    const ineligible = new Set(fighters.filter((f) => !f.eligible).map((f) => f.id));
    expect(ineligible.size).toBeGreaterThan(0);
    expect(entries.some((e) => ineligible.has(e.fighterId))).toBe(false);
  });
});
