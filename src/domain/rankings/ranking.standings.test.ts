import type { RankingEntryDraft } from './ranking.engine';
import { fighterStandings, ranksJson } from './ranking.standings';

const record = { W: 1, L: 0, D: 0, NC: 0, KO: 0 };
const entry = (fighterId: string, divisionId: string, scope: string, rank: number, points: number): RankingEntryDraft =>
  ({ divisionId, scope, fighterId, rank, points, previousRank: null, movement: null, record });

describe('fighterStandings', () => {
  it("takes the fighter's own division only: world points, ranks world first, then the continent, then the country", () => {
    const entries = [
      // The engine's order: scopes by code units within a division.
      entry('f1', 'boxing-m-60', 'europe', 2, 30.5),
      entry('f1', 'boxing-m-60', 'france', 1, 30.5),
      entry('f1', 'boxing-m-60', 'world', 7, 30.5),
      entry('f1', 'boxing-m-67', 'world', 1, 99),
    ];
    expect(fighterStandings(entries, [{ id: 'f1', divisionId: 'boxing-m-60', continentSlug: 'europe' }])).toEqual([
      { fighterId: 'f1', points: 30.5, ranks: [['world', 7], ['europe', 2], ['france', 1]] },
    ]);
  });

  it('has none for a fighter ranked only in another division, or not known', () => {
    const entries = [entry('f1', 'boxing-m-67', 'world', 1, 99), entry('f2', 'boxing-m-67', 'world', 2, 50)];
    expect(fighterStandings(entries, [{ id: 'f1', divisionId: 'boxing-m-60', continentSlug: 'europe' }])).toEqual([]);
  });

  it('keeps a country whose slug sorts before its continent after the continent', () => {
    const entries = [entry('f1', 'd', 'argentina', 3, 10), entry('f1', 'd', 'south-america', 1, 10), entry('f1', 'd', 'world', 4, 10)];
    const [standing] = fighterStandings(entries, [{ id: 'f1', divisionId: 'd', continentSlug: 'south-america' }]);
    expect(ranksJson(standing.ranks)).toBe('{"world":4,"south-america":1,"argentina":3}');
  });

  it('writes the ranks as a JSON object in their order, whatever the keys look like', () => {
    expect(ranksJson([['world', 1], ['2', 5], ['a"b', 3]])).toBe('{"world":1,"2":5,"a\\"b":3}');
    expect(JSON.parse(ranksJson([['world', 1], ['a"b', 3]]))).toEqual({ world: 1, 'a"b': 3 });
  });
});
