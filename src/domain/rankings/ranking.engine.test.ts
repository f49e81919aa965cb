import type { EventLevel, Outcome } from './points.calculator';
import { type EngineFighter, type EngineResult, type RankingEntryDraft, computeRecord, computeRun, rankKey } from './ranking.engine';

const AS_OF = '2025-06-30';
const RECENT = '2025-06-01'; // time value 1.0
const LAST_YEAR = '2024-06-01'; // 13 months old: 0.5
const EXPIRED = '2023-01-01'; // over 24 months: 0
const DIV = 'kickboxing-pro-m-67kg';

function fighter(id: string, name: string, countrySlug = 'germany', continentSlug = 'europe', eligible = true): EngineFighter {
  return { id, name, countrySlug, continentSlug, eligible };
}

function result(
  fighterId: string,
  outcome: Outcome,
  method: string | null = null,
  level: EventLevel | null = 'national',
  eventDate = RECENT,
  divisionId = DIV,
): EngineResult {
  return { fighterId, divisionId, outcome, method, level, eventDate };
}

// n national wins this year: exactly 10 points each.
function wins(fighterId: string, n: number, divisionId = DIV): EngineResult[] {
  return Array.from({ length: n }, () => result(fighterId, 'W', 'Decision', 'national', RECENT, divisionId));
}

function run(results: EngineResult[], fighters: EngineFighter[], previousRanks = new Map<string, number>()): RankingEntryDraft[] {
  return computeRun({ asOf: AS_OF, results, fighters, previousRanks });
}

function table(entries: RankingEntryDraft[], scope: string, divisionId = DIV): Array<[string, number, number]> {
  return entries.filter((e) => e.scope === scope && e.divisionId === divisionId).map((e) => [e.fighterId, e.rank, e.points]);
}

function entry(entries: RankingEntryDraft[], fighterId: string, scope = 'world', divisionId = DIV): RankingEntryDraft | undefined {
  return entries.find((e) => e.fighterId === fighterId && e.scope === scope && e.divisionId === divisionId);
}

describe('rankKey', () => {
  test('identifies a division, scope and fighter', () => {
    expect(rankKey('d', 'world', 'f')).toBe(rankKey('d', 'world', 'f'));
    expect(rankKey('d', 'world', 'f')).not.toBe(rankKey('d', 'europe', 'f'));
    expect(rankKey('d', 'world', 'f')).not.toBe(rankKey('e', 'world', 'f'));
    expect(rankKey('d', 'world', 'f')).not.toBe(rankKey('d', 'world', 'g'));
  });

  test('cannot be forged by separators inside the parts', () => {
    expect(rankKey('a|b', 'c', 'd')).not.toBe(rankKey('a', 'b|c', 'd'));
    expect(rankKey('a:b', 'c', 'd')).not.toBe(rankKey('a', 'b:c', 'd'));
    expect(rankKey('a","b', 'c', 'd')).not.toBe(rankKey('a', 'b","c', 'd'));
  });
});

describe('computeRecord', () => {
  test('counts W, L, D, NC per fighter over all divisions, and KO = wins by KO or TKO', () => {
    const records = computeRecord([
      result('a', 'W', 'KO'),
      result('a', 'W', 'tko', 'world', LAST_YEAR, 'other-division'),
      result('a', 'W', 'Decision'),
      result('a', 'W', null, null, EXPIRED),
      result('a', 'L', 'KO'),
      result('a', 'L', 'Decision'),
      result('a', 'D', null),
      result('a', 'NC', 'TKO'),
      result('a', 'NC', null),
      result('a', 'NC', null),
      result('b', 'L', 'TKO'),
    ]);
    expect(records).toEqual(
      new Map([
        ['a', { W: 4, L: 2, D: 1, NC: 3, KO: 2 }],
        ['b', { W: 0, L: 1, D: 0, NC: 0, KO: 0 }],
      ]),
    );
  });

  test('is empty without results', () => {
    expect(computeRecord([]).size).toBe(0);
  });

  test('rejects an unknown outcome instead of inventing a counter', () => {
    expect(() => computeRecord([result('a', 'KO' as Outcome)])).toThrow(RangeError);
    expect(() => computeRecord([result('a', 'win' as Outcome)])).toThrow(RangeError);
  });
});

