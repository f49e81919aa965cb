import type { Container } from '../../src/container';
import { addDays, addYears, fixedClock } from '../../src/domain/clock';
import type { Actor } from '../../src/domain/audit/audit.log';

/** Tests run on a fixed day so dates, minority and time values are exact. */
export const TODAY = '2026-06-15';
export const testClock = fixedClock(`${TODAY}T12:00:00Z`);
const actor: Actor = { id: 'test' };

export const KEYS = {
  full: 'pk_test_full',
  rankings: 'pk_test_rankings',
  low: 'pk_test_low',
  expired: 'pk_test_expired',
  revoked: 'pk_test_revoked',
  suspended: 'pk_test_suspended',
};

/** Distinctive identity and contact values: the privacy test searches every response for them. */
export const PLANTED = {
  email: 'planted.secret@private.example',
  phone: '+49 151 99887766',
  address: '77 Hidden Lane, Privatstadt',
  dateOfBirth: '1991-07-23',
};

export interface World {
  slugs: Record<'anna' | 'bela' | 'chiaki' | 'dora' | 'minor' | 'applicant' | 'suspended' | 'emil', string>;
  events: Record<'world' | 'old' | 'future' | 'unsanctioned' | 'minorBout', string>;
  numbers: {
    activeLicence: string;
    activeFid: string;
    pendingLicence: string;
    suspendedLicence: string;
    supersededLicence: string;
    certificate: string;
    minorLicence: string;
  };
}

/**
 * A small world built through the domain services, as the operator would: three countries on two
 * continents, two divisions, fighters in every licence state, a minor, events at several levels,
 * verified bouts and two published ranking runs.
 */
