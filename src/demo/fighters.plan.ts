import { COUNTRY_PROFILES, NAME_POOLS, NICKNAMES } from './country-profiles.data';
import { addDays, addYears } from './dates.util';
import type { CertificateScenario, DemoDivision, DemoFighter, LicenceScenario } from './demo.types';
import type { NamePool } from './name-pool.types';
import type { Prng } from './prng';
import { COUNTRIES, type Country, type Gender } from './reference.data';

/** What the bout generator needs to know about a fighter and the public data must not show. */
export interface FighterTraits {
  /** Relative strength; decides who tends to win. */
  skill: number;
  /** Relative appetite for bouts; licensed fighters have the most. */
  activity: number;
}

export interface PlannedFighters {
  fighters: DemoFighter[];
  traits: Map<string, FighterTraits>;
}

const MINOR_SHARE = 0.05;
const NICKNAME_SHARE = 0.3;
const CERTIFICATE_SHARE = 0.3;
const UNPUBLISHED_SHARE = 0.03;

const LICENCE_WEIGHTS: readonly (readonly [LicenceScenario, number])[] = [
  ['active', 0.56],
  ['renewed', 0.1],
  ['none', 0.1],
  ['expired', 0.09],
  ['pending', 0.06],
  ['suspended', 0.05],
  ['revoked', 0.04],
];
const CERTIFICATE_WEIGHTS: readonly (readonly [CertificateScenario, number])[] = [
  ['active', 0.6],
  ['expired', 0.15],
  ['pending', 0.1],
  ['suspended', 0.08],
  ['revoked', 0.07],
];
// Fighters without a current licence still have a past on the record, only a thinner one.
const ACTIVITY_BY_LICENCE: Record<LicenceScenario, number> = {
  active: 1,
  renewed: 1.15,
  suspended: 0.6,
  expired: 0.8,
  revoked: 0.35,
  pending: 0.25,
  none: 0.15,
};

