import { COUNTRY_PROFILES } from './country-profiles.data';
import { addDays, addMonths, addYears, dayOfWeek, daysBetween } from './dates.util';
import type { DemoEvent, EventLevel, EventStatus } from './demo.types';
import type { Prng } from './prng';
import { CONTINENTS, type ContinentSlug, COUNTRIES, type Country, DISCIPLINES, type Discipline, disciplineName } from './reference.data';

/** An event and what the bout generator needs to fill its card. */
export interface PlannedEvent {
  event: DemoEvent;
  /** Disciplines on the card: one for championships, two or three for fight nights. */
  disciplines: Discipline[];
  /** Share of the card's bouts in pro divisions. */
  proShare: number;
  continent: ContinentSlug;
  /** Bouts on the card; a live event has recorded only the first few. */
  cardSize: number;
}

/**
 * How busy the calendar is: the demo's default, or the scale data set's fewer and fuller cards.
 * `cardScale` multiplies a card's drawn size (after the draw, so the random sequence is the same).
 */
export interface EventDensity {
  pastSanctioned: number;
  cardScale: (level: EventLevel | null, proShare: number) => number;
}

// About 2.5 events a week: 6-14 bouts each is what it takes to reach 8,000 verified results.
export const DEMO_EVENT_DENSITY: EventDensity = { pastSanctioned: 450, cardScale: () => 1 };
const FUTURE_SANCTIONED = 40;
const LIVE_TODAY = 2;
const UNSANCTIONED_FUTURE = 4;
const UNSANCTIONED_PAST = 2;
const CANCELLED_SHARE = 0.03;

const LEVEL_WEIGHTS: readonly (readonly [EventLevel | null, number])[] = [
  ['national', 0.42],
  ['international', 0.2],
  ['continental', 0.11],
  ['worldcup', 0.07],
  ['world', 0.06],
  [null, 0.14],
];
const DISCIPLINE_WEIGHT: Record<Discipline, number> = { kickboxing: 0.29, mma: 0.25, boxing: 0.26, 'muay-thai': 0.2 };
const CONTINENT_ADJECTIVE: Record<ContinentSlug, string> = {
  africa: 'African',
  asia: 'Asian',
  europe: 'European',
  'north-america': 'North American',
  'south-america': 'South American',
  oceania: 'Oceania',
};

type LevelKey = EventLevel | 'none';
interface NameContext {
  disc: string;
  city: string;
  country: string;
  year: string;
  adjective: string;
}
interface Template {
  name: (c: NameContext) => string;
  multi?: boolean;
  proShare: number;
}

// Championships are where amateurs compete; grand prix, series and fight nights are pro shows.
const TEMPLATES: Record<LevelKey, readonly Template[]> = {
  national: [
    { name: (c) => `${c.country} ${c.disc} Championships ${c.year}`, proShare: 0.15 },
    { name: (c) => `${c.city} ${c.disc} Cup ${c.year}`, proShare: 0.35 },
    { name: (c) => `${c.country} Pro ${c.disc} Series ${c.year}`, proShare: 0.9 },
    { name: (c) => `${c.city} Fight Night ${c.year}`, multi: true, proShare: 0.7 },
  ],
  international: [
    { name: (c) => `${c.city} International ${c.disc} Open ${c.year}`, proShare: 0.3 },
    { name: (c) => `${c.disc} Grand Prix ${c.city} ${c.year}`, proShare: 0.85 },
    { name: (c) => `${c.city} ${c.disc} Open ${c.year}`, proShare: 0.4 },
  ],
  continental: [
    { name: (c) => `${c.adjective} ${c.disc} Championships ${c.year}`, proShare: 0.1 },
    { name: (c) => `${c.adjective} Pro ${c.disc} Championships ${c.year}`, proShare: 0.95 },
    { name: (c) => `${c.adjective} ${c.disc} Cup ${c.year}`, proShare: 0.35 },
  ],
  worldcup: [{ name: (c) => `${c.disc} World Cup ${c.city} ${c.year}`, proShare: 0.25 }],
  world: [
    { name: (c) => `World ${c.disc} Championships ${c.year}`, proShare: 0.05 },
    { name: (c) => `World Pro ${c.disc} Championships ${c.year}`, proShare: 0.95 },
    { name: (c) => `World ${c.disc} Masters ${c.year}`, proShare: 0.5 },
    { name: (c) => `World Combat Games ${c.year}`, multi: true, proShare: 0.2 },
  ],
  none: [
    { name: (c) => `${c.city} Fight Night ${c.year}`, multi: true, proShare: 0.7 },
    { name: (c) => `${c.city} ${c.disc} Gala ${c.year}`, proShare: 0.6 },
    { name: (c) => `${c.city} Club Show ${c.year}`, multi: true, proShare: 0.2 },
  ],
};

const CARD_SIZE: Record<LevelKey, readonly [number, number]> = {
  national: [7, 13],
  international: [8, 14],
  continental: [10, 14],
  worldcup: [10, 14],
  world: [11, 14],
  none: [6, 10],
};

