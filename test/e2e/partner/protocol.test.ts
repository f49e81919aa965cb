import { createServer, get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import type { Actor } from '../../../src/domain/audit/audit.log';
import { getPartner, partnerSpec } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/** HTTP conventions of /api/v1: request ids, ETags and 304, HEAD, 405, 404, the OpenAPI document, health. */

let t: TestApp;
let world: World;
const actor: Actor = { id: 'test' };
/** A key with a budget large enough for this file's many requests. */
const BIG = 'pk_test_protocol_big_budget';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SCHEMA_FILE = join(__dirname, '..', '..', '..', 'schema', 'openapi.json');

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  await t.c.services.partners.issueKey(actor, {
    partnerSlug: 'acme-media',
    name: 'big',
    scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    rateLimitPerMinute: 1_000_000,
    fixedToken: BIG,
  });
});
afterAll(() => t?.close());

/** Every GET endpoint with a value that answers 200; `key: false` marks the public document. */
const endpoints = (): Array<{ path: string; template: string; key: boolean }> => [
  { path: '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg', template: '/rankings', key: true },
  { path: '/divisions', template: '/divisions', key: true },
  { path: '/fighters', template: '/fighters', key: true },
  { path: `/fighters/${world.slugs.anna}`, template: '/fighters/{slug}', key: true },
  { path: '/events', template: '/events', key: true },
  { path: `/events/${world.events.world}`, template: '/events/{code}', key: true },
  { path: `/events/${world.events.world}/results`, template: '/events/{code}/results', key: true },
  { path: '/results', template: '/results', key: true },
  { path: `/verify/${world.numbers.activeLicence}`, template: '/verify/{number}', key: true },
  { path: '/me', template: '/me', key: true },
  { path: '/openapi.json', template: '/openapi.json', key: false },
];

const get = (path: string, headers: Record<string, string> = {}, key: string | null = BIG) => getPartner(t.app, path, key, headers);

/** HEAD, checked against the document like every GET. */
async function head(path: string, key: string | null = BIG, headers: Record<string, string> = {}): Promise<Response> {
  let req = request(t.app).head(`/api/v1${path}`);
  if (key) req = req.set('Authorization', `Bearer ${key}`);
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  const res = await req;
  partnerSpec.expectValid(res);
  return res;
}

const noBody = (res: Response) => res.text === undefined || res.text === '';

describe('X-Request-Id', () => {
  it('is on every answer: success, errors, 404 outside the API and health checks', async () => {
    const answers: Response[] = [
      await get('/divisions'),
      await get('/me', {}, null),
      await get('/fighters?page=0'),
      await get('/fighters/no-such-fighter'),
      await get('/openapi.json', {}, null),
      await request(t.app).post('/api/v1/rankings').set('Authorization', `Bearer ${BIG}`),
      await request(t.app).get('/api/v1/nope'),
      await request(t.app).get('/nope'),
      await request(t.app).get('/healthz'),
      await request(t.app).get('/readyz'),
      await head('/divisions'),
    ];
    const ids = answers.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes a well-formed id sent by the caller, and replaces a malformed one', async () => {
    const mine = 'req-2026-06-15_abc.DEF:42';
    expect((await get('/divisions', { 'X-Request-Id': mine })).headers['x-request-id']).toBe(mine);
    expect((await get('/me', { 'X-Request-Id': mine }, null)).headers['x-request-id']).toBe(mine);
    expect((await request(t.app).get('/healthz').set('X-Request-Id', mine)).headers['x-request-id']).toBe(mine);
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(200), '<script>alert(1)</script>', 'a;b=c,d"e']) {
      const res = await get('/divisions', { 'X-Request-Id': bad });
      expect([bad, res.headers['x-request-id']]).toEqual([bad, expect.stringMatching(UUID)]);
    }
  });
});

