import request from 'supertest';
import type { Actor } from '../../../src/domain/audit/audit.log';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/** Authentication and scopes of /api/v1 (docs/decisions.md#keys, docs/decisions.md#unauthenticated). */

let t: TestApp;
let world: World;
const actor: Actor = { id: 'test' };
/** A partner key stored in the partner table but shaped like a channel key: the wrong door. */
const CHANNEL_SHAPED = 'ck_test_door_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

beforeAll(async () => {
  // This file sends hundreds of refused keys from one address: the per-IP budget of failed
  // authentications (test/e2e/auth-failures.test.ts) is raised out of the way.
  t = await startTestApp({ clock: testClock, env: { AUTH_FAILURES_PER_MINUTE: '100000' } });
  world = await buildWorld(t.c);
  await t.c.services.partners.issueKey(actor, {
    partnerSlug: 'acme-media',
    name: 'wrong door',
    scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    fixedToken: CHANNEL_SHAPED,
  });
});
afterAll(() => t?.close());

const anyEndpoint = () => [
  '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg',
  '/divisions',
  '/fighters',
  `/fighters/${world.slugs.anna}`,
  '/events',
  `/events/${world.events.world}`,
  `/events/${world.events.world}/results`,
  '/results',
  `/verify/${world.numbers.activeFid}`,
  '/me',
];

/** Every 401: the documented body, `WWW-Authenticate: Bearer`, and no trace of the credential sent. */
function expect401(res: request.Response, error: 'unauthenticated' | 'invalid_key', secret?: string): void {
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error });
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toBeTruthy();
  if (secret) {
    expect(JSON.stringify(res.body)).not.toContain(secret);
    for (const [name, value] of Object.entries(res.headers)) expect([name, String(value)]).not.toEqual([name, expect.stringContaining(secret)]);
  }
}

describe('a missing or malformed credential is 401 unauthenticated', () => {
  it('answers 401 unauthenticated on every endpoint when no key is sent', async () => {
    for (const path of anyEndpoint()) {
      const res = await getPartner(t.app, path, null);
      expect401(res, 'unauthenticated');
    }
  });

  it.each([
    ['Basic scheme', `Basic ${Buffer.from(`${KEYS.full}:`).toString('base64')}`],
    ['Basic x', 'Basic x'],
    ['Bearer alone', 'Bearer'],
    ['Bearer and a space', 'Bearer '],
    ['the key without a scheme', KEYS.full],
    ['Token scheme', `Token ${KEYS.full}`],
    ['two tokens', `Bearer ${KEYS.full} ${KEYS.full}`],
    ['an empty header', ''],
  ])('answers 401 unauthenticated to an Authorization header that is not "Bearer <token>" (%s)', async (_label, header) => {
    const res = await getPartner(t.app, '/me', null, { Authorization: header });
    expect401(res, 'unauthenticated', KEYS.full);
  });

  it('answers 401 unauthenticated to an empty X-API-Key', async () => {
    const res = await getPartner(t.app, '/me', null, { 'X-API-Key': '' });
    expect401(res, 'unauthenticated');
  });

  it('treats the scheme name case-insensitively, as HTTP defines it (RFC 7235 2.1)', async () => {
    for (const scheme of ['bearer', 'BEARER']) {
      const res = await getPartner(t.app, '/me', null, { Authorization: `${scheme} ${KEYS.full}` });
      expect([scheme, res.status, res.body.data?.name]).toEqual([scheme, 200, 'full']);
    }
  });
});

describe('a key that does not work is 401 invalid_key', () => {
  it.each([
    ['unknown', 'pk_unknownKeyThatWasNeverIssued0000000000000'],
    ['revoked', KEYS.revoked],
    ['expired', KEYS.expired],
    ['of a suspended partner', KEYS.suspended],
  ])('answers 401 invalid_key to a key that is %s, on every endpoint', async (_label, key) => {
    for (const path of anyEndpoint()) {
      const res = await getPartner(t.app, path, key);
      expect401(res, 'invalid_key', key);
    }
  });

  it.each([
    ['unknown', 'pk_unknownKeyThatWasNeverIssued0000000000000'],
    ['revoked', KEYS.revoked],
    ['expired', KEYS.expired],
    ['of a suspended partner', KEYS.suspended],
  ])('answers 401 invalid_key to a key that is %s sent as X-API-Key', async (_label, key) => {
    const res = await getPartner(t.app, '/me', null, { 'X-API-Key': key });
    expect401(res, 'invalid_key', key);
  });

  it('refuses a key of another door (channel or studio prefix) even when its hash is on file', async () => {
    for (const token of [CHANNEL_SHAPED, 'st_someStudioSessionToken0000000000000000000']) {
      const viaBearer = await getPartner(t.app, '/me', token);
      expect401(viaBearer, 'invalid_key', token);
      const viaHeader = await getPartner(t.app, '/me', null, { 'X-API-Key': token });
      expect401(viaHeader, 'invalid_key', token);
    }
  });

  it('says why the key was refused without repeating it', async () => {
    const reasons = new Set<string>();
    for (const key of [KEYS.revoked, KEYS.expired, KEYS.suspended]) {
      const res = await getPartner(t.app, '/me', key);
      expect401(res, 'invalid_key', key);
      reasons.add(res.body.message);
    }
    expect(reasons.size).toBe(3);
  });
});

