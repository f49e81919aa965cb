import { operator } from '../../../src/domain/channels/channel-access';
import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * The public schedule (docs/decisions.md#public-schedules): what is listed on /live, /upcoming, /channels and
 * /channels/{slug}, what /broadcasts/{slug} shows, pagination like the partner API, CORS.
 */

let t: TestApp;
let tv: TvClient;
const B: Record<string, Record<string, any>> = {};
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  const make = async (name: string, key: string, fields: Record<string, unknown>, live = false) => {
    B[name] = await tv.create(key, aBroadcast({ title: name, ...fields }));
    if (live) B[name] = (await tv.expectStatus(tv.post(`/broadcasts/${B[name].id}/go-live`, key), 200)).body.data;
  };
  // fight-tv: upcoming in scheduled_at order c, a, b; live ones started in order pubLive, ppvLive
  await make('upPublicA', CK.rw, { scheduled_at: '2030-01-02T10:00:00Z' });
  await make('upPublicB', CK.rw, { scheduled_at: '2030-01-03T10:00:00Z' });
  await make('upFollowersC', CK.rw, {
    scheduled_at: '2030-01-01T10:00:00Z',
    visibility: 'followers',
    source: 'mp4',
    source_url: 'https://cdn.example/secret.mp4',
  });
  await make('upUnlisted', CK.rw, { scheduled_at: '2029-12-31T10:00:00Z', visibility: 'unlisted' });
  await make('pubLive', CK.rw, {}, true);
  await make('ppvLive', CK.rw, { visibility: 'ppv', source: 'hls', source_url: 'https://cdn.example/ppv/secret.m3u8' }, true);
  await make('unlistedLive', CK.rw, { visibility: 'unlisted' }, true);
  // a ppv replay
  await make('ppvReplay', CK.other, { visibility: 'ppv', source: 'vimeo', source_url: 'https://vimeo.com/555555555' }, true);
  await tv.expectStatus(tv.post(`/broadcasts/${B.ppvReplay.id}/end`, CK.other), 200);
  // the unapproved channel schedules and even goes live: none of it is public
  await make('hiddenUp', CK.unapproved, {});
  await make('hiddenLive', CK.unapproved, {}, true);
});
afterAll(() => t?.close());

const ids = (list: { id: string }[]) => list.map((b) => b.id);

describe('/upcoming', () => {
  it('lists scheduled broadcasts of approved channels, soonest first, never unlisted ones', async () => {
    const res = await tv.expectStatus(tv.get('/upcoming'), 200);
    expect(ids(res.body.data)).toEqual([B.upFollowersC.id, B.upPublicA.id, B.upPublicB.id]);
    expect(res.body.meta).toEqual({ page: 1, per_page: 25, total: 3, last_page: 1 });
  });

  it('shows followers and ppv broadcasts locked, without their source_url', async () => {
    const res = await tv.expectStatus(tv.get('/upcoming'), 200);
    const [followers, pub] = res.body.data;
    expect(followers).toMatchObject({ visibility: 'followers', locked: true, source_url: null, replay_url: null, title: 'upFollowersC' });
    expect(pub).toMatchObject({ visibility: 'public', locked: false, source_url: B.upPublicA.source_url });
    expect(res.text).not.toContain('secret.mp4');
  });
});

describe('/live', () => {
  it('lists live broadcasts, latest start first, ppv locked; never unlisted or unapproved ones', async () => {
    const res = await tv.expectStatus(tv.get('/live'), 200);
    expect(ids(res.body.data).sort()).toEqual([B.pubLive.id, B.ppvLive.id].sort());
    expect(res.body.meta).toEqual({ page: 1, per_page: 25, total: 2, last_page: 1 });
    const ppv = res.body.data.find((b: { id: string }) => b.id === B.ppvLive.id);
    expect(ppv).toMatchObject({ locked: true, source_url: null, state: 'live', channel: { slug: 'fight-tv', name: 'Fight TV' } });
    expect(res.text).not.toContain('secret.m3u8');
    expect(Date.parse(res.body.data[0].started_at)).toBeGreaterThanOrEqual(Date.parse(res.body.data[1].started_at));
  });
});

