import { type EventLevel, type Outcome, resultPoints, roundPoints } from './points.calculator';
import { type EngineFighter, type EngineResult, type RankingEntryDraft, computeRecord, computeRun, rankKey, RunBuilder } from './ranking.engine';

// The rules of docs/decisions.md#points and #rank-order written the plain way (every result scored
// with resultPoints, ranks counted from the definition), to hold the optimised engine to.
function referenceRun(asOf: string, results: EngineResult[], fighters: EngineFighter[], previous: Map<string, number>): RankingEntryDraft[] {
  const counted = results.filter((r) => r.eventDate <= asOf);
  const records = computeRecord(counted);
  const byId = new Map(fighters.filter((f) => f.eligible).map((f) => [f.id, f]));
  const sums = new Map<string, number>();
  for (const r of counted) {
    if (!byId.has(r.fighterId)) continue;
    const key = JSON.stringify([r.divisionId, r.fighterId]);
    sums.set(key, (sums.get(key) ?? 0) + resultPoints(r.outcome, r.method, r.level, r.eventDate, asOf).total);
  }
  const rows: { divisionId: string; scope: string; fighter: EngineFighter; points: number }[] = [];
  for (const [key, sum] of sums) {
    const [divisionId, fighterId] = JSON.parse(key) as [string, string];
    const fighter = byId.get(fighterId)!;
    const points = roundPoints(sum);
    if (points <= 0) continue;
    for (const scope of new Set(['world', fighter.continentSlug, fighter.countrySlug])) rows.push({ divisionId, scope, fighter, points });
  }
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  const code = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort(
    (a, b) =>
      code(a.divisionId, b.divisionId) ||
      code(a.scope, b.scope) ||
      b.points - a.points ||
      collator.compare(a.fighter.name, b.fighter.name) ||
      code(a.fighter.id, b.fighter.id),
  );
  return rows.map((row) => {
    const rank = 1 + rows.filter((o) => o.divisionId === row.divisionId && o.scope === row.scope && o.points > row.points).length;
    const before = previous.get(rankKey(row.divisionId, row.scope, row.fighter.id));
    return {
      divisionId: row.divisionId,
      scope: row.scope,
      fighterId: row.fighter.id,
      rank,
      points: row.points,
      previousRank: before ?? null,
      movement: before === undefined ? null : before - rank,
      record: { ...records.get(row.fighter.id)! },
    };
  });
}

function generator(seed: number) {
  let state = seed;
  return (n: number): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

function randomInput(seed: number) {
  const next = generator(seed);
  const outcomes: Outcome[] = ['W', 'W', 'L', 'D', 'NC'];
  const methods = [null, 'KO', ' tko ', 'UD', 'SUB'];
  const levels: (EventLevel | null)[] = [null, 'national', 'international', 'continental', 'worldcup', 'world'];
  // Few names and few countries, so that ties in points and in names are common; a country whose
  // slug is its continent's and a continent called 'world' check that no table lists a fighter twice.
  const places: [string, string][] = [
    ['germany', 'europe'],
    ['france', 'europe'],
    ['kenya', 'africa'],
    ['oceania', 'oceania'],
    ['atlantis', 'world'],
  ];
  const fighters = Array.from({ length: 40 + next(80) }, (_, i): EngineFighter => {
    const [countrySlug, continentSlug] = places[next(places.length)]!;
    return { id: `f${String(i).padStart(3, '0')}`, name: ['Ana', 'ana', 'Ána', 'Bo', 'Zed'][next(5)]!, countrySlug, continentSlug, eligible: next(8) > 0 };
  });
  const results = Array.from(
    { length: 100 + next(600) },
    (): EngineResult => ({
      fighterId: fighters[next(fighters.length)]!.id,
      divisionId: `div-${next(4)}`,
      outcome: outcomes[next(5)]!,
      method: methods[next(5)]!,
      level: levels[next(6)]!,
      eventDate: `${2022 + next(4)}-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(28)).padStart(2, '0')}`,
    }),
  );
  const previous = new Map<string, number>();
  for (const r of results) if (next(3) === 0) previous.set(rankKey(r.divisionId, ['world', 'europe', 'germany'][next(3)]!, r.fighterId), 1 + next(30));
  return { fighters, results, previous };
}

describe('the engine against a plain reference', () => {
  test.each(Array.from({ length: 40 }, (_, i) => i + 1))('gives the same run on random input %i', (seed) => {
    const { fighters, results, previous } = randomInput(seed);
    const asOf = '2025-06-30';
    expect(computeRun({ asOf, results, fighters, previousRanks: previous })).toEqual(referenceRun(asOf, results, fighters, previous));
  });

  test('gives the same run whether results are added one by one or at once', () => {
    const { fighters, results, previous } = randomInput(99);
    const builder = new RunBuilder('2025-06-30', fighters);
    for (const r of [...results].reverse()) builder.add(r);
    const sorted = (e: RankingEntryDraft[]) => e.map((x) => JSON.stringify(x)).sort();
    expect(sorted(builder.finish(previous))).toEqual(sorted(computeRun({ asOf: '2025-06-30', results, fighters, previousRanks: previous })));
  });
});
