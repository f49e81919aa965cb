import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { createApp, partnerApiDeps } from '../../../src/app';
import { operationEntry } from '../../../src/http/operation-router';
import { partnerDoor } from '../../../src/rest/partner-api.door';
import { adminJson } from '../../helpers/cli';
import { feedCaughtUp } from '../../helpers/change-feed';
import { fastOnly as fastOnlyOf } from '../../helpers/fast-only';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/**
 * A repeated partner read is answered at once: the fast path keeps the whole answer by URL until
 * the catalog moves, and the key, the read context and the in-process rate limiter answer from
 * memory, so no promise is awaited. These tests run with caches on and no shared limiter store
 * (the configuration of a single instance), check that the second request of each read is indeed
 * answered synchronously, and that it is the express route's answer in everything a client sees.
 */
let t: TestApp;
let w: World;
let express: ReturnType<typeof createApp>;
/** Through the fast path only (599 when it hands over), recording whether it answered synchronously. */
let fastOnly: (req: IncomingMessage, res: ServerResponse) => void;
let answeredAtOnce: boolean[];

beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: { AUTH_CACHE_TTL_MS: '60000', REDIS_URL: undefined } });
  w = await buildWorld(t.c);
  express = createApp(t.c);
  ({ handler: fastOnly, atOnce: answeredAtOnce } = fastOnlyOf(operationEntry([partnerDoor(partnerApiDeps(t.c), t.c.requestLog)])));
  // the world's notifications come back through LISTEN: heard before an answer is kept
  await feedCaughtUp(t);
});
afterAll(() => t?.close());
// The limiter's clock stands still unless moved: a fresh minute for each test (the full key allows 60).
beforeEach(() => t.limiterClock.advance(61_000));

const auth = { Authorization: `Bearer ${KEYS.full}` };
const HEADERS = ['etag', 'content-type', 'content-encoding', 'content-length', 'cache-control', 'vary', 'link', 'x-ratelimit-limit'];

async function twice(path: string, headers: Record<string, string> = {}) {
  answeredAtOnce.length = 0;
  const first = await request(fastOnly).get(`/api/v1${path}`).set(auth).set(headers);
  const second = await request(fastOnly).get(`/api/v1${path}`).set(auth).set(headers);
  return { first, second, atOnce: [...answeredAtOnce] };
}