describe('ETag and conditional GET (docs/decisions.md#etags)', () => {
  it('puts an ETag on every 200 GET', async () => {
    for (const e of endpoints()) {
      const res = await get(e.path, {}, e.key ? BIG : null);
      expect([e.path, res.status]).toEqual([e.path, 200]);
      expect([e.path, res.headers.etag]).toEqual([e.path, expect.stringMatching(/^(W\/)?"[^"]+"$/)]);
    }
  });

  it('answers 304 with no body to a matching If-None-Match: exact, weak (W/) and in a list', async () => {
    // /me changes with every request (request_count), so it never matches; every other endpoint does.
    for (const e of endpoints().filter((x) => x.template !== '/me')) {
      const key = e.key ? BIG : null;
      const first = await get(e.path, {}, key);
      const tag = first.headers.etag;
      const weak = tag.startsWith('W/') ? tag : `W/${tag}`;
      for (const inm of [tag, weak, `"stale-tag", ${tag}`, `"a","b",${weak}`, '*']) {
        const res = await get(e.path, { 'If-None-Match': inm }, key);
        expect([e.path, inm, res.status]).toEqual([e.path, inm, 304]);
        expect(noBody(res)).toBe(true);
        expect(res.headers.etag).toBe(tag);
        expect(res.headers['x-request-id']).toMatch(UUID);
      }
      const stale = await get(e.path, { 'If-None-Match': '"stale-tag", W/"other"' }, key);
      expect([e.path, stale.status]).toEqual([e.path, 200]);
      expect(stale.body).toEqual(first.body);
      expect(stale.headers.etag).toBe(tag);
    }
  });

  it('gives different answers different tags and equal answers equal tags', async () => {
    const a = await get('/fighters?per_page=1');
    const b = await get('/fighters?per_page=2');
    const a2 = await get('/fighters?per_page=1&utm=ignored');
    expect(a.headers.etag).not.toBe(b.headers.etag);
    expect(a2.headers.etag).toBe(a.headers.etag);
    // A tag of one answer does not validate another.
    expect((await get('/fighters?per_page=2', { 'If-None-Match': a.headers.etag })).status).toBe(200);
  });

  it('answers an error to a conditional request for an error (no 304 for a 404 or 422)', async () => {
    const res = await get('/fighters/no-such-fighter', { 'If-None-Match': '*' });
    expect(res.status).toBe(404);
    expect((await get('/fighters?page=0', { 'If-None-Match': '*' })).status).toBe(422);
  });
});

describe('compression', () => {
  /** The answer as sent, its body undecoded (supertest would decode it). */
  async function raw(path: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
    const server = createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      return await new Promise((resolve, reject) => {
        httpGet(
          { port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: `/api/v1${path}`, headers: { authorization: `Bearer ${BIG}`, ...headers } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        ).on('error', reject);
      });
    } finally {
      server.close();
    }
  }

  it('sends a body of 1 KB or more gzip-encoded to a client that accepts it, with its own ETag; either ETag answers 304', async () => {
    const plain = await raw('/fighters?per_page=50', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const body = plain.body;
    expect(body.length).toBeGreaterThan(1024);
    const zipped = await raw('/fighters?per_page=50', { 'Accept-Encoding': 'gzip;q=1, identity;q=0.5' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(body.length / 3);
    expect(gunzipSync(zipped.body).equals(body)).toBe(true);
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    for (const tag of [plain.headers.etag!, zipped.headers.etag!]) {
      for (const encoding of ['gzip', 'identity']) {
        const res = await get('/fighters?per_page=50', { 'If-None-Match': tag, 'Accept-Encoding': encoding });
        expect([tag, encoding, res.status]).toEqual([tag, encoding, 304]);
      }
    }
  });

  it('sends identity when gzip is refused or not offered, and small bodies as they are', async () => {
    for (const encoding of ['gzip;q=0', 'br', 'identity']) {
      expect((await raw('/fighters?per_page=50', { 'Accept-Encoding': encoding })).headers['content-encoding']).toBeUndefined();
    }
    const small = await raw('/me', { 'Accept-Encoding': 'gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('HEAD', () => {
  it('answers wherever GET does, with the same status and headers and no body', async () => {
    // the same request headers for both (superagent sends Accept-Encoding with GET only)
    const encoding = { 'Accept-Encoding': 'gzip, deflate' };
    for (const e of endpoints()) {
      const key = e.key ? BIG : null;
      const g = await get(e.path, encoding, key);
      const h = await head(e.path, key, encoding);
      expect([e.path, h.status]).toEqual([e.path, g.status]);
      expect(noBody(h)).toBe(true);
      expect(h.headers['content-type']).toBe(g.headers['content-type']);
      if (e.template !== '/me') {
        expect([e.path, h.headers.etag]).toEqual([e.path, g.headers.etag]);
        expect(h.headers['content-length']).toBe(g.headers['content-length']);
      }
      if (e.key) expect(h.headers['x-ratelimit-limit']).toBe(g.headers['x-ratelimit-limit']);
    }
  });

  it('answers the same errors as GET', async () => {
    const cases: Array<[string, string | null, number]> = [
      ['/me', null, 401],
      ['/me', KEYS.revoked, 401],
      ['/fighters', KEYS.rankings, 403],
      ['/fighters/no-such-fighter', BIG, 404],
      ['/fighters?page=0', BIG, 422],
      ['/verify/not-a-number', BIG, 422],
    ];
    for (const [path, key, status] of cases) {
      const g = await get(path, {}, key);
      const h = await head(path, key);
      expect([path, g.status, h.status]).toEqual([path, status, status]);
      expect(noBody(h)).toBe(true);
      if (status === 401) expect(h.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    const res = await request(t.app).head('/api/v1/nope');
    expect(res.status).toBe(404);
  });

  it('answers 304 to a matching conditional HEAD', async () => {
    const g = await get('/divisions');
    const h = await head('/divisions', BIG, { 'If-None-Match': g.headers.etag });
    expect(h.status).toBe(304);
  });
});

describe('write methods', () => {
  const writes = ['post', 'put', 'patch', 'delete'] as const;
  const attempts = () => ({
    '/rankings': { data: [{ rank: 1, points: 99999, fighter: { slug: world.slugs.dora } }] },
    '/divisions': { discipline: 'boxing', category: 'pro', gender: 'm', weight_class: '67kg' },
    '/fighters': { name: 'Injected Fighter', country: 'germany' },
    [`/fighters/${world.slugs.anna}`]: { points: 99999, status: 'suspended', licence_status: 'suspended', ranking_published: false },
    '/events': { name: 'Fake Gala', date: '2026-06-20', level: 'world' },
    [`/events/${world.events.world}`]: { level: 'national', status: 'cancelled' },
    [`/events/${world.events.world}/results`]: { fighter: world.slugs.dora, result: 'W', points: { total: 1000 } },
    '/results': { event: world.events.world, winner: world.slugs.dora, loser: world.slugs.anna },
    [`/verify/${world.numbers.suspendedLicence}`]: { status: 'ACTIVE', valid: true },
    '/me': { rate_limit_per_minute: 1_000_000_000, scopes: ['admin'], request_count: 0 },
    '/openapi.json': { info: { version: '9.9.9' } },
  });

  /** What a partner can read, with /me's request_count (which every request moves) set aside. */
  async function snapshot(): Promise<unknown[]> {
    const paths = [
      ...endpoints().map((e) => e.path),
      `/verify/${world.numbers.suspendedLicence}`,
      `/fighters/${world.slugs.dora}`,
      '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg&scope=germany',
    ];
    const out: unknown[] = [];
    for (const path of paths) {
      const res = await get(path, {}, path === '/openapi.json' ? null : BIG);
      expect([path, res.status]).toEqual([path, 200]);
      const body = structuredClone(res.body);
      if (path === '/me') delete body.data.request_count;
      out.push([path, body]);
    }
    return out;
  }

  it('answers 405 method_not_allowed with Allow: GET, HEAD to POST, PUT, PATCH and DELETE on every path, and changes nothing', async () => {
    const before = await snapshot();
    const meBefore = (await get('/me')).body.data;
    for (const [path, body] of Object.entries(attempts())) {
      for (const method of writes) {
        for (const key of [BIG, null]) {
          let req = request(t.app)[method](`/api/v1${path}`).set('Content-Type', 'application/json');
          if (key) req = req.set('Authorization', `Bearer ${key}`);
          const res = await req.send(JSON.stringify(body));
          partnerSpec.expectValid(res);
          expect([method, path, res.status, res.body.error]).toEqual([method, path, 405, 'method_not_allowed']);
          expect(res.headers.allow).toBe('GET, HEAD');
          expect(typeof res.body.message).toBe('string');
          expect(res.headers['content-type']).toMatch(/^application\/json/);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
    const meAfter = (await get('/me')).body.data;
    expect(meAfter.rate_limit_per_minute).toBe(meBefore.rate_limit_per_minute);
    expect(meAfter.scopes).toEqual(meBefore.scopes);
    expect(meAfter.request_count).toBeGreaterThan(meBefore.request_count);
  });

  it('answers 405 whatever the body: form data, garbage JSON and a huge body', async () => {
    const form = await request(t.app).post('/api/v1/rankings').set('Authorization', `Bearer ${BIG}`).type('form').send({ points: '1000' });
    const broken = await request(t.app)
      .patch(`/api/v1/fighters/${world.slugs.anna}`)
      .set('Authorization', `Bearer ${BIG}`)
      .set('Content-Type', 'application/json')
      .send('{"points": ');
    const huge = await request(t.app)
      .put('/api/v1/me')
      .set('Authorization', `Bearer ${BIG}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ x: 'a'.repeat(200_000) }));
    for (const res of [form, broken, huge]) {
      expect([res.status, res.body.error, res.headers.allow]).toEqual([405, 'method_not_allowed', 'GET, HEAD']);
    }
  });
});

describe('unknown paths', () => {
  it.each([
    '/api/v1/nope',
    '/api/v1',
    '/api/v1/',
    '/api/v1/ranking',
    '/api/v1/fighters/a/b',
    '/api/v1/events/x/results/y',
    '/api/v1/verify',
    '/api/v1/admin',
    '/api/v1/me/keys',
    '/api/v1/openapi.yaml',
    '/api/v2/rankings',
    '/api',
    '/',
    '/favicon.ico',
    '/index.html',
    '/.env',
  ])('answers 404 not_found as JSON, never HTML: %s', async (path) => {
    for (const key of [BIG, null]) {
      let req = request(t.app).get(path).set('Accept', 'text/html,application/xhtml+xml');
      if (key) req = req.set('Authorization', `Bearer ${key}`);
      const res = await req;
      expect([path, res.status, res.body.error]).toEqual([path, 404, 'not_found']);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof res.body.message).toBe('string');
      expect(res.text).not.toMatch(/<html|<!DOCTYPE|<pre>/i);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('answers 404 JSON to write methods on unknown paths too', async () => {
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const res = await request(t.app)[method]('/api/v1/nope').send({ a: 1 });
      expect([method, res.status, res.body.error]).toEqual([method, 404, 'not_found']);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('/api/v1/openapi.json', () => {
  it('is served without a key and equals schema/openapi.json', async () => {
    const res = await get('/openapi.json', {}, null);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
    expect(res.body.openapi).toBe('3.0.3');
    expect(res.body.info.version).toBe('1.1.0');
  });

  it('is served the same with a key, even a bad one', async () => {
    const open = await get('/openapi.json', {}, null);
    for (const key of [BIG, KEYS.revoked, 'pk_garbage']) {
      const res = await get('/openapi.json', {}, key);
      expect([key, res.status]).toEqual([key, 200]);
      expect(res.body).toEqual(open.body);
    }
  });
});

describe('health checks', () => {
  it('answer 200 on /healthz and /readyz', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await request(t.app).get(path);
      const body = path === '/healthz' ? { status: 'ok' } : { status: 'ready', checks: { database: 'ok', rate_limiter: 'ok' } };
      expect([path, res.status, res.body]).toEqual([path, 200, body]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});
