import { addDays } from '../../../src/domain/clock';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, TODAY, testClock, type World } from '../../helpers/world';

/**
 * /verify/{number} for every status, and /me. Besides the test world, this file renews Emil's
 * licence with one that ran out yesterday (EXPIRED; his first number is then superseded), renews
 * Olga's with one valid until today (still ACTIVE) and gives Anna a certificate that expired last
 * year.
 */

const actor = { id: 'test' };
const ALL_SCOPES = ['rankings.read', 'fighters.read', 'events.read', 'results.read'];
const GERMANY = { slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' };

let t: TestApp;
let world: World;
let key: string;
const n: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  const s = t.c.services;
  key = (await s.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'verify tests', scopes: ['rankings.read'], rateLimitPerMinute: 100_000 })).token;
  const conn = t.c.orm.em.getConnection();
  const current = async (slug: string) =>
    (await conn.execute(`select l.licence_no from licence l join fighter f on f.id = l.fighter_id where f.slug = ? and l.current`, [slug]))[0]
      .licence_no as string;
  const fid = async (slug: string) => (await conn.execute(`select fighter_code from fighter where slug = ?`, [slug]))[0].fighter_code as string;
  n.emilFirst = await current(world.slugs.emil);
  n.emilExpired = (await s.fighters.issueLicence(actor, world.slugs.emil, { issuedOn: '2025-04-15', validUntil: addDays(TODAY, -1) })).licence.licenceNo;
  const [{ slug: olga }] = await conn.execute(`select slug from fighter where name = 'Olga Adult'`);
  n.olgaToday = (await s.fighters.issueLicence(actor, olga, { issuedOn: '2025-06-16', validUntil: TODAY })).licence.licenceNo;
  n.expiredCertificate = (
    await s.fighters.issueCertificate(actor, world.slugs.anna, { kind: 'medical', issuedOn: '2025-01-01', validUntil: '2025-12-31' })
  ).certificateNo;
  n.emilFid = await fid(world.slugs.emil);
  n.saraFid = await fid(world.slugs.suspended);
  n.minorFid = await fid(world.slugs.minor);
  n.doraCurrent = await current(world.slugs.dora);
});
afterAll(() => t?.close());

async function verify(number: string, k = key) {
  const res = await getPartner(t.app, `/verify/${number}`, k);
  expect([number, res.status]).toEqual([number, 200]);
  // The answer stands at the top level, beside as_of: no `data` wrapper.
  expect(Object.keys(res.body).sort()).toEqual(['as_of', 'fighter', 'matched', 'status', 'valid']);
  expect(res.body.as_of).toBe(TODAY);
  return res.body;
}
const brief = (b: { valid: boolean; status: string; matched: string; fighter: { slug?: string; name: string } | null }) => [
  b.valid,
  b.status,
  b.matched,
  b.fighter && (b.fighter.slug ?? b.fighter.name),
];