export async function buildWorld(c: Container): Promise<World> {
  const s = c.services;
  await s.reference.upsert(actor, {
    continents: [
      { slug: 'europe', name: 'Europe' },
      { slug: 'asia', name: 'Asia' },
    ],
    countries: [
      { slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' },
      { slug: 'france', name: 'France', code: 'FR', continent: 'europe' },
      { slug: 'japan', name: 'Japan', code: 'JP', continent: 'asia' },
    ],
    divisions: [
      {
        id: 'kickboxing-pro-f-60kg',
        discipline: 'kickboxing',
        category: 'pro',
        gender: 'f',
        weightClass: '60kg',
        label: 'Kickboxing, Pro, Women, 60 kg',
        sortOrder: 60,
      },
      {
        id: 'kickboxing-pro-f-63-5kg',
        discipline: 'kickboxing',
        category: 'pro',
        gender: 'f',
        weightClass: '63-5kg',
        label: 'Kickboxing, Pro, Women, 63.5 kg',
        sortOrder: 63,
      },
      { id: 'mma-am-f-57kg', discipline: 'mma', category: 'am', gender: 'f', weightClass: '57kg', label: 'MMA, Am, Women, 57 kg', sortOrder: 57 },
    ],
  });
  await s.partners.create(actor, { slug: 'acme-media', name: 'Acme Media' });
  await s.partners.create(actor, { slug: 'gone-bets', name: 'Gone Bets' });
  const all = ['rankings.read', 'fighters.read', 'events.read', 'results.read'];
  await s.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'full', scopes: all, fixedToken: KEYS.full });
  await s.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'rankings only', scopes: ['rankings.read'], fixedToken: KEYS.rankings });
  await s.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'low', scopes: all, rateLimitPerMinute: 3, fixedToken: KEYS.low });
  await s.partners.issueKey(actor, {
    partnerSlug: 'acme-media',
    name: 'expired',
    scopes: all,
    expiresAt: new Date('2026-01-01T00:00:00Z'),
    fixedToken: KEYS.expired,
  });
  const revoked = await s.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'revoked', scopes: all, fixedToken: KEYS.revoked });
  await s.partners.revokeKey(actor, revoked.key.id);
  await s.partners.issueKey(actor, { partnerSlug: 'gone-bets', name: 'suspended', scopes: all, fixedToken: KEYS.suspended });
  await s.partners.setStatus(actor, 'gone-bets', 'suspended');

  const contact = (n: string) => ({ email: `${n}@fighters.example`, phone: '+00 000', address: `${n} street` });
  const reg = async (name: string, country: string, division: string, dob: string, extra: object = {}) =>
    (
      await s.fighters.register(actor, {
        name,
        countrySlug: country,
        divisionId: division,
        dateOfBirth: dob,
        ...contact(name.split(' ')[0].toLowerCase()),
        ...extra,
      })
    ).slug;
  const kb = 'kickboxing-pro-f-60kg';
  const anna = await reg('Anna Müller', 'germany', kb, '1995-03-01', { nickname: 'The Hammer' });
  const bela = await reg('Béla Dupont', 'france', kb, '1996-05-05');
  const chiaki = await reg('Chiaki Sato', 'japan', kb, '1994-01-01');
  const dora = await reg('Dora Schmidt', 'germany', kb, '1993-09-09');
  const emil = await reg('Emil Weber', 'germany', 'kickboxing-pro-f-63-5kg', PLANTED.dateOfBirth, {
    email: PLANTED.email,
    phone: PLANTED.phone,
    address: PLANTED.address,
  });
  const minor = await reg('Mia Jung', 'germany', 'mma-am-f-57kg', addYears(TODAY, -16));
  const minorOpp = await reg('Olga Adult', 'france', 'mma-am-f-57kg', '1999-02-02');
  const applicant = await reg('Paula Neu', 'japan', kb, '2000-02-02', { applyForLicence: true });
  const suspended = await reg('Sara Streng', 'france', kb, '1992-12-12');

  const issued: Record<string, string> = {};
  for (const slug of [anna, bela, chiaki, dora, emil, minor, minorOpp, suspended]) {
    issued[slug] = (await s.fighters.issueLicence(actor, slug, { issuedOn: '2026-01-10', validUntil: '2027-01-09' })).licence.licenceNo;
  }
  // Dora renews: her first number is superseded (NO MATCHING RECORD).
  const supersededLicence = issued[dora];
  issued[dora] = (await s.fighters.issueLicence(actor, dora, { issuedOn: '2026-03-01', validUntil: '2027-02-28' })).licence.licenceNo;
  await s.fighters.suspendLicence(actor, suspended);
  const cert = await s.fighters.issueCertificate(actor, anna, { kind: 'medical', issuedOn: '2026-01-01', validUntil: '2026-12-31' });

  const ev = async (name: string, date: string, level: 'world' | 'national' | null, sanction = true, status: 'completed' | 'scheduled' = 'completed') => {
    const e = await s.events.create(actor, { name, city: 'Berlin', countrySlug: 'germany', date, level, status });
    if (sanction) await s.events.sanction(actor, e.code);
    return e.code;
  };
  const events = {
    old: await ev('Old National', addDays(TODAY, -400), 'national'),
    world: await ev('World Championships', addDays(TODAY, -30), 'world'),
    minorBout: await ev('Youth Cup', addDays(TODAY, -20), null),
    future: await ev('Future Gala', addDays(TODAY, 40), 'world', true, 'scheduled'),
    unsanctioned: await ev('Backyard Show', addDays(TODAY, -25), 'national', false),
  };
  const bout = async (event: string, winner: string, loser: string, extra: { draw?: boolean; method?: string; round?: number; verify?: boolean } = {}) => {
    const b = await s.results.record(actor, {
      eventCode: event,
      winnerSlug: winner,
      loserSlug: loser,
      draw: extra.draw,
      method: extra.method ?? 'UD',
      round: extra.round ?? 3,
    });
    if (extra.verify !== false) await s.results.verify(actor, b.id);
    return b.id;
  };
  // Old national (age > 12 months, time value 0.5): Anna beats Béla by KO -> 12 * 1 * 0.5 = 6; Béla 2 * 0.5 = 1.
  await bout(events.old, anna, bela, { method: 'KO', round: 1 });
  // World (x3): Béla beats Chiaki 10*3 = 30, Chiaki 2*3 = 6; Anna draws Dora 5*3 = 15 each.
  await bout(events.world, bela, chiaki);
  await bout(events.world, anna, dora, { draw: true });
  // Recorded but unverified: counts nowhere.
  await bout(events.world, dora, chiaki, { verify: false });
  // A minor's bout: only the adult's result may appear.
  await bout(events.minorBout, minorOpp, minor);
  await bout(events.unsanctioned, chiaki, anna);

  await s.rankings.publish(actor, addDays(TODAY, -35));
  await s.rankings.publish(actor, TODAY);
  const conn = c.orm.em.getConnection();
  const [{ licence_no: pendingLicence }] = await conn.execute(`select l.licence_no from licence l join fighter f on f.id = l.fighter_id where f.slug = ?`, [
    applicant,
  ]);
  const [{ fighter_code: activeFid }] = await conn.execute(`select fighter_code from fighter where slug = ?`, [anna]);
  return {
    slugs: { anna, bela, chiaki, dora, minor, applicant, suspended, emil },
    events,
    numbers: {
      activeLicence: issued[anna],
      activeFid,
      pendingLicence,
      suspendedLicence: issued[suspended],
      supersededLicence,
      certificate: cert.certificateNo,
      minorLicence: issued[minor],
    },
  };
}
