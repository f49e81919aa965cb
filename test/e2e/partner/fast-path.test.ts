import request from 'supertest';
import { partnerApiDeps } from '../../../src/app';
import { operationEntry } from '../../../src/http/operation-router';
import { getRanking } from '../../../src/rest/operations/rankings.operations';
import { partnerDoor } from '../../../src/rest/partner-api.door';
import { fastOnly as fastOnlyOf } from '../../helpers/fast-only';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock } from '../../helpers/world';

let t: TestApp;
/** Only the pipeline's entry for /rankings alone: what it leaves to express answers 599, so hand-overs are visible. */
let fastOnly: (req: any, res: any) => void;
const RANKINGS = '/api/v1/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg';

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  await buildWorld(t.c);
  const fast = operationEntry([partnerDoor(partnerApiDeps(t.c), t.c.requestLog, [getRanking])]);
  fastOnly = fastOnlyOf(fast).handler;
});
afterAll(() => t?.close());

async function requestCount(): Promise<number> {
  await t.c.keys.flush();
  const [row] = await t.c.orm.em.getConnection().execute(`select request_count from api_key where name = 'full'`);
  return Number(row.request_count);
}

describe('the /rankings entry of the pipeline', () => {
  it('serves a valid request with the same body and headers as the express route', async () => {
    const fast = await request(fastOnly).get(RANKINGS).set('Authorization', `Bearer ${KEYS.full}`);
    const slow = await getPartner(t.app, `${RANKINGS.replace('/api/v1', '')}&unused=1`, KEYS.full);
    expect(fast.status).toBe(200);
    expect(fast.body).toEqual(slow.body);
    expect(fast.headers.etag).toBe(slow.headers.etag);
    for (const h of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'content-type', 'cache-control']) {
      expect(fast.headers[h]).toBeDefined();
    }
    const notModified = await request(fastOnly).get(RANKINGS).set('X-API-Key', KEYS.full).set('If-None-Match', fast.headers.etag);
    expect(notModified.status).toBe(304);
  });

  // Before the one pipeline, the fast path handed these to express (599 here), uncounted, and
  // express authenticated and parsed them a second time. Now the pipeline answers them itself, as
  // express does (the same codes), and counts each authenticated request once.
  it('answers every refusal itself, as express does, counting each authenticated request once; leaves other paths and methods to express', async () => {
    const before = await requestCount();
    const cases: Array<[() => request.Test, number, string | null]> = [
      [() => request(fastOnly).get(RANKINGS), 401, 'unauthenticated'],
      [() => request(fastOnly).get(RANKINGS).set('Authorization', 'Bearer pk_unknown'), 401, 'invalid_key'],
      [() => request(fastOnly).get('/api/v1/rankings?disc=kickboxing').set('Authorization', `Bearer ${KEYS.full}`), 422, 'invalid_division'],
      [() => request(fastOnly).get(`${RANKINGS}&disc=mma`).set('Authorization', `Bearer ${KEYS.full}`), 422, 'invalid_disc'],
      [() => request(fastOnly).get(`${RANKINGS}&scope=atlantis`).set('Authorization', `Bearer ${KEYS.full}`), 422, 'invalid_scope'],
      [() => request(fastOnly).post(RANKINGS).set('Authorization', `Bearer ${KEYS.full}`), 599, null],
      [() => request(fastOnly).get('/api/v1/rankingsx').set('Authorization', `Bearer ${KEYS.full}`), 599, null],
      [() => request(fastOnly).get('/api/v1/divisions').set('Authorization', `Bearer ${KEYS.full}`), 599, null],
    ];
    for (const [send, status, code] of cases) {
      const res = await send();
      expect([res.status, res.body?.error ?? null]).toEqual([status, code]);
    }
    // the three 422s were authenticated with the full key: counted once each (not at all before, twice would be wrong)
    expect(await requestCount()).toBe(before + 3);
    const viaExpress = await getPartner(t.app, '/rankings?disc=kickboxing', KEYS.full);
    expect([viaExpress.status, viaExpress.body.error]).toEqual([422, 'invalid_division']);
  });

  it('answers an exhausted key 429 itself, with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await request(fastOnly).get(RANKINGS).set('Authorization', `Bearer ${KEYS.low}`)).status).toBe(200);
    const limited = await request(fastOnly).get(RANKINGS).set('Authorization', `Bearer ${KEYS.low}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await getPartner(t.app, RANKINGS.replace('/api/v1', ''), KEYS.low)).status).toBe(429);
  });
});
