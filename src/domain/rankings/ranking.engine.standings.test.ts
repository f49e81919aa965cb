import { type EngineFighter, type EngineResult, RunBuilder } from './ranking.engine';
import { ranksJson } from './ranking.writer';

const AS_OF = '2026-06-01';
const fighter = (id: string, divisionId: string | undefined, continentSlug: string, countrySlug: string): EngineFighter => ({
  id,
  name: id,
  countrySlug,
  continentSlug,
  eligible: true,
  divisionId,
});
const win = (fighterId: string, divisionId: string, eventDate = '2026-05-01'): EngineResult => ({
  fighterId,
  divisionId,
  outcome: 'W',
  method: null,
  level: 'national',
  eventDate,
});

function run(fighters: EngineFighter[], results: EngineResult[]) {
  const builder = new RunBuilder(AS_OF, fighters);
  for (const r of results) builder.add(r);
  const entries = builder.finish(new Map());
  return { entries, standings: builder.standings };
}

describe("a run's standings (what each fighter's card shows)", () => {
  it("are taken in the fighter's own division: world points, ranks world first, then the continent, then the country", () => {
    const { entries, standings } = run(
      [fighter('f1', 'd60', 'europe', 'france'), fighter('f2', 'd60', 'europe', 'france'), fighter('f3', 'd60', 'europe', 'germany')],
      [win('f1', 'd60'), win('f2', 'd60'), win('f2', 'd60'), win('f3', 'd60'), win('f3', 'd60'), win('f3', 'd60'), win('f1', 'd67'), win('f1', 'd67')],
    );
    const f1 = entries.filter((e) => e.fighterId === 'f1' && e.divisionId === 'd60');
    expect(standings.find((s) => s.fighterId === 'f1')).toEqual({
      fighterId: 'f1',
      points: f1[0]!.points,
      ranks: [
        ['world', 3],
        ['europe', 3],
        ['france', 2],
      ],
    });
    expect(standings.map((s) => s.fighterId).sort()).toEqual(['f1', 'f2', 'f3']);
  });

  it('are none for a fighter ranked only in another division, or whose division is not given', () => {
    const { entries, standings } = run(
      [fighter('f1', 'd60', 'europe', 'france'), fighter('f2', undefined, 'europe', 'france')],
      [win('f1', 'd67'), win('f2', 'd60')],
    );
    expect(entries.length).toBe(6);
    expect(standings).toEqual([]);
  });

  it('list a country whose slug sorts before its continent after the continent, and a world-level continent once', () => {
    const { standings } = run(
      [fighter('f1', 'd', 'south-america', 'argentina'), fighter('f2', 'd', 'world', 'atlantis')],
      [win('f1', 'd'), win('f2', 'd'), win('f2', 'd')],
    );
    expect(standings.map((s) => [s.fighterId, ranksJson(s.ranks)])).toEqual([
      ['f2', '{"world":1,"atlantis":1}'],
      ['f1', '{"world":2,"south-america":1,"argentina":1}'],
    ]);
  });

  it('are stored as a JSON object in their order, whatever the keys look like', () => {
    expect(
      ranksJson([
        ['world', 1],
        ['2', 5],
        ['a"b', 3],
      ]),
    ).toBe('{"world":1,"2":5,"a\\"b":3}');
    expect(
      JSON.parse(
        ranksJson([
          ['world', 1],
          ['a"b', 3],
        ]),
      ),
    ).toEqual({ world: 1, 'a"b': 3 });
  });
});
