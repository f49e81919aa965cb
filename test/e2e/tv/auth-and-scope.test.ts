import request from 'supertest';
import { operator } from '../../../src/domain/channels/channel-access';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK, type TvWorld } from '../../helpers/tv-world';

/**
 * Channel keys on /api/tv (docs/decisions.md#keys): 401 for no key, a malformed
 * header, a key of another door, an unknown or revoked key; 403 insufficient_scope; checks in the
 * order key, rate limit, scope, body.
 */

const actor = { id: 'test' };
let t: TestApp;
let tv: TvClient;
let world: TvWorld;
let scheduled: Record<string, any>;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  world = await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  scheduled = await tv.create(CK.rw);
});
afterAll(() => t?.close());

const CHANNEL_ENDPOINTS = (id: string): [method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown][] => [
  ['GET', '/me'],
  ['GET', `/broadcasts/${id}/health`],
  ['POST', '/broadcasts', { title: 'x', source: 'youtube', source_url: 'https://youtu.be/dQw4w9WgXcQ', scheduled_at: '2030-01-01T00:00:00Z' }],
  ['PATCH', `/broadcasts/${id}`, { title: 'Hijacked' }],
  ['POST', `/broadcasts/${id}/go-live`],
  ['POST', `/broadcasts/${id}/end`],
  ['POST', `/broadcasts/${id}/rotate-stream-key`],
];

async function expect401(opts: { key?: string; headers?: Record<string, string> }, error: 'unauthenticated' | 'invalid_key') {
  for (const [method, path, body] of CHANNEL_ENDPOINTS(scheduled.id)) {
    const res = await tv.call(method, path, { key: opts.key, headers: opts.headers, body });
    expect([method, path, res.status, res.body.error]).toEqual([method, path, 401, error]);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers).not.toHaveProperty('x-ratelimit-limit');
  }
}

describe('401', () => {
  it('no key: unauthenticated on every channel endpoint', async () => {
    await expect401({}, 'unauthenticated');
  });

  it('an Authorization header that is not "Bearer <key>": unauthenticated', async () => {
    await expect401({ headers: { Authorization: `Basic ${Buffer.from(`${CK.rw}:`).toString('base64')}` } }, 'unauthenticated');
    await expect401({ headers: { Authorization: CK.rw } }, 'unauthenticated');
    await expect401({ headers: { Authorization: 'Bearer' } }, 'unauthenticated');
  });

  it('X-API-Key is not a door of the TV API', async () => {
    await expect401({ headers: { 'X-API-Key': CK.rw } }, 'unauthenticated');
  });

  it('a partner key (pk_), even a valid one, is invalid_key here; a channel key is invalid_key on the partner API', async () => {
    await t.c.services.partners.create(actor, { slug: 'acme-media', name: 'Acme Media' });
    const { token } = await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'k',
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    });
    expect(token).toMatch(/^pk_/);
    expect((await getPartner(t.app, '/me', token)).status).toBe(200);
    await expect401({ key: token }, 'invalid_key');
    const onPartnerApi = await getPartner(t.app, '/me', CK.rw);
    expect([onPartnerApi.status, onPartnerApi.body.error]).toEqual([401, 'invalid_key']);
  });

  it('an unknown channel key: invalid_key', async () => {
    await expect401({ key: 'ck_unknownunknownunknownunknownunknown1234' }, 'invalid_key');
    await expect401({ key: 'ck_test_rw_' }, 'invalid_key');
  });

  it('a revoked key stops working at once: invalid_key', async () => {
    const { key, token } = await t.c.services.channels.createKey(operator(actor), {
      channelId: world.channelIds.pro,
      name: 'short-lived',
      scopes: ['read', 'broadcasts:write'],
    });
    expect(token).toMatch(/^ck_[A-Za-z0-9]{40}$/);
    await tv.expectStatus(tv.get('/me', token), 200);
    await t.c.services.channels.revokeKey(operator(actor), world.channelIds.pro, key.id);
    await expect401({ key: token }, 'invalid_key');
    // the channel's other keys are untouched
    await tv.expectStatus(tv.get('/me', CK.rw), 200);
  });

  it('nothing was changed by any refused request', async () => {
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.broadcasts).toHaveLength(1);
    expect(me.body.data.broadcasts[0]).toMatchObject({ id: scheduled.id, title: scheduled.title, state: 'scheduled' });
  });
});