describe('computeRun: points (docs/decisions.md#ranked)', () => {
  test('sums the totals of every result in the division', () => {
    const entries = run(
      [
        result('ana', 'W', 'KO', 'world'), // 36
        result('ana', 'W', 'Decision', 'international', LAST_YEAR), // 7.5
        result('ana', 'L', null, 'national'), // 2
        result('ana', 'D', null, 'continental', EXPIRED), // 0
        result('ben', 'W', null, 'national'), // 10
        result('ben', 'D', null, 'worldcup', LAST_YEAR), // 6.25
        result('cy', 'L', null, 'international'), // 3
      ],
      [fighter('ana', 'Ana'), fighter('ben', 'Ben', 'france'), fighter('cy', 'Cy', 'japan', 'asia')],
    );
    expect(table(entries, 'world')).toEqual([
      ['ana', 1, 45.5],
      ['ben', 2, 16.25],
      ['cy', 3, 3],
    ]);
  });

  test('a fighter with only losses still has points and is ranked', () => {
    expect(table(run([result('ned', 'L')], [fighter('ned', 'Ned')]), 'world')).toEqual([['ned', 1, 2]]);
  });

  test('NC results add 0 points; a fighter with only NC results is not ranked', () => {
    const entries = run(
      [result('kai', 'NC', null, 'world'), result('kai', 'NC', 'KO', 'world'), result('lea', 'W'), result('lea', 'NC', null, 'world')],
      [fighter('kai', 'Kai'), fighter('lea', 'Lea')],
    );
    expect(entries.filter((e) => e.fighterId === 'kai')).toEqual([]);
    expect(table(entries, 'world')).toEqual([['lea', 1, 10]]);
    expect(entry(entries, 'lea')?.record).toEqual({ W: 1, L: 0, D: 0, NC: 1, KO: 0 });
  });

  test('a fighter whose results are all over 24 months old has 0 points and is not ranked', () => {
    const entries = run(
      [result('max', 'W', 'KO', 'world', EXPIRED), result('max', 'W', null, 'world', '2023-06-30'), ...wins('ned', 1)],
      [fighter('max', 'Max'), fighter('ned', 'Ned')],
    );
    expect(entries.map((e) => e.fighterId)).toEqual(['ned', 'ned', 'ned']);
  });

  test('results dated after as_of are ignored for points and record; as_of itself counts', () => {
    const entries = run(
      [
        result('fay', 'W'),
        result('fay', 'W', 'KO', 'world', '2025-07-01'),
        result('fay', 'L', null, 'national', '2026-01-01'),
        result('gil', 'W', null, 'national', AS_OF),
        result('hal', 'W', 'KO', 'world', '2025-07-01'),
      ],
      [fighter('fay', 'Fay'), fighter('gil', 'Gil'), fighter('hal', 'Hal')],
    );
    expect(table(entries, 'world')).toEqual([
      ['fay', 1, 10],
      ['gil', 1, 10],
    ]);
    expect(entry(entries, 'fay')?.record).toEqual({ W: 1, L: 0, D: 0, NC: 0, KO: 0 });
    expect(entry(entries, 'gil')?.record).toEqual({ W: 1, L: 0, D: 0, NC: 0, KO: 0 });
  });

  test('a fighter in two divisions is ranked in each with that division’s points, and one record', () => {
    const entries = run(
      [
        ...wins('ida', 1, 'div-a'),
        result('ida', 'W', 'KO', 'world', RECENT, 'div-b'),
        result('ida', 'L', null, 'national', RECENT, 'div-b'),
        ...wins('jo', 2, 'div-a'),
      ],
      [fighter('ida', 'Ida'), fighter('jo', 'Jo')],
    );
    expect(table(entries, 'world', 'div-a')).toEqual([
      ['jo', 1, 20],
      ['ida', 2, 10],
    ]);
    expect(table(entries, 'world', 'div-b')).toEqual([['ida', 1, 38]]);
    const expected = { W: 2, L: 1, D: 0, NC: 0, KO: 1 };
    expect(entry(entries, 'ida', 'world', 'div-a')?.record).toEqual(expected);
    expect(entry(entries, 'ida', 'germany', 'div-b')?.record).toEqual(expected);
  });

  test('ineligible fighters are excluded and take nobody’s place', () => {
    const entries = run(
      [result('ivan', 'W', 'KO', 'world'), result('ivan', 'W', 'KO', 'world'), ...wins('eva', 1), ...wins('ghost', 5)],
      [fighter('ivan', 'Ivan', 'germany', 'europe', false), fighter('eva', 'Eva')],
    );
    expect(entries.map((e) => [e.scope, e.fighterId, e.rank])).toEqual([
      ['europe', 'eva', 1],
      ['germany', 'eva', 1],
      ['world', 'eva', 1],
    ]);
  });

  test('surfaces malformed data instead of ranking on it', () => {
    expect(() => run([result('a', 'W', null, 'national', '2025-02-30')], [fighter('a', 'A')])).toThrow(RangeError);
    expect(() => run([result('a', 'W', null, 'regional' as EventLevel)], [fighter('a', 'A')])).toThrow(RangeError);
  });

  test('nothing to rank gives an empty run', () => {
    expect(run([], [fighter('a', 'A')])).toEqual([]);
  });
});