const ROMAN = ['II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/** A Saturday (mostly) or Sunday in [from, to]: fight cards are weekend shows. */
function weekendBetween(from: string, to: string, prng: Prng): string {
  const day = addDays(from, prng.int(0, daysBetween(from, to)));
  const target = prng.chance(0.75) ? 6 : 0;
  const forward = addDays(day, (target - dayOfWeek(day) + 7) % 7);
  if (forward <= to) return forward;
  const back = addDays(forward, -7);
  return back >= from ? back : day;
}

interface Draft {
  date: string;
  level: EventLevel | null;
  status: EventStatus;
  sanctioned: boolean;
  cityless: boolean;
}

export function planEvents(today: string, prng: Prng, density: EventDensity = DEMO_EVENT_DENSITY): PlannedEvent[] {
  const pastFrom = addDays(addYears(today, -3), 1);
  const pastTo = addDays(today, -1);
  const futureFrom = addDays(today, 1);
  const futureTo = addMonths(today, 6);
  const pickLevel = () => prng.weighted(LEVEL_WEIGHTS, ([, w]) => w)[0];

  const drafts: Draft[] = [];
  for (let i = 0; i < density.pastSanctioned; i += 1) {
    // The first one sits in the first week of the window, so the calendar visibly spans three years.
    const date = i === 0 ? weekendBetween(pastFrom, addDays(pastFrom, 6), prng) : weekendBetween(pastFrom, pastTo, prng);
    drafts.push({ date, level: pickLevel(), status: prng.chance(CANCELLED_SHARE) ? 'cancelled' : 'completed', sanctioned: true, cityless: prng.chance(0.01) });
  }
  for (let i = 0; i < LIVE_TODAY; i += 1) {
    drafts.push({ date: today, level: i === 0 ? 'international' : 'national', status: 'live', sanctioned: true, cityless: false });
  }
  for (let i = 0; i < FUTURE_SANCTIONED; i += 1) {
    const date = i === 0 ? weekendBetween(addDays(futureTo, -6), futureTo, prng) : weekendBetween(futureFrom, futureTo, prng);
    // Far-off shows are often announced before the venue is.
    drafts.push({ date, level: pickLevel(), status: 'scheduled', sanctioned: true, cityless: prng.chance(0.12) });
  }
  for (let i = 0; i < UNSANCTIONED_FUTURE; i += 1) {
    drafts.push({
      date: weekendBetween(futureFrom, futureTo, prng),
      level: prng.pick(['national', null] as const),
      status: 'scheduled',
      sanctioned: false,
      cityless: false,
    });
  }
  for (let i = 0; i < UNSANCTIONED_PAST; i += 1) {
    drafts.push({
      date: weekendBetween(pastFrom, pastTo, prng),
      level: prng.pick(['national', null] as const),
      status: 'cancelled',
      sanctioned: false,
      cityless: false,
    });
  }

  const countryWeight = (c: Country) => COUNTRY_PROFILES[c.slug].weight;
  const usedNames = new Set<string>();
  const planned = drafts.map((draft) => {
    let host: Country;
    if (draft.level === 'continental') {
      const continent = prng.weighted(CONTINENTS, (k) => COUNTRIES.filter((c) => c.continent === k.slug).reduce((s, c) => s + countryWeight(c), 0));
      host = prng.weighted(
        COUNTRIES.filter((c) => c.continent === continent.slug),
        countryWeight,
      );
    } else {
      host = prng.weighted(COUNTRIES, countryWeight);
    }
    const city = draft.cityless ? null : prng.pick(COUNTRY_PROFILES[host.slug].cities);
    const primary = prng.weighted(DISCIPLINES, (d) => DISCIPLINE_WEIGHT[d.slug]).slug;
    const levelKey: LevelKey = draft.level ?? 'none';
    const templates = TEMPLATES[levelKey];
    const start = prng.int(0, templates.length - 1);
    const context: NameContext = {
      disc: disciplineName(primary),
      city: city ?? host.name,
      country: host.name,
      year: draft.date.slice(0, 4),
      adjective: CONTINENT_ADJECTIVE[host.continent],
    };
    let template = templates[start];
    let name = '';
    for (let k = 0; k < templates.length && !name; k += 1) {
      const candidate = templates[(start + k) % templates.length];
      const candidateName = candidate.name(context);
      if (!usedNames.has(candidateName)) [template, name] = [candidate, candidateName];
    }
    // Every template taken: a second edition of the same show that year.
    for (let n = 0; !name; n += 1) {
      const candidateName = `${template.name(context)} ${ROMAN[n] ?? `#${n + 2}`}`;
      if (!usedNames.has(candidateName)) name = candidateName;
    }
    usedNames.add(name);
    const others = prng.shuffle(DISCIPLINES.map((d) => d.slug).filter((d) => d !== primary));
    const disciplines = template.multi ? [primary, ...others.slice(0, prng.int(1, 2))] : [primary];
    const [minCard, maxCard] = CARD_SIZE[levelKey];
    return {
      event: { key: '', name, city, countrySlug: host.slug, date: draft.date, level: draft.level, status: draft.status, sanctioned: draft.sanctioned },
      disciplines,
      proShare: template.proShare,
      continent: host.continent,
      cardSize: Math.round(prng.int(minCard, maxCard) * density.cardScale(draft.level, template.proShare)),
    };
  });

  // Plain code-unit order, not localeCompare: the key order must not depend on the machine's ICU.
  const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  planned.sort((a, b) => byText(a.event.date, b.event.date) || byText(a.event.name, b.event.name));
  planned.forEach((p, i) => {
    p.event.key = `e${String(i + 1).padStart(4, '0')}`;
  });
  return planned;
}