const SPECIAL_LETTERS: Record<string, string> = { ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', ß: 'ss', ı: 'i', œ: 'oe' };

/** Plain ASCII: accents stripped and the letters that have no decomposition spelled out. */
export function asciiFold(value: string): string {
  return value
    .replace(/[łŁđĐøØæÆßıœ]/g, (c) => SPECIAL_LETTERS[c])
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

// Consumers derive slugs from names with a plain NFD fold (which turns "ł" into a separator);
// names must stay distinct under that fold and under the fuller one.
const plainKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
const fullKey = (name: string) =>
  asciiFold(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');

function feminize(family: string, pool: NamePool): string {
  for (const [from, to] of pool.feminine ?? []) {
    if (family.endsWith(from)) return family.slice(0, family.length - from.length) + to;
  }
  return family;
}

interface PersonName {
  name: string;
  given: string;
  family: string;
}

function composeName(pool: NamePool, gender: Gender, prng: Prng, withMiddle: boolean): PersonName {
  const givenNames = gender === 'm' ? pool.male : pool.female;
  let given = prng.pick(givenNames);
  if (withMiddle && !pool.familyFirst) {
    const middle = prng.pick(givenNames);
    if (middle !== given) given = `${given} ${middle}`;
  }
  const base = prng.pick(pool.last);
  let family = gender === 'f' ? feminize(base, pool) : base;
  if (pool.doubleSurname && prng.chance(pool.doubleSurname)) {
    const second = prng.pick(pool.last);
    if (second !== base) family = `${family} ${second}`;
  }
  const name = pool.familyFirst ? `${family} ${given}` : `${given} ${family}`;
  return { name, given, family };
}

function pickAdultAge(prng: Prng): number {
  const ages = Array.from({ length: 23 }, (_, i) => 18 + i);
  return prng.weighted(ages, (age) => (age <= 21 ? 0.55 + 0.1 * (age - 18) : age <= 31 ? 1 : 1 - 0.09 * (age - 31)));
}

function planLicence(
  scenario: LicenceScenario,
  today: string,
  prng: Prng,
): Pick<DemoFighter, 'licenceIssuedOn' | 'licenceValidUntil' | 'previousLicenceIssuedOn'> {
  const oneYearFrom = (issued: string) => addDays(addYears(issued, 1), -1);
  const issuedDaysAgo: Record<Exclude<LicenceScenario, 'none'>, readonly [number, number]> = {
    active: [20, 330],
    renewed: [10, 300],
    suspended: [60, 330],
    revoked: [40, 330],
    pending: [0, 25],
    // A year's licence that ran out at least five weeks ago.
    expired: [400, 880],
  };
  if (scenario === 'none') return { licenceIssuedOn: null, licenceValidUntil: null, previousLicenceIssuedOn: null };
  const [min, max] = issuedDaysAgo[scenario];
  const issued = addDays(today, -prng.int(min, max));
  return {
    licenceIssuedOn: issued,
    licenceValidUntil: oneYearFrom(issued),
    // Renewed a few weeks before the old licence ran out, as federations ask.
    previousLicenceIssuedOn: scenario === 'renewed' ? addDays(addYears(issued, -1), prng.int(0, 30)) : null,
  };
}

function planCertificate(today: string, prng: Prng): Pick<DemoFighter, 'certificate' | 'certificateIssuedOn' | 'certificateValidUntil'> {
  if (!prng.chance(CERTIFICATE_SHARE)) return { certificate: null, certificateIssuedOn: null, certificateValidUntil: null };
  const status = prng.weighted(CERTIFICATE_WEIGHTS, ([, w]) => w)[0];
  const range: Record<CertificateScenario, readonly [number, number]> = {
    active: [10, 330],
    pending: [0, 20],
    suspended: [30, 300],
    revoked: [30, 300],
    expired: [400, 800],
  };
  const issued = addDays(today, -prng.int(...range[status]));
  return { certificate: status, certificateIssuedOn: issued, certificateValidUntil: addDays(addYears(issued, 1), -1) };
}

class UniqueSet {
  private readonly seen = new Set<string>();
  claim(value: string): boolean {
    if (this.seen.has(value)) return false;
    this.seen.add(value);
    return true;
  }
}

export function planFighters(today: string, divisions: readonly DemoDivision[], sizes: ReadonlyMap<string, number>, prng: Prng): PlannedFighters {
  const slots = prng.shuffle(divisions.flatMap((d) => Array.from({ length: sizes.get(d.key) ?? 0 }, () => d)));
  const amSlots = prng.shuffle(slots.map((d, i) => (d.category === 'am' ? i : -1)).filter((i) => i >= 0));
  const minors = new Set(amSlots.slice(0, Math.round(slots.length * MINOR_SHARE)));

  const names = new Set<string>();
  const emails = new UniqueSet();
  const phones = new UniqueSet();
  const addresses = new UniqueSet();
  const fighters: DemoFighter[] = [];
  const traits = new Map<string, FighterTraits>();

  slots.forEach((division, i) => {
    const key = `f${String(i + 1).padStart(4, '0')}`;
    // The first slots go one to each country, so that every country has fighters whatever the draw.
    const country: Country =
      i < COUNTRIES.length
        ? COUNTRIES[i]
        : prng.weighted(COUNTRIES, (c) => COUNTRY_PROFILES[c.slug].weight * (COUNTRY_PROFILES[c.slug].strong.includes(division.discipline) ? 2.5 : 1));
    const profile = COUNTRY_PROFILES[country.slug];
    const pool = NAME_POOLS[prng.weighted(profile.pools, ([, w]) => w)[0]];

    let person: PersonName | null = null;
    for (let attempt = 0; attempt < 120 && !person; attempt += 1) {
      const candidate = composeName(pool, division.gender, prng, attempt >= 40);
      const keys = [plainKey(candidate.name), `full:${fullKey(candidate.name)}`];
      const clash = fullKey(candidate.given) === fullKey(candidate.family) || keys.some((k) => names.has(k));
      if (!clash) {
        keys.forEach((k) => {
          names.add(k);
        });
        person = candidate;
      }
    }
    if (!person) throw new Error(`demo data: ran out of distinct names for ${country.slug}`);

    const minor = minors.has(i);
    const age = minor ? prng.int(14, 17) : pickAdultAge(prng);
    // 30..335 days past a birthday: nobody comes of age within a month either side of today.
    const dateOfBirth = addDays(addYears(today, -age), -prng.int(30, 335));

    const local = [person.given, person.family]
      .map((part) =>
        asciiFold(part)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '.'),
      )
      .join('.')
      .replace(/^\.+|\.+$/g, '');
    const yearSuffix = prng.chance(0.4) ? dateOfBirth.slice(2, 4) : '';
    const domain = prng.pick(['example.com', 'example.net', 'example.org']);
    let email = `${local}${yearSuffix}@${domain}`;
    for (let n = 2; !emails.claim(email); n += 1) email = `${local}${yearSuffix}.${n}@${domain}`;

    let phone = '';
    do phone = `+${profile.dial} ${prng.int(200, 999)} ${prng.int(100, 999)} ${prng.int(1000, 9999)}`;
    while (!phones.claim(phone));

    // Streets follow the country, not the name: a Turkish-German fighter lives on a German street.
    const streetPool = NAME_POOLS[profile.pools[0][0]];
    let address = '';
    do {
      const street = prng.pick(streetPool.streets);
      const city = prng.pick(profile.cities);
      const n = prng.int(1, 240);
      const line =
        streetPool.address === 'number-first'
          ? `${n} ${street}`
          : streetPool.address === 'number-last'
            ? `${street} ${n}`
            : `${prng.int(1, 5)}-${prng.int(1, 30)}-${n} ${street}`;
      address = `${line}, ${city}, ${country.name}`;
    } while (!addresses.claim(address));

    const licence = prng.weighted(LICENCE_WEIGHTS, ([, w]) => w)[0];
    fighters.push({
      key,
      name: person.name,
      nickname: prng.chance(NICKNAME_SHARE) ? prng.pick(NICKNAMES) : null,
      countrySlug: country.slug,
      divisionKey: division.key,
      dateOfBirth,
      email,
      phone,
      address,
      licence,
      ...planLicence(licence, today, prng),
      ...planCertificate(today, prng),
      rankingPublished: !prng.chance(UNPUBLISHED_SHARE),
    });
    const bell = prng.next() + prng.next() + prng.next() - 1.5;
    traits.set(key, {
      skill: bell * 1.2,
      activity: ACTIVITY_BY_LICENCE[licence] * (0.45 + prng.next() * 1.1) * (minor ? 0.8 : 1),
    });
  });
  return { fighters, traits };
}
