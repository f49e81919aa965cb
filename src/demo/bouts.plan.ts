import { addDays, addYears, daysBetween, toEpochDay } from './dates.util';
import type { BoutMethod, DemoBout, DemoDivision, DemoFighter } from './demo.types';
import type { PlannedEvent } from './events.plan';
import type { FighterTraits } from './fighters.plan';
import type { Prng } from './prng';
import { type Category, COUNTRIES, type Discipline } from './reference.data';

const DRAW_SHARE = 0.035;
const NO_CONTEST_SHARE = 0.02;
const UNVERIFIED_SHARE = 0.02;
/** Results of the last three weeks are still often waiting for the officials' sign-off. */
const RECENT_DAYS = 21;
const RECENT_UNVERIFIED_SHARE = 0.3;
const MIN_AGE_TO_FIGHT = 15;
// Medical rest between bouts; pros fight less often than amateurs.
const REST_DAYS: Record<Category, number> = { am: 14, pro: 28 };

type MethodShares = readonly (readonly [BoutMethod, number])[];
// Stoppage shares of wins; the rest go to the judges. Amateur rules and headgear mean fewer KOs.
const STOPPAGES: Record<Discipline, Record<Category, MethodShares>> = {
  boxing: {
    pro: [
      ['KO', 0.22],
      ['TKO', 0.25],
      ['DQ', 0.015],
    ],
    am: [
      ['KO', 0.03],
      ['TKO', 0.12],
      ['DQ', 0.01],
    ],
  },
  mma: {
    pro: [
      ['KO', 0.13],
      ['TKO', 0.22],
      ['SUB', 0.22],
      ['DQ', 0.01],
    ],
    am: [
      ['KO', 0.06],
      ['TKO', 0.17],
      ['SUB', 0.25],
      ['DQ', 0.01],
    ],
  },
  kickboxing: {
    pro: [
      ['KO', 0.14],
      ['TKO', 0.14],
      ['DQ', 0.02],
    ],
    am: [
      ['KO', 0.05],
      ['TKO', 0.09],
      ['DQ', 0.02],
    ],
  },
  'muay-thai': {
    pro: [
      ['KO', 0.18],
      ['TKO', 0.16],
      ['DQ', 0.02],
    ],
    am: [
      ['KO', 0.05],
      ['TKO', 0.1],
      ['DQ', 0.02],
    ],
  },
};
const DECISIONS: MethodShares = [
  ['UD', 0.65],
  ['SD', 0.25],
  ['MD', 0.1],
];
const DRAW_VERDICTS: MethodShares = [
  ['MD', 0.45],
  ['SD', 0.4],
  ['UD', 0.15],
];

function scheduledRounds(division: DemoDivision, planned: PlannedEvent, mainEvent: boolean): number {
  if (division.category === 'am') return 3;
  const level = planned.event.level;
  const titleLevel = level === 'world' || level === 'continental' || level === 'worldcup';
  switch (division.discipline) {
    case 'boxing': {
      const base = level === 'world' ? 12 : titleLevel ? 10 : level === 'international' ? 8 : level === 'national' ? 6 : 4;
      return Math.min(12, base + (mainEvent ? 2 : 0));
    }
    case 'muay-thai':
      return 5;
    default:
      return mainEvent && titleLevel ? 5 : 3;
  }
}

