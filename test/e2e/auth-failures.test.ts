import request from 'supertest';
import { seedTvDemo } from '../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { buildWorld, KEYS, testClock } from '../helpers/world';

/**
 * Failed authentications are budgeted per client IP over every door (here 3 per minute): past
 * the budget the answer is 429 rate_limited with Retry-After, and the credential is not looked
 * up. Each test uses its own client IP (TRUST_PROXY=1, X-Forwarded-For as the proxy appends it).
 */

const BUDGET = 3;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: { TRUST_PROXY: '1', AUTH_FAILURES_PER_MINUTE: String(BUDGET) } });
  await buildWorld(t.c);
  await seedTvDemo(t.c);
});
afterAll(() => t?.close());
afterEach(() => jest.restoreAllMocks());

const from = (ip: string) => ({ 'X-Forwarded-For': ip });
const get = (path: string, headers: Record<string, string>) => {
  let req = request(t.app).get(path);
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  return req;
};
const gql = (ip: string, query: string, token?: string) => {
  let req = request(t.app).post('/graphql').set('Content-Type', 'application/json').set(from(ip));
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return req.send({ query });
};

/** A refusal's code: REST's `error`, or on /graphql (a GraphQL response) the first error's extensions.code. */
const codeOf = (res: request.Response): unknown => (res.body.errors ? res.body.errors[0]?.extensions?.code : res.body.error);

function expectRefused(res: request.Response) {
  expect([res.status, codeOf(res)]).toEqual([429, 'rate_limited']);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(120);
  expect(res.headers['x-request-id']).toBeTruthy();
}

describe('a budget of failed authentications per client IP', () => {
  it('/api/v1: 401 up to the budget, then 429 without a key look-up, even for a valid key (also /rankings, the fast path)', async () => {
    const lookups = jest.spyOn(t.c.keys, 'authenticate');
    const ip = from('203.0.113.1');
    for (let i = 0; i < BUDGET; i++) {
      const res = await get('/api/v1/fighters', { ...ip, Authorization: `Bearer pk_wrong_${i}` });
      expect([i, res.status, res.body.error]).toEqual([i, 401, 'invalid_key']);
    }
    expectRefused(await get('/api/v1/fighters', { ...ip, 'X-API-Key': 'pk_wrong_again' }));
    const calls = lookups.mock.calls.length;
    expectRefused(await get('/api/v1/fighters', { ...ip, 'X-API-Key': 'pk_wrong_more' }));
    expectRefused(await get('/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg', { ...ip, Authorization: `Bearer ${KEYS.full}` }));
    expectRefused(await get('/api/v1/me', ip));
    expect(lookups.mock.calls.length).toBe(calls);
    // another client is unaffected
    const other = await get('/api/v1/me', { ...from('203.0.113.2'), Authorization: `Bearer ${KEYS.full}` });
    expect(other.status).toBe(200);
  });

  it('missing and malformed credentials count as failures too', async () => {
    const ip = from('203.0.113.3');
    expect((await get('/api/v1/me', ip)).status).toBe(401);
    expect((await get('/api/v1/me', { ...ip, Authorization: 'Basic abc' })).status).toBe(401);
    expect((await get('/api/v1/me', { ...ip, 'X-API-Key': 'x'.repeat(300) })).status).toBe(401);
    expectRefused(await get('/api/v1/me', ip));
  });

  it('the budget is shared by the doors: /api/tv channel endpoints and /graphql sessions', async () => {
    const channelLookups = jest.spyOn(t.c.channelKeys, 'authenticate');
    const sessionLookups = jest.spyOn(t.c.services.studioAuth, 'authenticate');
    const ip = '203.0.113.4';
    expect((await get('/api/tv/me', { ...from(ip), Authorization: 'Bearer ck_wrong_1' })).status).toBe(401);
    expect((await gql(ip, '{ me { email } }', 'st_wrong_1')).status).toBe(401);
    expect((await get('/api/tv/me', { ...from(ip), Authorization: 'Bearer ck_wrong_2' })).status).toBe(401);
    // the failure over the budget is the first 429; from then on nothing is looked up
    expectRefused(await gql(ip, '{ me { email } }', 'st_wrong_2'));
    const [channelCalls, sessionCalls] = [channelLookups.mock.calls.length, sessionLookups.mock.calls.length];
    expectRefused(await get('/api/tv/me', { ...from(ip), Authorization: 'Bearer ck_demo_ro' }));
    expectRefused(await gql(ip, '{ me { email } }', 'st_wrong_3'));
    expect([channelLookups.mock.calls.length, sessionLookups.mock.calls.length]).toEqual([channelCalls, sessionCalls]);
    // public TV endpoints need no key and stay open
    expect((await get('/api/tv/live', from(ip))).status).toBe(200);
    expect((await get('/api/tv/me', { ...from('203.0.113.5'), Authorization: 'Bearer ck_demo_ro' })).status).toBe(200);
  });

  it('a failed studio login counts; past the budget login answers HTTP 429 without checking the password', async () => {
    const logins = jest.spyOn(t.c.services.studioAuth, 'login');
    const ip = '203.0.113.6';
    const login = (password: string) => gql(ip, `mutation { login(email: "owner@demo.tv", password: "${password}") { token } }`);
    for (let i = 0; i < BUDGET; i++) {
      const res = await login(`wrong-${i}`);
      expect(res.body.errors[0].extensions.code).toBe('invalid_credentials');
    }
    const over = await login('wrong-again');
    expect(over.status).toBe(429);
    expect(over.body.errors[0].extensions.code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const calls = logins.mock.calls.length;
    const right = await login('demo-owner-pass');
    expect([right.status, right.body.errors[0].extensions.code]).toEqual([429, 'rate_limited']);
    expect(logins.mock.calls.length).toBe(calls);
    // a successful login from elsewhere is not charged
    const elsewhere = await gql('203.0.113.7', 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }');
    expect(elsewhere.body.data.login.token).toMatch(/^st_/);
  });
});

describe('credential headers are capped at 256 characters, refused before any look-up', () => {
  it.each([
    ['Authorization', `Bearer pk_${'a'.repeat(300)}`],
    ['X-API-Key', `pk_${'a'.repeat(15_000)}`],
  ])('%s over the cap: 401 unauthenticated', async (header, value) => {
    const lookups = jest.spyOn(t.c.keys, 'authenticate');
    const res = await get('/api/v1/me', { ...from('198.51.100.77'), [header]: value });
    expect([res.status, res.body.error]).toEqual([401, 'unauthenticated']);
    expect(res.body.message).toContain('256');
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(lookups).not.toHaveBeenCalled();
  });

  it('on /api/tv and /graphql too', async () => {
    const tv = await get('/api/tv/me', { ...from('198.51.100.78'), Authorization: `Bearer ck_${'a'.repeat(300)}` });
    expect([tv.status, tv.body.error]).toEqual([401, 'unauthenticated']);
    const g = await gql('198.51.100.78', '{ me { email } }', `st_${'a'.repeat(300)}`);
    expect([g.status, g.body.errors[0].extensions.code]).toEqual([401, 'unauthenticated']);
  });
});