describe('/verify/{number}', () => {
  it('ACTIVE: a current licence, the fighter ID and a certificate in date', async () => {
    const lic = await verify(world.numbers.activeLicence);
    expect(lic).toEqual({
      as_of: TODAY,
      valid: true,
      status: 'ACTIVE',
      matched: 'licence_no',
      fighter: {
        slug: world.slugs.anna,
        name: 'Anna Müller',
        nickname: 'The Hammer',
        country: GERMANY,
        division: { discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '60kg', label: 'Kickboxing, Pro, Women, 60 kg' },
        status: 'licensed',
        ranking_published: true,
        licence_status: 'active',
        fighter_code: world.numbers.activeFid,
      },
    });
    expect(brief(await verify(world.numbers.activeFid))).toEqual([true, 'ACTIVE', 'fighter_code', world.slugs.anna]);
    expect(brief(await verify(world.numbers.certificate))).toEqual([true, 'ACTIVE', 'certificate_no', world.slugs.anna]);
    expect(brief(await verify(n.doraCurrent))).toEqual([true, 'ACTIVE', 'licence_no', world.slugs.dora]);
    // Valid until today is still in date.
    expect(brief(await verify(n.olgaToday))).toEqual([true, 'ACTIVE', 'licence_no', expect.any(String)]);
  });

  it("SUSPENDED: the suspended fighter's licence and fighter ID", async () => {
    const lic = await verify(world.numbers.suspendedLicence);
    expect(brief(lic)).toEqual([false, 'SUSPENDED', 'licence_no', world.slugs.suspended]);
    expect(lic.fighter).toMatchObject({ status: 'suspended', licence_status: 'suspended' });
    expect(brief(await verify(n.saraFid))).toEqual([false, 'SUSPENDED', 'fighter_code', world.slugs.suspended]);
  });

  it('EXPIRED: a licence or certificate past its valid_until, and the fighter ID it speaks for', async () => {
    const lic = await verify(n.emilExpired);
    expect(brief(lic)).toEqual([false, 'EXPIRED', 'licence_no', world.slugs.emil]);
    expect(lic.fighter).toMatchObject({ licence_status: 'expired' });
    expect(brief(await verify(n.emilFid))).toEqual([false, 'EXPIRED', 'fighter_code', world.slugs.emil]);
    expect(brief(await verify(n.expiredCertificate))).toEqual([false, 'EXPIRED', 'certificate_no', world.slugs.anna]);
  });

  it("PENDING VERIFICATION: the applicant's licence", async () => {
    const lic = await verify(world.numbers.pendingLicence);
    expect(brief(lic)).toEqual([false, 'PENDING VERIFICATION', 'licence_no', world.slugs.applicant]);
    expect(lic.fighter).toMatchObject({ name: 'Paula Neu', status: 'applicant', licence_status: 'pending', fighter_code: null });
  });

  it('NO MATCHING RECORD: a number superseded on renewal, with no fighter', async () => {
    for (const number of [world.numbers.supersededLicence, n.emilFirst]) {
      expect(await verify(number)).toEqual({ as_of: TODAY, valid: false, status: 'NO MATCHING RECORD', matched: 'licence_no', fighter: null });
    }
  });

  it('matches case-insensitively after trimming', async () => {
    for (const raw of [
      ` ${world.numbers.activeLicence.toLowerCase()} `,
      `\t${world.numbers.activeLicence}`,
      world.numbers.activeFid.toLowerCase(),
      ` ${world.numbers.certificate.toLowerCase()}`,
    ]) {
      const body = await verify(encodeURIComponent(raw));
      expect([raw, body.valid, body.status, body.fighter.slug]).toEqual([raw, true, 'ACTIVE', world.slugs.anna]);
    }
    expect((await verify(`%20${world.numbers.activeLicence.toLowerCase()}%20`)).matched).toBe('licence_no');
    expect((await verify(world.numbers.activeFid.toLowerCase())).matched).toBe('fighter_code');
  });

  it("a minor's number answers with the reduced fighter only", async () => {
    for (const [number, matched] of [
      [world.numbers.minorLicence, 'licence_no'],
      [n.minorFid, 'fighter_code'],
    ]) {
      const body = await verify(number);
      expect(body).toEqual({
        as_of: TODAY,
        valid: true,
        status: 'ACTIVE',
        matched,
        fighter: {
          name: 'Mia Jung',
          country: GERMANY,
          division: { discipline: 'mma', category: 'am', gender: 'f', weight_class: '57kg', label: 'MMA, Am, Women, 57 kg' },
        },
      });
    }
  });

  it('a malformed number is a 422 invalid_number', async () => {
    for (const raw of [
      'ABC',
      'LIC-DE-26-000001',
      'LIC-DE-2026-0000001',
      'LIC-D-2026-000001',
      'FID-IIII-0000',
      'FID-12345-678',
      'CRT-2026-1',
      'CRT-2026-00000A',
      '12345',
      'LIC%2DDE',
    ]) {
      const res = await getPartner(t.app, `/verify/${raw}`, key);
      expect([raw, res.status, res.body.error]).toEqual([raw, 422, 'invalid_number']);
    }
  });

  it('a well-formed unknown number is a 404 not_found', async () => {
    for (const raw of ['LIC-DE-2026-999999', 'LIC-US-2026-000001', 'CRT-2026-999999', 'FID-ZZZZ-ZZZZ']) {
      const res = await getPartner(t.app, `/verify/${raw}`, key);
      expect([raw, res.status, res.body.error]).toEqual([raw, 404, 'not_found']);
    }
  });

  it('needs a valid key but no scope', async () => {
    expect(brief(await verify(world.numbers.activeLicence, KEYS.rankings))).toEqual([true, 'ACTIVE', 'licence_no', world.slugs.anna]);
    const res = await getPartner(t.app, `/verify/${world.numbers.activeLicence}`, null);
    expect(res.status).toBe(401);
  });
});

describe('/me', () => {
  async function me(k: string) {
    const res = await getPartner(t.app, '/me', k);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['as_of', 'data']);
    expect(res.body.as_of).toBe(TODAY);
    return res.body.data;
  }

  it('describes the key: name, partner, scopes, limit, expiry', async () => {
    const data = await me(KEYS.full);
    expect(data).toEqual({
      name: 'full',
      partner: { slug: 'acme-media', name: 'Acme Media', status: 'active' },
      scopes: ALL_SCOPES,
      rate_limit_per_minute: 60,
      expires_at: null,
      request_count: expect.any(Number),
    });
    const issued = await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'event desk',
      scopes: ['events.read'],
      rateLimitPerMinute: 7,
      expiresAt: new Date('2027-03-01T10:00:00Z'),
    });
    expect(await me(issued.token)).toEqual({
      name: 'event desk',
      partner: { slug: 'acme-media', name: 'Acme Media', status: 'active' },
      scopes: ['events.read'],
      rate_limit_per_minute: 7,
      expires_at: '2027-03-01T10:00:00.000Z',
      request_count: 1,
    });
  });

  it('counts every authenticated request with the key, this one included', async () => {
    const fresh = (
      await t.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'counter', scopes: ['rankings.read'], rateLimitPerMinute: 1000 })
    ).token;
    expect((await me(fresh)).request_count).toBe(1);
    expect((await me(fresh)).request_count).toBe(2);
    expect((await me(fresh)).request_count).toBe(3);
    // A 200, a 403 (no scope) and a 404 are all requests authenticated with the key.
    expect((await getPartner(t.app, '/divisions', fresh)).status).toBe(200);
    expect((await getPartner(t.app, '/fighters', fresh)).status).toBe(403);
    expect((await getPartner(t.app, '/verify/LIC-DE-2026-999999', fresh)).status).toBe(404);
    expect((await me(fresh)).request_count).toBe(7);
    // Another key's requests do not count.
    await me(KEYS.full);
    expect((await me(fresh)).request_count).toBe(8);
    const before = (await me(KEYS.full)).request_count;
    expect((await me(KEYS.full)).request_count).toBe(before + 1);
  });
});