describe('the X-API-Key header', () => {
  it('is accepted in place of Authorization', async () => {
    const res = await getPartner(t.app, '/me', null, { 'X-API-Key': KEYS.full });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'full', partner: { slug: 'acme-media' } });
    const rankings = await getPartner(t.app, '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg', null, { 'X-API-Key': KEYS.rankings });
    expect(rankings.status).toBe(200);
    expect(rankings.body.count).toBeGreaterThan(0);
  });

  it('loses to Authorization when both are sent: a valid Authorization works beside a bad X-API-Key', async () => {
    const res = await getPartner(t.app, '/me', KEYS.full, { 'X-API-Key': KEYS.revoked });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('full');
    const other = await getPartner(t.app, '/me', KEYS.rankings, { 'X-API-Key': KEYS.full });
    expect(other.body.data.name).toBe('rankings only');
  });

  it('loses to Authorization when both are sent: a bad Authorization is 401 beside a good X-API-Key', async () => {
    const unknown = await getPartner(t.app, '/me', 'pk_unknownKeyThatWasNeverIssued0000000000000', { 'X-API-Key': KEYS.full });
    expect401(unknown, 'invalid_key');
    const revoked = await getPartner(t.app, '/me', KEYS.revoked, { 'X-API-Key': KEYS.full });
    expect401(revoked, 'invalid_key');
    const malformed = await getPartner(t.app, '/me', null, { Authorization: 'Basic x', 'X-API-Key': KEYS.full });
    expect401(malformed, 'unauthenticated');
  });
});

describe('scopes', () => {
  const scoped = () => [
    ['/fighters', 'fighters.read'],
    [`/fighters/${world.slugs.anna}`, 'fighters.read'],
    ['/events', 'events.read'],
    [`/events/${world.events.world}`, 'events.read'],
    [`/events/${world.events.world}/results`, 'results.read'],
    ['/results', 'results.read'],
  ];

  it('answers 403 insufficient_scope to a rankings-only key outside rankings, naming the missing scope', async () => {
    for (const [path, scope] of scoped()) {
      const res = await getPartner(t.app, path, KEYS.rankings);
      expect([path, res.status, res.body.error]).toEqual([path, 403, 'insufficient_scope']);
      expect(res.body.message).toContain(scope);
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('checks the scope before the parameters and the path values', async () => {
    for (const path of [
      '/fighters?page=0',
      '/fighters/no-such-fighter',
      '/events?level=galactic',
      '/events/NO-SUCH-EVENT/results',
      '/results?since=yesterday',
    ]) {
      const res = await getPartner(t.app, path, KEYS.rankings);
      expect([path, res.status, res.body.error]).toEqual([path, 403, 'insufficient_scope']);
    }
  });

  it('serves rankings, divisions, /verify and /me to a rankings-only key', async () => {
    const rankings = await getPartner(t.app, '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg', KEYS.rankings);
    expect(rankings.status).toBe(200);
    expect((await getPartner(t.app, '/divisions', KEYS.rankings)).status).toBe(200);
    const verify = await getPartner(t.app, `/verify/${world.numbers.activeLicence}`, KEYS.rankings);
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({ valid: true, status: 'ACTIVE', matched: 'licence_no' });
    const me = await getPartner(t.app, '/me', KEYS.rankings);
    expect(me.status).toBe(200);
    expect(me.body.data.scopes).toEqual(['rankings.read']);
  });

  it('serves every endpoint to a key with all four scopes', async () => {
    for (const path of anyEndpoint()) {
      const res = await getPartner(t.app, path, KEYS.full);
      expect([path, res.status]).toEqual([path, 200]);
    }
  });
});
