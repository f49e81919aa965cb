import request from 'supertest';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildWorld, KEYS, testClock } from '../../helpers/world';

/**
 * Redis down (here: a port nothing listens on). The client fails its commands at once, the rate
 * limiter decides in memory (limits still enforced, per instance), every door answers as usual
 * and /readyz stays 200 but names the degraded limiter.
 */

const RANKINGS = '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: { ...TV_ENV, REDIS_URL: 'redis://127.0.0.1:6390' } });
  await buildWorld(t.c);
});
afterAll(() => t?.close());

const rateHeaders = (res: request.Response) => [res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining'], res.headers['x-ratelimit-reset']];

it('answers partner requests with rate headers from the in-memory limiter, and still enforces the limit', async () => {
  const reset = String(t.limiterClock.seconds() + 61);
  for (const [i, path] of ['/me', '/divisions', RANKINGS].entries()) {
    const res = await getPartner(t.app, path, KEYS.low);
    expect([path, res.status, ...rateHeaders(res)]).toEqual([path, 200, '3', String(2 - i), reset]);
  }
  const over = await getPartner(t.app, '/fighters', KEYS.low);
  expect([over.status, over.body.error, over.headers['retry-after']]).toEqual([429, 'rate_limited', '61']);
  const fast = await getPartner(t.app, RANKINGS, KEYS.low); // the fast path hands it to express
  expect([fast.status, fast.body.error]).toEqual([429, 'rate_limited']);
});

it('serves the /rankings fast path, 304s included, and refunds them', async () => {
  const first = await getPartner(t.app, RANKINGS, KEYS.full);
  expect([first.status, ...rateHeaders(first).slice(0, 2)]).toEqual([200, '60', '59']);
  const again = await getPartner(t.app, RANKINGS, KEYS.full, { 'If-None-Match': first.headers.etag });
  expect([again.status, again.headers['x-ratelimit-remaining']]).toEqual([304, '59']);
  expect((await getPartner(t.app, RANKINGS, KEYS.full)).headers['x-ratelimit-remaining']).toBe('58');
});

it('serves the public TV schedule with its per-IP limit', async () => {
  const tv = new TvClient(t.app);
  const res = await tv.call('GET', '/live', { ip: '203.0.113.50' });
  expect([res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([200, '60', '59']);
});

it('/readyz stays 200 and reports the degraded limiter; health() exposes it', async () => {
  const res = await request(t.app).get('/readyz');
  expect([res.status, res.body]).toEqual([200, { status: 'ready', checks: { database: 'ok', rate_limiter: 'degraded: in-memory fallback' } }]);
  expect(t.c.limiter.health()).toMatchObject({ store: 'redis', degraded: true, degradations: 1 });
  expect(t.c.limiter.health().insuranceDecisions).toBeGreaterThanOrEqual(9);
});

it('/metrics says the limiter is degraded and counts the requests decided in memory', async () => {
  const res = await request(t.app).get('/metrics');
  expect(res.status).toBe(200);
  expect(res.text).toMatch(/^rate_limiter_degraded 1$/m);
  expect(res.text).toMatch(/^# TYPE rate_limiter_insurance_decisions_total counter$/m);
  const decided = Number(/^rate_limiter_insurance_decisions_total (\d+)$/m.exec(res.text)?.[1]);
  expect(decided).toBeGreaterThanOrEqual(9);
  // A counter: it only grows from scrape to scrape, by the requests decided in memory in between.
  const a = t.c.limiter.health().insuranceDecisions;
  await getPartner(t.app, RANKINGS, KEYS.full);
  const again = await request(t.app).get('/metrics');
  const b = t.c.limiter.health().insuranceDecisions;
  expect(b).toBeGreaterThan(a);
  expect(Number(/^rate_limiter_insurance_decisions_total (\d+)$/m.exec(again.text)?.[1])).toBe(b);
});