describe('computeRun: ranks and ties (docs/decisions.md#rank-order)', () => {
  test('equal points share a rank with competition ranking (1, 2, 2, 4), ties listed by name', () => {
    const entries = run(
      [...wins('zoe', 2), ...wins('bob', 1), ...wins('adam', 1), result('carl', 'D')],
      [fighter('zoe', 'Zoe'), fighter('bob', 'Bob'), fighter('adam', 'adam'), fighter('carl', 'Carl')],
    );
    expect(table(entries, 'world')).toEqual([
      ['zoe', 1, 20],
      ['adam', 2, 10], // case-insensitive: "adam" before "Bob"
      ['bob', 2, 10],
      ['carl', 4, 5],
    ]);
  });

  test('a three-way tie at the top: 1, 1, 1, 4', () => {
    const entries = run(
      [...wins('c', 1), ...wins('a', 1), ...wins('b', 1), result('d', 'L')],
      [fighter('a', 'Abe'), fighter('b', 'Bea'), fighter('c', 'Cal'), fighter('d', 'Dee')],
    );
    expect(table(entries, 'world').map(([id, rank]) => [id, rank])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 1],
      ['d', 4],
    ]);
  });

  test('tie order ignores accents and case, then falls back to the id', () => {
    const entries = run(
      [...wins('f-ezra', 1), ...wins('f-emile', 1), ...wins('f-eli', 1), ...wins('f-2', 1), ...wins('f-1', 1)],
      [fighter('f-ezra', 'Ezra'), fighter('f-emile', 'Émile'), fighter('f-eli', 'eli'), fighter('f-2', 'Lopez'), fighter('f-1', 'López')],
    );
    expect(table(entries, 'world').map(([id]) => id)).toEqual(['f-eli', 'f-emile', 'f-ezra', 'f-1', 'f-2']);
    expect(new Set(table(entries, 'world').map(([, rank]) => rank))).toEqual(new Set([1]));
  });

  test('output is sorted by division, scope, rank, name', () => {
    const entries = run(
      [...wins('a', 1, 'div-b'), ...wins('b', 2, 'div-b'), ...wins('a', 1, 'div-a'), ...wins('c', 1, 'div-10')],
      [fighter('a', 'Ann', 'japan', 'asia'), fighter('b', 'Bo', 'france'), fighter('c', 'Cid', 'chile', 'south-america')],
    );
    expect(entries.map((e) => [e.divisionId, e.scope, e.rank, e.fighterId])).toEqual([
      ['div-10', 'chile', 1, 'c'],
      ['div-10', 'south-america', 1, 'c'],
      ['div-10', 'world', 1, 'c'],
      ['div-a', 'asia', 1, 'a'],
      ['div-a', 'japan', 1, 'a'],
      ['div-a', 'world', 1, 'a'],
      ['div-b', 'asia', 1, 'a'],
      ['div-b', 'europe', 1, 'b'],
      ['div-b', 'france', 1, 'b'],
      ['div-b', 'japan', 1, 'a'],
      ['div-b', 'world', 1, 'b'],
      ['div-b', 'world', 2, 'a'],
    ]);
  });

  test('does not depend on the order of its input', () => {
    const results = [...wins('a', 1), ...wins('b', 1), ...wins('c', 2), result('d', 'D'), ...wins('a', 1, 'x')];
    const fighters = [fighter('a', 'Same'), fighter('b', 'same'), fighter('c', 'Cee', 'italy'), fighter('d', 'Dee', 'peru', 'south-america')];
    const previous = new Map([[rankKey(DIV, 'world', 'a'), 2]]);
    expect(run([...results].reverse(), [...fighters].reverse(), previous)).toEqual(run(results, fighters, previous));
  });
});

