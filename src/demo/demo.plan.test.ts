import { COUNTRY_PROFILES } from './country-profiles.data';
import { addDays, addMonths, addYears, daysBetween } from './dates.util';
import { buildDemoPlan, countAdultVerifiedResults, DEMO_SEED, type DemoPlan, isAdultOn, type LicenceScenario } from './demo.plan';
import { CONTINENTS, COUNTRIES, WEIGHT_CLASSES } from './reference.data';

const TODAY = '2025-06-15';
const share = (part: number, whole: number) => part / whole;
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');

describe('buildDemoPlan', () => {
  let plan: DemoPlan;

  beforeAll(() => {
    plan = buildDemoPlan(TODAY);
  });

  const byKey = new Map<string, DemoPlan['fighters'][number]>();
  const fighter = (key: string) => {
    if (byKey.size === 0) for (const f of plan.fighters) byKey.set(f.key, f);
    return byKey.get(key)!;
  };
  const isMinor = (key: string) => !isAdultOn(fighter(key).dateOfBirth, TODAY);

  describe('reference data', () => {
    it('has the six continents and at least 45 countries, four or more on each continent', () => {
      expect(plan.continents.map((c) => c.slug).sort()).toEqual(['africa', 'asia', 'europe', 'north-america', 'oceania', 'south-america']);
      expect(plan.countries.length).toBeGreaterThanOrEqual(45);
      for (const continent of CONTINENTS) {
        expect(plan.countries.filter((c) => c.continent === continent.slug).length).toBeGreaterThanOrEqual(4);
      }
    });

    it('gives every country a unique slug, a unique ISO code and a profile with real cities', () => {
      expect(new Set(plan.countries.map((c) => c.slug)).size).toBe(plan.countries.length);
      expect(new Set(plan.countries.map((c) => c.code)).size).toBe(plan.countries.length);
      for (const country of plan.countries) {
        expect(country.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
        expect(country.code).toMatch(/^[A-Z]{2}$/);
        expect(COUNTRY_PROFILES[country.slug]?.cities.length).toBeGreaterThanOrEqual(3);
      }
      expect(plan.countries.find((c) => c.slug === 'cote-d-ivoire')).toEqual({ slug: 'cote-d-ivoire', name: "Côte d'Ivoire", code: 'CI', continent: 'africa' });
    });

    it('covers every discipline, category and gender with 5-7 real weight classes', () => {
      for (const discipline of ['kickboxing', 'mma', 'boxing', 'muay-thai'] as const) {
        for (const gender of ['m', 'f'] as const) {
          const classes = WEIGHT_CLASSES[discipline][gender];
          expect(classes.length).toBeGreaterThanOrEqual(5);
          expect(classes.length).toBeLessThanOrEqual(7);
          expect([...classes].sort((a, b) => a.order - b.order)).toEqual(classes);
          for (const category of ['pro', 'am'] as const) {
            const divisions = plan.divisions.filter((d) => d.discipline === discipline && d.category === category && d.gender === gender);
            expect(divisions.map((d) => d.weightClass)).toEqual(classes.map((c) => c.slug));
          }
        }
      }
      for (const d of plan.divisions) {
        expect(d.weightClass).toMatch(/^[a-z0-9-]+$/);
        expect(d.key).toBe(`${d.discipline}-${d.category}-${d.gender}-${d.weightClass}`);
        expect(Number.isInteger(d.order)).toBe(true);
      }
      const label = (key: string) => plan.divisions.find((d) => d.key === key)?.label;
      expect(label('kickboxing-pro-m-67kg')).toBe('Kickboxing, Pro, Men, 67 kg');
      expect(label('muay-thai-am-f-63-5kg')).toBe('Muay Thai, Am, Women, 63.5 kg');
      expect(label('boxing-pro-m-91kg-plus')).toBe('Boxing, Pro, Men, +91 kg');
    });
  });

  describe('fighters', () => {
    it('number at least 1,500 from at least 40 countries on every continent', () => {
      expect(plan.fighters.length).toBeGreaterThanOrEqual(1500);
      const countries = new Set(plan.fighters.map((f) => f.countrySlug));
      expect(countries.size).toBeGreaterThanOrEqual(40);
      for (const slug of countries) expect(COUNTRIES.some((c) => c.slug === slug)).toBe(true);
      const continents = new Set(plan.fighters.map((f) => COUNTRIES.find((c) => c.slug === f.countrySlug)!.continent));
      expect(continents.size).toBe(6);
    });

    it('fill every division, most of them with 8 to 30 fighters', () => {
      const sizes = plan.divisions.map((d) => plan.fighters.filter((f) => f.divisionKey === d.key).length);
      expect(Math.min(...sizes)).toBeGreaterThan(0);
      expect(share(sizes.filter((n) => n >= 8 && n <= 30).length, sizes.length)).toBeGreaterThanOrEqual(0.8);
      const keys = new Set(plan.divisions.map((d) => d.key));
      expect(plan.fighters.filter((f) => !keys.has(f.divisionKey))).toEqual([]);
    });

    it('include 3-8% minors, all in amateur divisions, and adults aged 18 to 40', () => {
      const minors = plan.fighters.filter((f) => isMinor(f.key));
      expect(share(minors.length, plan.fighters.length)).toBeGreaterThanOrEqual(0.03);
      expect(share(minors.length, plan.fighters.length)).toBeLessThanOrEqual(0.08);
      expect(minors.filter((m) => !m.divisionKey.includes('-am-'))).toEqual([]);
      expect(plan.fighters.filter((f) => f.dateOfBirth <= addYears(TODAY, -41))).toEqual([]);
      // Nobody comes of age between the two ranking runs.
      expect(plan.fighters.filter((f) => isAdultOn(f.dateOfBirth, TODAY) !== isAdultOn(f.dateOfBirth, plan.rankingRuns[0]))).toEqual([]);
    });

    it('have unique names (also once accents are folded), emails, phones and addresses', () => {
      for (const field of ['name', 'email', 'phone', 'address'] as const) {
        expect(new Set(plan.fighters.map((f) => f[field])).size).toBe(plan.fighters.length);
      }
      expect(new Set(plan.fighters.map((f) => fold(f.name))).size).toBe(plan.fighters.length);
      expect(plan.fighters.filter((f) => !/^[a-z0-9.]+@example\.(com|net|org)$/.test(f.email))).toEqual([]);
    });

    it('have names of their regions, some accented, and nicknames for about 30%', () => {
      const names = plan.fighters.map((f) => f.name);
      expect(share(names.filter((n) => /[^\x00-\x7f]/.test(n)).length, names.length)).toBeGreaterThan(0.1);
      for (const fragment of ['José', 'Müller', 'Çelik', 'Nguyễn']) expect(names.some((n) => n.includes(fragment))).toBe(true);
      const nicknamed = plan.fighters.filter((f) => f.nickname !== null).length;
      expect(share(nicknamed, plan.fighters.length)).toBeGreaterThan(0.22);
      expect(share(nicknamed, plan.fighters.length)).toBeLessThan(0.38);
    });

    it('cover every licence scenario several times, with dates that fit it', () => {
      const scenarios: LicenceScenario[] = ['none', 'pending', 'active', 'suspended', 'expired', 'renewed', 'revoked'];
      for (const scenario of scenarios) {
        expect(plan.fighters.filter((f) => f.licence === scenario).length).toBeGreaterThanOrEqual(5);
      }
      const misdated = plan.fighters.filter((f) => {
        if (f.licence === 'none') return f.licenceIssuedOn !== null || f.licenceValidUntil !== null || f.previousLicenceIssuedOn !== null;
        const [issued, validUntil] = [f.licenceIssuedOn ?? '', f.licenceValidUntil ?? ''];
        if (!(issued <= TODAY && issued < validUntil)) return true;
        if (f.licence === 'expired' && validUntil >= TODAY) return true;
        if (['active', 'suspended', 'renewed', 'pending'].includes(f.licence) && validUntil <= TODAY) return true;
        if ((f.previousLicenceIssuedOn !== null) !== (f.licence === 'renewed')) return true;
        return f.licence === 'renewed' && !(f.previousLicenceIssuedOn! < issued);
      });
      expect(misdated).toEqual([]);
    });

    it('hold a certificate for about 30%, in every status, and a published ranking for about 97%', () => {
      const withCertificate = plan.fighters.filter((f) => f.certificate !== null);
      expect(share(withCertificate.length, plan.fighters.length)).toBeGreaterThan(0.22);
      expect(share(withCertificate.length, plan.fighters.length)).toBeLessThan(0.38);
      expect(new Set(withCertificate.map((f) => f.certificate))).toEqual(new Set(['pending', 'active', 'suspended', 'expired', 'revoked']));
      expect(withCertificate.filter((f) => f.certificateValidUntil! < TODAY !== (f.certificate === 'expired'))).toEqual([]);
      const published = share(plan.fighters.filter((f) => f.rankingPublished).length, plan.fighters.length);
      expect(published).toBeGreaterThan(0.94);
      expect(published).toBeLessThan(0.995);
    });
  });

  describe('events', () => {
    it('number at least 220 sanctioned, at every level and some without one, plus a few unsanctioned', () => {
      const sanctioned = plan.events.filter((e) => e.sanctioned);
      expect(sanctioned.length).toBeGreaterThanOrEqual(220);
      for (const level of ['national', 'international', 'continental', 'worldcup', 'world', null]) {
        expect(sanctioned.filter((e) => e.level === level).length).toBeGreaterThanOrEqual(3);
      }
      const unsanctioned = plan.events.length - sanctioned.length;
      expect(unsanctioned).toBeGreaterThan(0);
      expect(unsanctioned).toBeLessThanOrEqual(10);
    });

    it('span the last three years and the next six months', () => {
      const dates = plan.events.map((e) => e.date).sort();
      expect(dates[0] >= addYears(TODAY, -3)).toBe(true);
      expect(daysBetween(addYears(TODAY, -3), dates[0])).toBeLessThanOrEqual(10);
      expect(dates[dates.length - 1] <= addMonths(TODAY, 6)).toBe(true);
      expect(daysBetween(dates[dates.length - 1], addMonths(TODAY, 6))).toBeLessThanOrEqual(10);
      expect(plan.events.filter((e) => e.date > TODAY).length).toBeGreaterThanOrEqual(20);
    });

    it('have statuses consistent with their dates', () => {
      const past = plan.events.filter((e) => e.date < TODAY);
      expect(past.every((e) => e.status === 'completed' || e.status === 'cancelled')).toBe(true);
      const cancelled = past.filter((e) => e.status === 'cancelled').length;
      expect(cancelled).toBeGreaterThan(0);
      expect(share(cancelled, past.length)).toBeLessThan(0.08);
      const live = plan.events.filter((e) => e.status === 'live');
      expect(live.length).toBeGreaterThanOrEqual(1);
      expect(live.length).toBeLessThanOrEqual(2);
      expect(plan.events.filter((e) => e.date === TODAY).every((e) => e.status === 'live' && e.sanctioned)).toBe(true);
      expect(plan.events.filter((e) => e.date > TODAY).every((e) => e.status === 'scheduled')).toBe(true);
    });

    it('take place in many countries, in real cities of the host country, under unique names and keys', () => {
      expect(new Set(plan.events.map((e) => e.countrySlug)).size).toBeGreaterThanOrEqual(30);
      expect(plan.events.filter((e) => e.city !== null && !COUNTRY_PROFILES[e.countrySlug].cities.includes(e.city))).toEqual([]);
      expect(share(plan.events.filter((e) => e.city === null).length, plan.events.length)).toBeLessThan(0.05);
      expect(new Set(plan.events.map((e) => e.name)).size).toBe(plan.events.length);
      expect(new Set(plan.events.map((e) => e.key)).size).toBe(plan.events.length);
    });
  });

  describe('bouts', () => {
    it('happen only at completed sanctioned events, plus a few unverified ones at the live events', () => {
      const eventOf = new Map(plan.events.map((e) => [e.key, e]));
      const misplaced = plan.bouts.filter((b) => {
        const event = eventOf.get(b.eventKey);
        if (!event?.sanctioned || event.date > TODAY) return true;
        return event.status === 'live' ? b.verified : event.status !== 'completed';
      });
      expect(misplaced).toEqual([]);
      const liveBouts = plan.bouts.filter((b) => eventOf.get(b.eventKey)!.status === 'live').length;
      expect(liveBouts).toBeGreaterThan(0);
      expect(liveBouts).toBeLessThanOrEqual(8);
    });

    it('fill each completed card with 6 to 14 bouts in running order', () => {
      for (const e of plan.events.filter((x) => x.status === 'completed')) {
        const card = plan.bouts.filter((b) => b.eventKey === e.key);
        expect(card.length).toBeGreaterThanOrEqual(6);
        expect(card.length).toBeLessThanOrEqual(14);
        expect(card.map((b) => b.order)).toEqual(card.map((_, i) => i + 1));
      }
    });

    it('pair two different fighters of the bout division, each at most once per event', () => {
      const seen = new Set<string>();
      const wrong = plan.bouts.filter((b) => {
        const twice = [b.fighterA, b.fighterB].some((key) => seen.has(`${b.eventKey}/${key}`));
        seen.add(`${b.eventKey}/${b.fighterA}`).add(`${b.eventKey}/${b.fighterB}`);
        return twice || b.fighterA === b.fighterB || fighter(b.fighterA).divisionKey !== b.divisionKey || fighter(b.fighterB).divisionKey !== b.divisionKey;
      });
      expect(wrong).toEqual([]);
    });

    it('put minors only in amateur bouts, against fighters of any age', () => {
      const withMinor = plan.bouts.filter((b) => isMinor(b.fighterA) || isMinor(b.fighterB));
      expect(withMinor.length).toBeGreaterThan(0);
      expect(withMinor.filter((b) => !b.divisionKey.includes('-am-'))).toEqual([]);
      expect(withMinor.some((b) => isMinor(b.fighterA) !== isMinor(b.fighterB))).toBe(true);
    });

    it('yield at least 8,000 verified results for adults', () => {
      let results = 0;
      for (const b of plan.bouts.filter((x) => x.verified)) {
        results += (isMinor(b.fighterA) ? 0 : 1) + (isMinor(b.fighterB) ? 0 : 1);
      }
      expect(results).toBeGreaterThanOrEqual(8000);
      expect(countAdultVerifiedResults(plan)).toBe(results);
    });

    it('leave a small share of past bouts unverified', () => {
      const eventOf = new Map(plan.events.map((e) => [e.key, e]));
      const past = plan.bouts.filter((b) => eventOf.get(b.eventKey)!.date < TODAY);
      const unverified = past.filter((b) => !b.verified).length;
      expect(unverified).toBeGreaterThan(0);
      expect(share(unverified, past.length)).toBeLessThan(0.08);
    });

    it('end mostly in wins, some draws, a few no contests, with a realistic KO share', () => {
      const n = plan.bouts.length;
      const wins = plan.bouts.filter((b) => b.outcome === 'a');
      const draws = plan.bouts.filter((b) => b.outcome === 'draw').length;
      const noContests = plan.bouts.filter((b) => b.outcome === 'nc');
      expect(share(wins.length, n)).toBeGreaterThan(0.9);
      expect(share(draws, n)).toBeGreaterThan(0.01);
      expect(share(draws, n)).toBeLessThan(0.06);
      expect(noContests.length).toBeGreaterThan(0);
      expect(share(noContests.length, n)).toBeLessThan(0.04);
      expect(noContests.some((b) => b.method === null)).toBe(true);
      const knockouts = share(wins.filter((b) => b.method === 'KO' || b.method === 'TKO').length, wins.length);
      expect(knockouts).toBeGreaterThan(0.15);
      expect(knockouts).toBeLessThan(0.4);
      expect(wins.filter((b) => b.method === 'SUB').every((b) => b.divisionKey.startsWith('mma-'))).toBe(true);
      const methods = new Set(plan.bouts.map((b) => b.method));
      expect([...methods].filter((m) => m !== null && !['KO', 'TKO', 'UD', 'SD', 'MD', 'SUB', 'DQ'].includes(m))).toEqual([]);
      expect(plan.bouts.filter((b) => b.outcome !== 'nc' && !(b.round !== null && b.round >= 1 && b.round <= 12))).toEqual([]);
    });

    it('give licensed fighters the most bouts and nobody an implausible schedule', () => {
      const count = new Map<string, number>();
      const dates = new Map<string, string[]>();
      const eventDate = new Map(plan.events.map((e) => [e.key, e.date]));
      for (const b of plan.bouts) {
        for (const key of [b.fighterA, b.fighterB]) {
          count.set(key, (count.get(key) ?? 0) + 1);
          dates.set(key, [...(dates.get(key) ?? []), eventDate.get(b.eventKey)!]);
        }
      }
      const mean = (scenarios: LicenceScenario[]) => {
        const group = plan.fighters.filter((f) => scenarios.includes(f.licence));
        return group.reduce((s, f) => s + (count.get(f.key) ?? 0), 0) / group.length;
      };
      const licensed = mean(['active', 'renewed']);
      for (const other of ['none', 'pending', 'suspended', 'expired', 'revoked'] as const) expect(licensed).toBeGreaterThan(mean([other]));
      expect(Math.max(...count.values())).toBeLessThanOrEqual(30);
      const rushed = [...dates.values()].filter((list) => {
        const sorted = [...list].sort();
        return sorted.some((date, i) => i > 0 && daysBetween(sorted[i - 1], date) < 14);
      });
      expect(rushed).toEqual([]);
    });
  });

  it('lists two ranking runs, two weeks apart, the latest today', () => {
    expect(plan.rankingRuns).toEqual([addDays(TODAY, -14), TODAY]);
  });

  it('is deterministic for a date and a seed, and differs for another seed', () => {
    // JSON comparison: the plan is plain data, and this is much faster than a deep toEqual.
    expect(JSON.stringify(buildDemoPlan(TODAY))).toBe(JSON.stringify(plan));
    expect(JSON.stringify(buildDemoPlan(TODAY, DEMO_SEED))).toBe(JSON.stringify(plan));
    expect(buildDemoPlan(TODAY, DEMO_SEED + 1).fighters.slice(0, 20)).not.toEqual(plan.fighters.slice(0, 20));
  });

  it('holds its counts on other dates and seeds, leap days included', () => {
    for (const [today, seed] of [
      ['2024-02-29', DEMO_SEED],
      ['2031-12-31', 7],
    ] as const) {
      const other = buildDemoPlan(today, seed);
      expect(other.fighters.length).toBeGreaterThanOrEqual(1500);
      expect(other.events.filter((e) => e.sanctioned).length).toBeGreaterThanOrEqual(220);
      expect(countAdultVerifiedResults(other)).toBeGreaterThanOrEqual(8000);
    }
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => buildDemoPlan('2025-02-30')).toThrow();
    expect(() => buildDemoPlan('15/06/2025')).toThrow();
  });
});