describe('/broadcasts/{slug}', () => {
  it('an unlisted broadcast is reachable by its slug, unlocked', async () => {
    const res = await tv.expectStatus(tv.get(`/broadcasts/${B.upUnlisted.slug}`), 200);
    expect(res.body.data).toMatchObject({ id: B.upUnlisted.id, visibility: 'unlisted', locked: false, source_url: B.upUnlisted.source_url });
  });

  it('followers and ppv are locked, also as replays (no replay_url)', async () => {
    for (const name of ['upFollowersC', 'ppvLive']) {
      const res = await tv.expectStatus(tv.get(`/broadcasts/${B[name].slug}`), 200);
      expect(res.body.data).toMatchObject({ locked: true, source_url: null, replay_url: null });
    }
    const replay = await tv.expectStatus(tv.get(`/broadcasts/${B.ppvReplay.slug}`), 200);
    expect(replay.body.data).toMatchObject({ state: 'replay', locked: true, source_url: null, replay_url: null });
    expect(replay.text).not.toContain('555555555');
  });

  it("an unapproved channel's broadcasts are not found", async () => {
    for (const name of ['hiddenUp', 'hiddenLive']) {
      const res = await tv.get(`/broadcasts/${B[name].slug}`);
      expect([name, res.status, res.body.error]).toEqual([name, 404, 'not_found']);
    }
  });
});

describe('/channels', () => {
  it('lists approved channels only, with counts of listed broadcasts', async () => {
    const res = await tv.expectStatus(tv.get('/channels'), 200);
    expect(res.body.data.map((c: { slug: string }) => c.slug)).toEqual(['fight-tv', 'garage-tv', 'late-tv', 'rival-tv']);
    expect(res.body.meta).toEqual({ page: 1, per_page: 25, total: 4, last_page: 1 });
    expect(res.body.data[0]).toEqual({ slug: 'fight-tv', name: 'Fight TV', live_count: 2, upcoming_count: 3 });
    expect(res.body.data[3]).toEqual({ slug: 'rival-tv', name: 'Rival TV', live_count: 0, upcoming_count: 0 });
  });

  it("/channels/{slug}: the channel's live, upcoming and replays, never unlisted ones", async () => {
    const res = await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
    const d = res.body.data;
    expect(d).toMatchObject({ slug: 'fight-tv', name: 'Fight TV' });
    expect(ids(d.live).sort()).toEqual([B.pubLive.id, B.ppvLive.id].sort());
    expect(ids(d.upcoming)).toEqual([B.upFollowersC.id, B.upPublicA.id, B.upPublicB.id]);
    expect(d.replays).toEqual([]);
    expect(d.live.find((b: { id: string }) => b.id === B.ppvLive.id)).toMatchObject({ locked: true, source_url: null });
    const rival = await tv.expectStatus(tv.get('/channels/rival-tv'), 200);
    expect(rival.body.data.replays).toHaveLength(1);
    expect(rival.body.data.replays[0]).toMatchObject({ id: B.ppvReplay.id, locked: true, replay_url: null });
  });

  it("an unapproved channel's own key sees it is not approved", async () => {
    const me = await tv.expectStatus(tv.get('/me', CK.unapproved), 200);
    expect(me.body.data.channel).toMatchObject({ slug: 'new-tv', approved: false, live_slots: { used: 1, total: 3 } });
    expect(me.body.data.broadcasts.map((b: { id: string }) => b.id).sort()).toEqual([B.hiddenUp.id, B.hiddenLive.id].sort());
  });

  it('an unapproved or unknown channel is 404', async () => {
    for (const slug of ['new-tv', 'no-such-tv']) {
      const res = await tv.get(`/channels/${slug}`);
      expect([slug, res.status, res.body.error]).toEqual([slug, 404, 'not_found']);
    }
  });

  it('once approved, the channel and its broadcasts appear', async () => {
    await t.c.services.channels.approve(operator({ id: 'test' }), 'new-tv');
    try {
      expect((await tv.expectStatus(tv.get('/channels/new-tv'), 200)).body.data.live.map((b: { id: string }) => b.id)).toEqual([B.hiddenLive.id]);
      expect(ids((await tv.expectStatus(tv.get('/live'), 200)).body.data)).toContain(B.hiddenLive.id);
    } finally {
      await t.c.orm.em.getConnection().execute(`update channel set approved_at = null where slug = 'new-tv'`);
    }
    expect((await tv.get('/channels/new-tv')).status).toBe(404);
    expect(ids((await tv.expectStatus(tv.get('/live'), 200)).body.data)).not.toContain(B.hiddenLive.id);
  });
});

