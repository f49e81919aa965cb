// Each ranked fighter's standing in one run, as a partner sees it on the fighter's profile and in
// the fighter list (docs/adr/0001-read-model.md, docs/adr/0009-ranking-publication-at-scale.md).
import { type RankingEntryDraft, WORLD_SCOPE } from './ranking.engine';

/** What a standing needs to know of a fighter: their division and continent today. */
export interface StandingFighter {
  id: string;
  divisionId: string;
  continentSlug: string;
}

export interface FighterStanding {
  fighterId: string;
  /** The world points in the fighter's own division. */
  points: number;
  /** Scope and rank in the fighter's own division: the world first, then the continent, then the country. */
  ranks: [scope: string, rank: number][];
}

/** The ranks as the JSON object stored and served, keys in that order whatever they look like. */
export function ranksJson(ranks: FighterStanding['ranks']): string {
  return `{${ranks.map(([scope, rank]) => `${JSON.stringify(scope)}:${rank}`).join(',')}}`;
}

function byScope(a: [string, number], b: [string, number]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/**
 * The standing of every fighter ranked in their own division (entries of other divisions do not
 * count: a card shows one division). Fighters ranked only elsewhere have none. One pass over the
 * entries; scopes other than the world and the fighter's continent follow in code-unit order.
 */
export function fighterStandings(entries: readonly RankingEntryDraft[], fighters: Iterable<StandingFighter>): FighterStanding[] {
  const byId = new Map<string, StandingFighter>();
  for (const f of fighters) byId.set(f.id, f);
  const building = new Map<string, { points: number | null; world: number; continent: [string, number] | null; others: [string, number][] }>();
  for (const e of entries) {
    const fighter = byId.get(e.fighterId);
    if (fighter?.divisionId !== e.divisionId) continue;
    let b = building.get(e.fighterId);
    if (!b) building.set(e.fighterId, (b = { points: null, world: 0, continent: null, others: [] }));
    if (e.scope === WORLD_SCOPE) {
      b.points = e.points;
      b.world = e.rank;
    } else if (e.scope === fighter.continentSlug) b.continent = [e.scope, e.rank];
    else b.others.push([e.scope, e.rank]);
  }
  const standings: FighterStanding[] = [];
  for (const [fighterId, b] of building) {
    if (b.points === null) continue;
    const ranks: [string, number][] = [[WORLD_SCOPE, b.world]];
    if (b.continent) ranks.push(b.continent);
    if (b.others.length > 1) b.others.sort(byScope);
    for (const other of b.others) ranks.push(other);
    standings.push({ fighterId, points: b.points, ranks });
  }
  return standings;
}