describe('computeRun: scopes re-rank within the continent and the country', () => {
  const fighters = [
    fighter('jun', 'Jun', 'japan', 'asia'),
    fighter('hans', 'Hans', 'germany', 'europe'),
    fighter('marie', 'Marie', 'france', 'europe'),
    fighter('greta', 'Greta', 'germany', 'europe'),
    fighter('kenji', 'Kenji', 'japan', 'asia'),
  ];
  const results = [
    result('jun', 'W', 'KO', 'world'), // 36
    result('hans', 'W', null, 'world'), // 30
    result('marie', 'W', 'KO', 'continental'), // 24
    result('greta', 'W', null, 'continental'), // 20
    result('kenji', 'W', null, 'international'), // 15
  ];

  test('every scope ranks only its own fighters, from 1', () => {
    const entries = run(results, fighters);
    expect(entries.map((e) => [e.scope, e.fighterId, e.rank, e.points])).toEqual([
      ['asia', 'jun', 1, 36],
      ['asia', 'kenji', 2, 15],
      ['europe', 'hans', 1, 30],
      ['europe', 'marie', 2, 24],
      ['europe', 'greta', 3, 20],
      ['france', 'marie', 1, 24],
      ['germany', 'hans', 1, 30],
      ['germany', 'greta', 2, 20],
      ['japan', 'jun', 1, 36],
      ['japan', 'kenji', 2, 15],
      ['world', 'jun', 1, 36],
      ['world', 'hans', 2, 30],
      ['world', 'marie', 3, 24],
      ['world', 'greta', 4, 20],
      ['world', 'kenji', 5, 15],
    ]);
  });

  test('a fighter 3rd in the world is 1st in their country', () => {
    const entries = run(results, fighters);
    expect(entry(entries, 'marie', 'world')?.rank).toBe(3);
    expect(entry(entries, 'marie', 'europe')?.rank).toBe(2);
    expect(entry(entries, 'marie', 'france')?.rank).toBe(1);
  });

  test('ties are re-ranked within the scope too', () => {
    const entries = run(
      [...wins('p', 2), ...wins('q', 2), ...wins('r', 2), ...wins('s', 1)],
      [fighter('p', 'P'), fighter('q', 'Q', 'japan', 'asia'), fighter('r', 'R'), fighter('s', 'S')],
    );
    expect(table(entries, 'world').map(([id, rank]) => [id, rank])).toEqual([
      ['p', 1],
      ['q', 1],
      ['r', 1],
      ['s', 4],
    ]);
    expect(table(entries, 'germany').map(([id, rank]) => [id, rank])).toEqual([
      ['p', 1],
      ['r', 1],
      ['s', 3],
    ]);
    expect(table(entries, 'europe').map(([id, rank]) => [id, rank])).toEqual([
      ['p', 1],
      ['r', 1],
      ['s', 3],
    ]);
    expect(table(entries, 'asia').map(([id, rank]) => [id, rank])).toEqual([['q', 1]]);
  });

  test('a slug shared by continent and country lists the fighter once in that table', () => {
    const entries = run(wins('a', 1), [fighter('a', 'A', 'oceania', 'oceania')]);
    expect(entries.map((e) => [e.scope, e.rank])).toEqual([
      ['oceania', 1],
      ['world', 1],
    ]);
  });
});

