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

function scopeOrder(scope: string, continentSlug: string): number {
  return scope === WORLD_SCOPE ? 0 : scope === continentSlug ? 1 : 2;
}

/**
 * The standing of every fighter ranked in their own division (entries of other divisions do not
 * count: a card shows one division). Fighters ranked only elsewhere have none.
 */
export function fighterStandings(entries: readonly RankingEntryDraft[], fighters: Iterable<StandingFighter>): FighterStanding[] {
  const byId = new Map<string, StandingFighter>();
  for (const f of fighters) byId.set(f.id, f);
  const own = new Map<string, RankingEntryDraft[]>();
  for (const e of entries) {
    if (byId.get(e.fighterId)?.divisionId !== e.divisionId) continue;
    let list = own.get(e.fighterId);
    if (!list) own.set(e.fighterId, (list = []));
    list.push(e);
  }
  const standings: FighterStanding[] = [];
  for (const [fighterId, list] of own) {
    const world = list.find((e) => e.scope === WORLD_SCOPE);
    if (!world) continue;
    const { continentSlug } = byId.get(fighterId)!;
    list.sort((a, b) => scopeOrder(a.scope, continentSlug) - scopeOrder(b.scope, continentSlug) || (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0));
    standings.push({ fighterId, points: world.points, ranks: list.map((e) => [e.scope, e.rank]) });
  }
  return standings;
}