describe('403 insufficient_scope', () => {
  it('a read-only key cannot write, and nothing changes', async () => {
    const writes = CHANNEL_ENDPOINTS(scheduled.id).filter(([m]) => m !== 'GET');
    for (const [method, path, body] of writes) {
      const res = await tv.call(method, path, { key: CK.ro, body });
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 403, 'insufficient_scope']);
      expect(res.body.message).toMatch(/broadcasts:write/);
    }
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.key).toEqual({ name: 'dashboard', prefix: expect.any(String), scopes: ['read'] });
    expect(me.body.data.broadcasts).toHaveLength(1);
    expect(me.body.data.broadcasts[0]).toMatchObject({ title: scheduled.title, state: 'scheduled' });
  });

  it('a write-only key cannot read /me or health', async () => {
    const { token } = await t.c.services.channels.createKey(operator(actor), { channelId: world.channelIds.pro, name: 'writer', scopes: ['broadcasts:write'] });
    for (const path of ['/me', `/broadcasts/${scheduled.id}/health`]) {
      const res = await tv.get(path, token);
      expect([path, res.status, res.body.error]).toEqual([path, 403, 'insufficient_scope']);
    }
    const b = await tv.create(token);
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, token, { title: 'Written' }), 200);
  });

  it('the scope is checked before the body: a read-only key with a bad or non-JSON body is 403', async () => {
    const bad = await tv.call('POST', '/broadcasts', { key: CK.ro, raw: '{"title":' });
    expect([bad.status, bad.body.error]).toEqual([403, 'insufficient_scope']);
    const text = await tv.call('POST', '/broadcasts', { key: CK.ro, raw: 'hello', type: 'text/plain' });
    expect([text.status, text.body.error]).toEqual([403, 'insufficient_scope']);
    const noKey = await tv.call('POST', '/broadcasts', { raw: 'hello', type: 'text/plain' });
    expect([noKey.status, noKey.body.error]).toEqual([401, 'unauthenticated']);
  });
});

describe('404 for what the key cannot see', () => {
  const ops = (id: string): [method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown][] => [
    ['GET', `/broadcasts/${id}/health`],
    ['PATCH', `/broadcasts/${id}`, { title: 'Not mine' }],
    ['POST', `/broadcasts/${id}/go-live`],
    ['POST', `/broadcasts/${id}/end`],
    ['POST', `/broadcasts/${id}/rotate-stream-key`],
  ];

  it('an unknown id, a malformed id', async () => {
    for (const id of ['5b0c5c6e-1c7b-4a39-9d8e-000000000000', 'not-a-uuid', '12345', scheduled.slug]) {
      for (const [method, path, body] of ops(id)) {
        const res = await tv.call(method, path, { key: CK.rw, body });
        expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'not_found']);
      }
    }
  });

  it("another channel's broadcast with a valid key of that other channel, indistinguishable from an unknown one", async () => {
    const unknown = await tv.call('POST', '/broadcasts/5b0c5c6e-1c7b-4a39-9d8e-000000000000/go-live', { key: CK.other });
    for (const [method, path, body] of ops(scheduled.id)) {
      const res = await tv.call(method, path, { key: CK.other, body });
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'not_found']);
      expect(res.body.message).toBe(unknown.body.message);
    }
    // and it did nothing to the broadcast
    const me = await tv.expectStatus(tv.get('/me', CK.rw), 200);
    expect(me.body.data.broadcasts.find((b: { id: string }) => b.id === scheduled.id)).toMatchObject({ title: scheduled.title, state: 'scheduled' });
    // its own /me never shows the other channel's broadcasts
    const other = await tv.expectStatus(tv.get('/me', CK.other), 200);
    expect(other.body.data.channel.slug).toBe('rival-tv');
    expect(other.body.data.broadcasts.map((b: { id: string }) => b.id)).not.toContain(scheduled.id);
  });

  it('the public page of an unknown slug; an unknown path is a JSON 404, never HTML', async () => {
    const res = await tv.get('/broadcasts/no-such-broadcast');
    expect([res.status, res.body.error]).toEqual([404, 'not_found']);
    const path = await request(t.app).get('/api/tv/nothing-here');
    expect(path.status).toBe(404);
    expect(path.headers['content-type']).toMatch(/json/);
    expect(path.body.error).toBe('not_found');
  });
});

describe('405', () => {
  it('an unsupported method says which are allowed', async () => {
    const put = await tv.call('PUT', `/broadcasts/${scheduled.id}`, { key: CK.rw, body: { title: 'x' } });
    expect([put.status, put.body.error]).toEqual([405, 'method_not_allowed']);
    expect(put.headers.allow).toBe('GET, HEAD, PATCH');
    expect(put.body.message).not.toMatch(/partner/i);
    const del = await tv.call('DELETE', `/broadcasts/${scheduled.id}`, { key: CK.rw });
    expect(del.status).toBe(405);
    const getGoLive = await tv.call('GET', `/broadcasts/${scheduled.id}/go-live`, { key: CK.rw });
    expect([getGoLive.status, getGoLive.headers.allow]).toEqual([405, 'POST']);
  });
});