describe('pagination', () => {
  it('/upcoming pages through the list with true meta; a page past the end is empty', async () => {
    const p1 = await tv.expectStatus(tv.get('/upcoming?per_page=2'), 200);
    expect(p1.body.meta).toEqual({ page: 1, per_page: 2, total: 3, last_page: 2 });
    const p2 = await tv.expectStatus(tv.get('/upcoming?per_page=2&page=2'), 200);
    expect(p2.body.meta).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2 });
    expect([...ids(p1.body.data), ...ids(p2.body.data)]).toEqual([B.upFollowersC.id, B.upPublicA.id, B.upPublicB.id]);
    const p9 = await tv.expectStatus(tv.get('/upcoming?per_page=2&page=9'), 200);
    expect(p9.body).toEqual({ meta: { page: 9, per_page: 2, total: 3, last_page: 2 }, data: [] });
  });

  it('query parameters named like Object.prototype members are ordinary unknown parameters', async () => {
    const res = await tv.expectStatus(tv.get('/upcoming?__proto__=x&constructor=a&constructor=b&toString=1&per_page=2'), 200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 2, total: 3, last_page: 2 });
  });

  it('/live and /channels too', async () => {
    const live = await tv.expectStatus(tv.get('/live?per_page=1&page=2'), 200);
    expect(live.body.meta).toEqual({ page: 2, per_page: 1, total: 2, last_page: 2 });
    expect(live.body.data).toHaveLength(1);
    const channels = await tv.expectStatus(tv.get('/channels?per_page=3&page=2'), 200);
    expect(channels.body.meta).toEqual({ page: 2, per_page: 3, total: 4, last_page: 2 });
    expect(channels.body.data.map((c: { slug: string }) => c.slug)).toEqual(['rival-tv']);
  });

  it('bad paging parameters are 422 invalid_page / invalid_per_page', async () => {
    for (const path of ['/live', '/upcoming', '/channels']) {
      for (const [q, error] of [
        ['page=0', 'invalid_page'],
        ['page=abc', 'invalid_page'],
        ['page=1&page=2', 'invalid_page'],
        ['per_page=0', 'invalid_per_page'],
        ['per_page=101', 'invalid_per_page'],
        ['per_page=-1', 'invalid_per_page'],
      ]) {
        const res = await tv.get(`${path}?${q}`);
        expect([path, q, res.status, res.body.error]).toEqual([path, q, 422, error]);
      }
    }
    // unknown parameters are ignored
    await tv.expectStatus(tv.get('/live?sort=title'), 200);
  });
});

describe('CORS and caching', () => {
  it('every public answer carries Access-Control-Allow-Origin, errors included', async () => {
    for (const path of [
      '/live',
      '/upcoming',
      '/channels',
      '/channels/fight-tv',
      `/broadcasts/${B.upPublicA.slug}`,
      '/channels/new-tv',
      '/live?page=0',
      '/openapi.json',
    ]) {
      const res = await tv.call('GET', path, { headers: { Origin: 'https://fans.example' } });
      expect([path, res.headers['access-control-allow-origin']]).toEqual([path, '*']);
    }
    const live = await tv.call('GET', '/live', { headers: { Origin: 'https://fans.example' } });
    expect(live.headers['access-control-expose-headers']).toMatch(/ETag/i);
  });

  it('a browser preflight (for If-None-Match) is answered, for GET only', async () => {
    for (const path of ['/live', '/upcoming', '/channels', '/channels/fight-tv', `/broadcasts/${B.upPublicA.slug}`]) {
      const res = await request(t.app)
        .options(`/api/tv${path}`)
        .set('Origin', 'https://fans.example')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'if-none-match');
      expect([path, res.status]).toEqual([path, 204]);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toMatch(/GET/);
      expect(res.headers['access-control-allow-methods']).not.toMatch(/PATCH|POST/);
      expect(res.headers['access-control-allow-headers']).toMatch(/if-none-match/i);
    }
  });

  it('channel endpoints are not opened to browsers', async () => {
    const res = await tv.call('GET', '/me', { key: CK.ro, headers: { Origin: 'https://fans.example' } });
    expect(res.status).toBe(200);
    expect(res.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('public answers carry an ETag and answer 304 to a matching If-None-Match', async () => {
    for (const path of ['/live', '/upcoming', '/channels', '/channels/fight-tv', `/broadcasts/${B.upPublicA.slug}`]) {
      const first = await tv.expectStatus(tv.get(path), 200);
      expect(first.headers.etag).toBeTruthy();
      const again = await tv.get(path, null, { 'If-None-Match': first.headers.etag });
      expect([path, again.status, again.text ?? '']).toEqual([path, 304, '']);
    }
  });
});
