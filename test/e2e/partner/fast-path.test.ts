import request from 'supertest';
import { partnerApiDeps } from '../../../src/app';
import { rankingsFastPath } from '../../../src/rest/rankings.fast-path';
import { fastOnly as fastOnlyOf } from '../../helpers/fast-only';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock } from '../../helpers/world';

let t: TestApp;
/** Only the fast path: what it does not serve answers 599, so hand-overs are visible. */
let fastOnly: (req: any, res: any) => void;
const RANKINGS = '/api/v1/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg';

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  await buildWorld(t.c);
  const fast = rankingsFastPath(partnerApiDeps(t.c), t.c.requestLog);
  fastOnly = fastOnlyOf(fast).handler;
});
afterAll(() => t?.close());

async function requestCount(): Promise<number> {
  await t.c.keys.flush();
  const [row] = await t.c.orm.em.getConnection().execute(`select request_count from api_key where name = 'full'`);
  return Number(row.request_count);
}

describe('the /rankings fast path', () => {
  it('serves a valid request with the same body and headers as the express route', async () => {
    const fast = await request(fastOnly).get(RANKINGS).set('Authorization', `Bearer ${KEYS.full}`);
    const slow = await getPartner(t.app, RANKINGS.replace('/api/v1', '') + '&unused=1', KEYS.full);
    expect(fast.status).toBe(200);
    expect(fast.body).toEqual(slow.body);
    expect(fast.headers.etag).toBe(slow.headers.etag);
    for (const h of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'content-type', 'cache-control']) {
      expect(fast.headers[h]).toBeDefined();
    }
    const notModified = await request(fastOnly).get(RANKINGS).set('X-API-Key', KEYS.full).set('If-None-Match', fast.headers.etag);
    expect(notModified.status).toBe(304);
  });

  it('hands every other case to express before counting or charging the request', async () => {
    const before = await requestCount();
    const cases = [
      request(fastOnly).get(RANKINGS),
      request(fastOnly).get(RANKINGS).set('Authorization', 'Bearer pk_unknown'),
      request(fastOnly).get('/api/v1/rankings?disc=kickboxing').set('Authorization', `Bearer ${KEYS.full}`),
      request(fastOnly).get(`${RANKINGS}&disc=mma`).set('Authorization', `Bearer ${KEYS.full}`),
      request(fastOnly).get(`${RANKINGS}&scope=atlantis`).set('Authorization', `Bearer ${KEYS.full}`),
      request(fastOnly).post(RANKINGS).set('Authorization', `Bearer ${KEYS.full}`),
      request(fastOnly).get('/api/v1/rankingsx').set('Authorization', `Bearer ${KEYS.full}`),
      request(fastOnly).get('/api/v1/divisions').set('Authorization', `Bearer ${KEYS.full}`),
    ];
    for (const res of await Promise.all(cases)) expect(res.status).toBe(599);
    expect(await requestCount()).toBe(before);
  });

  it('hands an exhausted key to express, which answers the 429', async () => {
    for (let i = 0; i < 3; i++) expect((await request(fastOnly).get(RANKINGS).set('Authorization', `Bearer ${KEYS.low}`)).status).toBe(200);
    expect((await request(fastOnly).get(RANKINGS).set('Authorization', `Bearer ${KEYS.low}`)).status).toBe(599);
    const limited = await getPartner(t.app, RANKINGS.replace('/api/v1', ''), KEYS.low);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