export function planBouts(
  today: string,
  events: readonly PlannedEvent[],
  divisions: readonly DemoDivision[],
  fighters: readonly DemoFighter[],
  traits: ReadonlyMap<string, FighterTraits>,
  prng: Prng,
): DemoBout[] {
  const continentOf = new Map(COUNTRIES.map((c) => [c.slug, c.continent]));
  const roster = new Map<string, DemoFighter[]>(divisions.map((d) => [d.key, []]));
  for (const f of fighters) roster.get(f.divisionKey)?.push(f);
  const trait = (f: DemoFighter) => traits.get(f.key) ?? { skill: 0, activity: 1 };
  const options = new Map<string, DemoDivision[]>();
  for (const d of divisions) options.set(`${d.discipline}/${d.category}`, [...(options.get(`${d.discipline}/${d.category}`) ?? []), d]);

  // Each fighter's window on the record, as epoch days: old enough to fight, and, for a lapsed
  // licence, no later than its last valid day; a suspension stops the record a month ago.
  const suspendedSince = toEpochDay(addDays(today, -30));
  const careers = new Map(
    fighters.map((f) => {
      const from = toEpochDay(addYears(f.dateOfBirth, MIN_AGE_TO_FIGHT));
      const to =
        f.licence === 'expired' && f.licenceValidUntil !== null
          ? toEpochDay(f.licenceValidUntil)
          : f.licence === 'suspended'
            ? suspendedSince
            : Number.POSITIVE_INFINITY;
      return [f.key, { from, to }] as const;
    }),
  );
  const lastFight = new Map<string, number>();
  const bouts: DemoBout[] = [];

  const eligible = (f: DemoFighter, day: number, category: Category): boolean => {
    const last = lastFight.get(f.key);
    if (last !== undefined && day - last < REST_DAYS[category]) return false;
    const { from, to } = careers.get(f.key)!;
    return day >= from && day <= to;
  };

  // National shows and club nights are mostly local fighters; continental championships are
  // for the continent's fighters, with the odd guest to fill a bracket.
  const locality = (f: DemoFighter, planned: PlannedEvent): number => {
    const sameCountry = f.countrySlug === planned.event.countrySlug;
    const sameContinent = continentOf.get(f.countrySlug) === planned.continent;
    switch (planned.event.level) {
      case 'national':
      case null:
        return sameCountry ? 10 : sameContinent ? 1.5 : 0.6;
      case 'continental':
        return sameContinent ? 1 : 0.03;
      case 'international':
        return sameContinent ? 2 : 1;
      default:
        return 1;
    }
  };

  for (const planned of events) {
    const { event } = planned;
    const live = event.status === 'live';
    if (!event.sanctioned || (event.status !== 'completed' && !live)) continue;
    const recorded = live ? Math.min(planned.cardSize, prng.int(2, 4)) : planned.cardSize;
    const recent = daysBetween(event.date, today) <= RECENT_DAYS;
    const used = new Set<string>();
    const day = toEpochDay(event.date);

    for (let order = 1; order <= recorded; order += 1) {
      let pair: [DemoFighter, DemoFighter, DemoDivision] | null = null;
      for (let attempt = 0; attempt < 40 && !pair; attempt += 1) {
        // Late attempts relax the card's theme rather than leave it short.
        const relaxed = attempt >= 20;
        const discipline = relaxed ? prng.pick(divisions).discipline : prng.pick(planned.disciplines);
        const category: Category = prng.chance(relaxed ? 0.5 : planned.proShare) ? 'pro' : 'am';
        const division = prng.weighted(options.get(`${discipline}/${category}`) ?? [], (d) => roster.get(d.key)?.length ?? 0);
        const candidates = (roster.get(division.key) ?? []).filter((f) => !used.has(f.key) && eligible(f, day, category));
        if (candidates.length < 2) continue;
        const weight = (f: DemoFighter) => trait(f).activity * locality(f, planned);
        const first = prng.weighted(candidates, weight);
        // Matchmakers pair fighters of similar standing.
        const second = prng.weighted(
          candidates.filter((f) => f !== first),
          (f) => weight(f) * Math.exp(-0.7 * Math.abs(trait(f).skill - trait(first).skill)),
        );
        pair = [first, second, division];
      }
      if (!pair) break;
      const [first, second, division] = pair;

      const rounds = scheduledRounds(division, planned, order === recorded && !live);
      const stoppageRound = () =>
        prng.weighted(
          Array.from({ length: rounds }, (_, i) => i + 1),
          (r) => rounds - r + 1.5,
        );
      const roll = prng.next();
      let bout: Pick<DemoBout, 'fighterA' | 'fighterB' | 'outcome' | 'method' | 'round'>;
      if (roll < DRAW_SHARE) {
        bout = { fighterA: first.key, fighterB: second.key, outcome: 'draw', method: prng.weighted(DRAW_VERDICTS, ([, w]) => w)[0], round: rounds };
      } else if (roll < DRAW_SHARE + NO_CONTEST_SHARE) {
        // An accidental foul ends it without a verdict; a double disqualification is the rarer kind.
        const doubleDq = prng.chance(0.3);
        bout = { fighterA: first.key, fighterB: second.key, outcome: 'nc', method: doubleDq ? 'DQ' : null, round: doubleDq ? stoppageRound() : null };
      } else {
        const edge = trait(first).skill - trait(second).skill;
        const firstWins = prng.chance(1 / (1 + Math.exp(-1.3 * edge)));
        const [winner, loser] = firstWins ? [first, second] : [second, first];
        const stoppages = STOPPAGES[division.discipline][division.category];
        const stoppageShare = stoppages.reduce((s, [, w]) => s + w, 0);
        const method = prng.chance(stoppageShare) ? prng.weighted(stoppages, ([, w]) => w)[0] : prng.weighted(DECISIONS, ([, w]) => w)[0];
        const decided = method === 'UD' || method === 'SD' || method === 'MD';
        bout = { fighterA: winner.key, fighterB: loser.key, outcome: 'a', method, round: decided ? rounds : stoppageRound() };
      }
      const verified = !live && !prng.chance(recent ? RECENT_UNVERIFIED_SHARE : UNVERIFIED_SHARE);
      bouts.push({ eventKey: event.key, order, divisionKey: division.key, ...bout, verified });
      for (const f of [first, second]) {
        used.add(f.key);
        lastFight.set(f.key, day);
      }
    }
  }
  return bouts;
}