describe('kept answers', () => {
  it('answer a repeated read at once, with the body and headers of the express route', async () => {
    const paths = [
      '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg',
      '/divisions',
      '/fighters',
      '/fighters?q=mu&per_page=2',
      `/fighters/${w.slugs.anna}`,
      `/fighters/${w.slugs.minor}`,
      '/events?upcoming=1',
      `/events/${w.events.world}`,
      `/events/${w.events.world}/results`,
      '/results?since=2026-01-01&per_page=1',
      `/verify/${w.numbers.activeLicence}`,
    ];
    for (const encoding of ['gzip', 'identity']) {
      for (const path of paths) {
        t.limiterClock.advance(61_000);
        const { first, second, atOnce } = await twice(path, { 'Accept-Encoding': encoding });
        const slow = await request(express).get(`/api/v1${path}`).set(auth).set('Accept-Encoding', encoding);
        expect([path, first.status, second.status]).toEqual([path, 200, 200]);
        // the first round keeps the answer; the second finds it kept, whatever the encoding
        expect([path, encoding, atOnce]).toEqual([path, encoding, encoding === 'gzip' ? [false, true] : [true, true]]);
        expect(second.text).toBe(slow.text);
        for (const h of HEADERS) expect([path, h, second.headers[h]]).toEqual([path, h, slow.headers[h]]);
        expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
        expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
      }
    }
  });

  it('answer HEAD like GET, without a body', async () => {
    const path = `/api/v1/fighters/${w.slugs.anna}`;
    await request(fastOnly).get(path).set(auth);
    answeredAtOnce.length = 0;
    // supertest asks for gzip on GET only: both ask the same
    const head = await request(fastOnly).head(path).set(auth).set('Accept-Encoding', 'gzip');
    const get = await request(fastOnly).get(path).set(auth).set('Accept-Encoding', 'gzip');
    expect(answeredAtOnce).toEqual([true, true]);
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it('answer 304 to either ETag without charging the rate limit', async () => {
    const path = '/api/v1/divisions';
    const plain = await request(fastOnly).get(path).set(auth).set('Accept-Encoding', 'identity');
    const gzip = await request(fastOnly).get(path).set(auth).set('Accept-Encoding', 'gzip');
    expect(gzip.headers.etag).toBe(plain.headers.etag.replace(/"$/, '-gzip"'));
    answeredAtOnce.length = 0;
    const before = await request(fastOnly).get(path).set(auth);
    const remaining = Number(before.headers['x-ratelimit-remaining']);
    for (const tag of [plain.headers.etag, gzip.headers.etag, `W/${plain.headers.etag}`]) {
      const res = await request(fastOnly).get(path).set(auth).set('If-None-Match', tag);
      expect(res.status).toBe(304);
      expect(res.text ?? '').toBe('');
      expect(Number(res.headers['x-ratelimit-remaining'])).toBe(remaining);
    }
    const after = await request(fastOnly).get(path).set(auth);
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    expect(answeredAtOnce.every(Boolean)).toBe(true);
  });

  it('count every request they answer, and /me includes itself', async () => {
    const me = async () => (await request(fastOnly).get('/api/v1/me').set(auth)).body.data.request_count as number;
    const start = await me();
    for (let i = 0; i < 5; i++) await request(fastOnly).get('/api/v1/divisions').set(auth);
    answeredAtOnce.length = 0;
    expect(await me()).toBe(start + 6);
    expect(await me()).toBe(start + 7);
    expect(answeredAtOnce).toEqual([true, true]);
    await t.c.keys.flush();
    const [row] = await t.c.orm.em.getConnection().execute(`select request_count from api_key where name = 'full'`);
    expect(Number(row.request_count)).toBe(start + 7);
  });

  // The old fast path handed these to express (599 here); the one pipeline refuses them itself,
  // with express's answers, and a known key's refusal at once.
  it('refuse a key without the scope, an exhausted limit and a revoked key as express does', async () => {
    const path = '/api/v1/fighters';
    await request(fastOnly).get(path).set(auth);
    // the key without fighters.read is known (cached) and the answer is kept: the scope still decides
    const rankingsOnly = { Authorization: `Bearer ${KEYS.rankings}` };
    expect((await request(fastOnly).get('/api/v1/divisions').set(rankingsOnly)).status).toBe(200);
    answeredAtOnce.length = 0;
    expect((await request(fastOnly).get(path).set(rankingsOnly)).status).toBe(403);
    expect((await request(fastOnly).get('/api/v1/divisions').set(rankingsOnly)).status).toBe(200);
    expect(answeredAtOnce).toEqual([true, true]);
    expect((await getPartner(t.app, '/fighters', KEYS.rankings)).status).toBe(403);

    // pk_test_low allows 3 a minute: the fourth is refused by express, and the limiter's clock stands still
    const low = { Authorization: `Bearer ${KEYS.low}` };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(fastOnly).get('/api/v1/divisions').set(low)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await getPartner(t.app, '/divisions', KEYS.low)).status).toBe(429);

    await adminJson(t.c, 'partners:create', '--slug', 'kept-co', '--name', 'Kept Co');
    const issued = await adminJson(t.c, 'keys:issue', '--partner', 'kept-co', '--name', 'prod', '--scopes', 'rankings.read', '--limit', '120');
    const key = { Authorization: `Bearer ${issued.key}` };
    expect((await request(fastOnly).get('/api/v1/divisions').set(key)).status).toBe(200);
    expect((await request(fastOnly).get('/api/v1/divisions').set(key)).status).toBe(200);
    await adminJson(t.c, 'keys:revoke', issued.id);
    const revoked = await request(fastOnly).get('/api/v1/divisions').set(key);
    expect([revoked.status, revoked.body.error]).toEqual([401, 'invalid_key']);
    expect((await getPartner(t.app, '/divisions', issued.key)).body.error).toBe('invalid_key');
  });

  it('show a write of the operator in the very next answer', async () => {
    const path = `/fighters/${w.slugs.anna}`;
    const before = await getPartner(t.app, path, KEYS.full);
    await getPartner(t.app, path, KEYS.full);
    expect(before.body.data.licence_status).toBe('active');
    await adminJson(t.c, 'licences:suspend', w.slugs.anna);
    const after = await getPartner(t.app, path, KEYS.full);
    expect(after.body.data.licence_status).toBe('suspended');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await adminJson(t.c, 'licences:reinstate', w.slugs.anna);
    expect((await getPartner(t.app, path, KEYS.full)).body.data.licence_status).toBe('active');
  });
});

describe('kept answers with a shared limiter store', () => {
  const redisUrl = process.env.REDIS_URL;
  let shared: TestApp;
  let sharedExpress: ReturnType<typeof createApp>;
  beforeAll(async () => {
    if (!redisUrl) return;
    shared = await startTestApp({ clock: testClock, sharing: t, env: { AUTH_CACHE_TTL_MS: '60000', REDIS_URL: redisUrl } });
    sharedExpress = createApp(shared.c);
  });
  afterAll(() => shared?.close());

  (redisUrl ? it : it.skip)("wait only for the limiter's decision, and answer like the express route", async () => {
    const { handler } = fastOnlyOf(operationEntry([partnerDoor(partnerApiDeps(shared.c), shared.c.requestLog)]));
    const path = `/api/v1/fighters/${w.slugs.bela}`;
    const first = await request(handler).get(path).set(auth);
    const second = await request(handler).get(path).set(auth);
    const slow = await request(sharedExpress).get(path).set(auth);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(slow.text);
    for (const h of HEADERS) expect([h, second.headers[h]]).toEqual([h, slow.headers[h]]);
    // one budget in Redis: each 200 takes one, the express request too, a 304 gives its point back
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    const notModified = await request(handler).get(path).set(auth).set('If-None-Match', second.headers.etag);
    expect(notModified.status).toBe(304);
    expect(Number(notModified.headers['x-ratelimit-remaining'])).toBe(Number(slow.headers['x-ratelimit-remaining']));
    const after = await request(handler).get(path).set(auth);
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(Number(slow.headers['x-ratelimit-remaining']) - 1);
  });
});