describe('computeRun: previous rank and movement (docs/decisions.md#rank-order)', () => {
  const fighters = [
    fighter('a', 'Ava'),
    fighter('b', 'Ben'),
    fighter('c', 'Cara'),
    fighter('d', 'Dan'),
    fighter('e', 'Eli', 'germany', 'europe', false),
    fighter('f', 'Finn'),
  ];
  const results = [
    ...wins('a', 3), // 30
    ...wins('b', 2), // 20
    ...wins('c', 2), // 20
    result('d', 'D'), // 5
    ...wins('e', 5), // ineligible now
    result('f', 'W', 'KO', 'world', EXPIRED), // 0 points now
  ];
  const previousRanks = new Map([
    [rankKey(DIV, 'world', 'b'), 1],
    [rankKey(DIV, 'world', 'c'), 2],
    [rankKey(DIV, 'world', 'a'), 3],
    [rankKey(DIV, 'world', 'e'), 4],
    [rankKey(DIV, 'world', 'f'), 5],
    [rankKey(DIV, 'germany', 'a'), 1],
    [rankKey('another-division', 'world', 'd'), 1],
    [rankKey(DIV, 'europe', 'd'), 9],
  ]);

  test('movement is previous rank minus current rank; new entries have null', () => {
    const entries = run(results, fighters, previousRanks);
    expect(entries.filter((e) => e.scope === 'world').map((e) => [e.fighterId, e.rank, e.previousRank, e.movement])).toEqual([
      ['a', 1, 3, 2], // moved up
      ['b', 2, 1, -1], // moved down
      ['c', 2, 2, 0], // stayed
      ['d', 4, null, null], // new: its rank in another division does not count
    ]);
  });

  test('fighters who dropped out (now ineligible or at 0 points) are absent', () => {
    const entries = run(results, fighters, previousRanks);
    expect(entries.some((e) => e.fighterId === 'e' || e.fighterId === 'f')).toBe(false);
  });

  test('previous ranks are matched per scope', () => {
    const entries = run(results, fighters, previousRanks);
    expect(entry(entries, 'a', 'germany')).toMatchObject({ rank: 1, previousRank: 1, movement: 0 });
    expect(entry(entries, 'a', 'europe')).toMatchObject({ rank: 1, previousRank: null, movement: null });
    expect(entry(entries, 'd', 'europe')).toMatchObject({ rank: 4, previousRank: 9, movement: 5 });
  });

  test('each entry carries the fighter record, not shared between entries', () => {
    const entries = run(results, fighters, previousRanks);
    const world = entry(entries, 'a', 'world')!;
    const germany = entry(entries, 'a', 'germany')!;
    expect(world.record).toEqual({ W: 3, L: 0, D: 0, NC: 0, KO: 0 });
    expect(germany.record).toEqual(world.record);
    expect(germany.record).not.toBe(world.record);
  });
});
