import { startTestApp, type TestApp } from '../../helpers/test-app';
import { operator } from '../../../src/domain/channels/channel-access';
import { INGEST_SECRET, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK, type TvWorld } from '../../helpers/tv-world';

/**
 * Public endpoints allow 60 requests per minute per client IP, channel keys 120 per key; over the
 * limit 429 rate_limited with Retry-After in whole seconds. 304s do not count. The limiter runs on
 * the test's clock (t.limiterClock), which stands still unless moved: nothing here depends on
 * where in a minute the test happens to run.
 */

const num = (v: unknown) => Number(v);

describe('behind a trusted proxy (TRUST_PROXY): the client IP is the X-Forwarded-For one', () => {
  let t: TestApp;
  let tv: TvClient;
  let slug: string;
  let world: TvWorld;
  beforeAll(async () => {
    t = await startTestApp({ env: TV_ENV });
    world = await buildTvWorld(t.c);
    tv = new TvClient(t.app);
    slug = (await tv.create(CK.rw)).slug;
  });
  afterAll(() => t?.close());

  it('public: 60 requests from one IP over all public endpoints, the 61st is 429 with Retry-After; another IP is unaffected', async () => {
    const ip = '203.0.113.7';
    const paths = ['/live', '/upcoming', '/channels', '/channels/fight-tv', `/broadcasts/${slug}`, '/live?page=2', '/upcoming?per_page=5'];
    for (let i = 0; i < 60; i++) {
      const res = await tv.call('GET', paths[i % paths.length], { ip });
      expect([i, res.status]).toEqual([i, 200]);
      expect(num(res.headers['x-ratelimit-limit'])).toBe(60);
      expect(num(res.headers['x-ratelimit-remaining'])).toBe(59 - i);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    // All 60 were admitted within the same second: the 61st fits when that second leaves the
    // window, 61 seconds on (the limiter counts whole seconds, never less than a full minute).
    t.limiterClock.advance(30_000);
    for (const path of ['/live', '/channels', `/broadcasts/${slug}`]) {
      const res = await tv.call('GET', path, { ip });
      expect([path, res.status, res.body.error]).toEqual([path, 429, 'rate_limited']);
      expect(res.headers['retry-after']).toBe('31');
      expect(num(res.headers['x-ratelimit-remaining'])).toBe(0);
      expect(num(res.headers['x-ratelimit-reset'])).toBe(t.limiterClock.seconds() + 31);
      // a browser app can read why it was refused
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    const other = await tv.call('GET', '/live', { ip: '203.0.113.8' });
    expect(other.status).toBe(200);
    expect(num(other.headers['x-ratelimit-remaining'])).toBe(59);
    // Once the minute has passed the IP has its whole budget back, minus this request.
    t.limiterClock.advance(31_000);
    const later = await tv.call('GET', '/live', { ip });
    expect([later.status, num(later.headers['x-ratelimit-remaining'])]).toEqual([200, 59]);
  });

  it('the public budget is not the channel key budget: a key still works from an exhausted IP', async () => {
    const res = await tv.call('GET', '/me', { key: CK.ro, ip: '203.0.113.7' });
    expect(res.status).toBe(200);
    expect(num(res.headers['x-ratelimit-limit'])).toBe(120);
  });

  it('a channel key: 120 requests, the 121st is 429 (on any endpoint, before scope and body checks); another key is unaffected', async () => {
    const mk = async (name: string) =>
      (await t.c.services.channels.createKey(operator({ id: 'test' }), { channelId: world.channelIds.pro, name, scopes: ['read', 'broadcasts:write'] })).token;
    const [key, sibling] = [await mk('busy'), await mk('sibling')];
    const first = await tv.expectStatus(tv.get('/me', key), 200);
    expect(num(first.headers['x-ratelimit-limit'])).toBe(120);
    expect(num(first.headers['x-ratelimit-remaining'])).toBe(119);
    // a 304 is free
    const etag = first.headers.etag;
    for (let i = 0; i < 3; i++) {
      const nm = await tv.call('GET', '/me', { key, headers: { 'If-None-Match': etag } });
      expect(nm.status).toBe(304);
      expect(num(nm.headers['x-ratelimit-remaining'])).toBe(119);
    }
    for (let i = 1; i < 120; i++) {
      const res = i % 2 ? await tv.get('/me', key) : await tv.post('/broadcasts/00000000-0000-4000-8000-000000000000/end', key);
      expect([i, res.status]).toEqual([i, i % 2 ? 200 : 404]);
      expect(num(res.headers['x-ratelimit-remaining'])).toBe(119 - i);
    }
    const over = await tv.get('/me', key);
    expect([over.status, over.body.error]).toEqual([429, 'rate_limited']);
    expect(over.headers['retry-after']).toBe('61');
    const write = await tv.call('POST', '/broadcasts', { key, raw: '{"broken', type: 'application/json' });
    expect([write.status, write.body.error]).toEqual([429, 'rate_limited']);
    const other = await tv.get('/me', sibling);
    expect(other.status).toBe(200);
    expect(num(other.headers['x-ratelimit-remaining'])).toBe(119);
  });
});

describe('without a trusted proxy, X-Forwarded-For is ignored', () => {
  let t: TestApp;
  let tv: TvClient;
  beforeAll(async () => {
    t = await startTestApp({ env: { INGEST_SECRET } });
    tv = new TvClient(t.app);
  });
  afterAll(() => t?.close());

  it('a client cannot buy a fresh budget by inventing addresses', async () => {
    for (let i = 0; i < 60; i++) {
      const res = await tv.call('GET', i % 2 ? '/live' : '/upcoming', { ip: `198.51.100.${i}` });
      expect([i, res.status]).toEqual([i, 200]);
    }
    const res = await tv.call('GET', '/live', { ip: '198.51.100.200' });
    expect([res.status, res.body.error]).toEqual([429, 'rate_limited']);
    expect(res.headers['retry-after']).toBe('61');
  });
});

describe('behind one proxy hop (TRUST_PROXY=1): only the address the proxy appended counts', () => {
  let t: TestApp;
  let tv: TvClient;
  beforeAll(async () => {
    t = await startTestApp({ env: { INGEST_SECRET, TRUST_PROXY: '1', TV_PUBLIC_PER_MINUTE: '2' } });
    tv = new TvClient(t.app);
  });
  afterAll(() => t?.close());

  // The test's own connection plays the proxy; the proxy appends the real client (the last entry)
  // to whatever X-Forwarded-For the client sent.
  it('a client sending its own X-Forwarded-For entries is still limited, on the fast path and in express', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const spoofed = `198.51.100.${i}, 10.9.${i}.1`;
      const res = await tv.call('GET', i % 2 ? '/channels' : '/live', { ip: `${spoofed}, 203.0.113.99` });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.error).toBe('rate_limited');
    }
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    // the real client next door has its own budget
    expect((await tv.call('GET', '/live', { ip: '198.51.100.0, 203.0.113.100' })).status).toBe(200);
  });
});
