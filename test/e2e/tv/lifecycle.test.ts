import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, ingest, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * The whole life of a broadcast as a channel's automation sees it (docs/decisions.md#broadcast, docs/decisions.md#broadcast-states, docs/decisions.md#broadcast-edit): create,
 * edit in each state, go live, health, end, replay; for an external source and for ingest.
 */

let t: TestApp;
let tv: TvClient;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
});
afterAll(() => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIELDS = [
  'id',
  'slug',
  'channel',
  'title',
  'source',
  'source_url',
  'scheduled_at',
  'started_at',
  'ended_at',
  'state',
  'visibility',
  'discipline',
  'language',
  'tags',
  'replay_url',
  'created_at',
  'updated_at',
];

async function publicView(slug: string) {
  return (await tv.expectStatus(tv.get(`/broadcasts/${slug}`), 200)).body.data;
}

describe('an external (youtube) broadcast', () => {
  let b: Record<string, any>;

  it('is created with 201, a Location a client can PATCH, and the defaults filled in', async () => {
    const res = await tv.expectStatus(
      tv.post('/broadcasts', CK.rw, {
        title: '  Friday Fights: Berlin  ',
        source: 'youtube',
        source_url: 'https://www.youtube.com/watch?v=abcdef123',
        scheduled_at: '2030-06-20T19:00:00+02:00',
      }),
      201,
    );
    b = res.body.data;
    expect(Object.keys(b).sort()).toEqual([...FIELDS].sort());
    expect(b).toMatchObject({
      channel: { slug: 'fight-tv', name: 'Fight TV' },
      title: 'Friday Fights: Berlin',
      source: 'youtube',
      source_url: 'https://www.youtube.com/watch?v=abcdef123',
      scheduled_at: '2030-06-20T17:00:00.000Z',
      started_at: null,
      ended_at: null,
      state: 'scheduled',
      visibility: 'public',
      discipline: null,
      language: 'en',
      tags: [],
      replay_url: null,
    });
    expect(b.id).toMatch(UUID);
    expect(b).not.toHaveProperty('ingest');
    expect(res.headers.location).toBe(`/api/tv/broadcasts/${b.id}`);
    const patched = await tv.expectStatus(tv.patch(res.headers.location.replace('/api/tv', ''), CK.rw, { title: 'Friday Fights: Berlin' }), 200);
    expect(patched.body.data).toMatchObject({ id: b.id, state: 'scheduled', title: 'Friday Fights: Berlin' });
    const page = await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
    expect(page.body.data).toMatchObject({ id: b.id, state: 'scheduled', locked: false, source_url: b.source_url });
  });

  it('may change any creation field while scheduled', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await tv.expectStatus(
      tv.patch(`/broadcasts/${b.id}`, CK.rw, {
        title: 'Friday Fights: Munich',
        source: 'vimeo',
        source_url: 'https://vimeo.com/123456789',
        scheduled_at: '2030-06-21T18:30:00Z',
        visibility: 'unlisted',
        discipline: 'kickboxing',
        language: 'de',
        tags: ['main-card', 'munich'],
      }),
      200,
    );
    expect(res.body.data).toMatchObject({
      id: b.id,
      slug: b.slug,
      title: 'Friday Fights: Munich',
      source: 'vimeo',
      source_url: 'https://vimeo.com/123456789',
      scheduled_at: '2030-06-21T18:30:00.000Z',
      visibility: 'unlisted',
      discipline: 'kickboxing',
      language: 'de',
      tags: ['main-card', 'munich'],
      state: 'scheduled',
    });
    expect(res.body.data.created_at).toBe(b.created_at);
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(b.updated_at));
    // a partial change leaves the rest alone; null clears the discipline
    const partial = await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { visibility: 'public', discipline: null }), 200);
    expect(partial.body.data).toMatchObject({ title: 'Friday Fights: Munich', source: 'vimeo', visibility: 'public', discipline: null, language: 'de' });
    expect(await publicView(b.slug)).toMatchObject({ title: 'Friday Fights: Munich', source_url: 'https://vimeo.com/123456789' });
  });

  it('goes live: state live, started_at set, listed on /live, external health', async () => {
    const res = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    expect(res.body.data).toMatchObject({ id: b.id, state: 'live', ended_at: null, replay_url: null });
    expect(Date.parse(res.body.data.started_at)).toBeGreaterThan(Date.now() - 60_000);
    const live = await tv.expectStatus(tv.get('/live'), 200);
    expect(live.body.data.map((x: { id: string }) => x.id)).toContain(b.id);
    const health = await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.ro), 200);
    expect(health.body.data).toEqual({
      broadcast_id: b.id,
      state: 'live',
      signal: 'external',
      bitrate_kbps: null,
      resolution: null,
      fps: null,
      viewers: null,
      warnings: [],
      updated_at: null,
    });
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.channel.live_slots).toEqual({ used: 1, total: 3 });
  });

  it('while live may change title, visibility, discipline, language and tags, but not source, source_url or scheduled_at', async () => {
    const ok = await tv.expectStatus(
      tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Friday Fights: LIVE', tags: ['live'], language: 'en', discipline: 'mma', visibility: 'public' }),
      200,
    );
    expect(ok.body.data).toMatchObject({ state: 'live', title: 'Friday Fights: LIVE', tags: ['live'], language: 'en', discipline: 'mma' });
    for (const change of [
      { source: 'youtube', source_url: 'https://www.youtube.com/watch?v=abcdef123' },
      { source_url: 'https://vimeo.com/987654321' },
      { scheduled_at: '2030-07-01T10:00:00Z' },
    ]) {
      const res = await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, change), 409, 'invalid_state');
      expect(res.body.message).toMatch(/live/);
    }
    // nothing of a refused change was applied, not even its allowed fields
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Sneaky', scheduled_at: '2030-07-01T10:00:00Z' }), 409, 'invalid_state');
    expect(await publicView(b.slug)).toMatchObject({
      title: 'Friday Fights: LIVE',
      source_url: 'https://vimeo.com/123456789',
      scheduled_at: '2030-06-21T18:30:00.000Z',
    });
  });

  it('cannot go live twice', async () => {
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 409, 'invalid_state');
  });

  it('ends and becomes a replay at once, its replay_url the source_url', async () => {
    const res = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    expect(res.body.data).toMatchObject({ id: b.id, state: 'replay', replay_url: 'https://vimeo.com/123456789', source_url: 'https://vimeo.com/123456789' });
    expect(Date.parse(res.body.data.ended_at)).toBeGreaterThanOrEqual(Date.parse(res.body.data.started_at));
    expect(await publicView(b.slug)).toMatchObject({ state: 'replay', replay_url: 'https://vimeo.com/123456789' });
    const live = await tv.expectStatus(tv.get('/live'), 200);
    expect(live.body.data.map((x: { id: string }) => x.id)).not.toContain(b.id);
    const channel = await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
    expect(channel.body.data.replays.map((x: { id: string }) => x.id)).toContain(b.id);
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.channel.live_slots.used).toBe(0);
  });

  it('as a replay may change title, visibility, discipline, language and tags only; it cannot end or go live again', async () => {
    const ok = await tv.expectStatus(
      tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Friday Fights (replay)', tags: ['replay'], visibility: 'followers' }),
      200,
    );
    expect(ok.body.data).toMatchObject({ state: 'replay', title: 'Friday Fights (replay)', tags: ['replay'], visibility: 'followers' });
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { scheduled_at: '2030-07-01T10:00:00Z' }), 409, 'invalid_state');
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source_url: 'https://vimeo.com/1111111' }), 409, 'invalid_state');
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 409, 'invalid_state');
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 409, 'invalid_state');
  });
});

describe('an ingest broadcast', () => {
  let b: Record<string, any>;
  let streamKey: string;

  it('is created with its server URL and stream key, and no source_url', async () => {
    const res = await tv.expectStatus(
      tv.post('/broadcasts', CK.rw, { title: 'Ingest Night', source: 'ingest', scheduled_at: '2030-06-22T20:00:00Z', discipline: 'boxing' }),
      201,
    );
    b = res.body.data;
    expect(b).toMatchObject({ source: 'ingest', source_url: null, state: 'scheduled', discipline: 'boxing' });
    expect(b.ingest).toEqual({ server_url: expect.stringMatching(/^rtmps?:\/\//), stream_key: expect.stringMatching(/^sk_/) });
    streamKey = b.ingest.stream_key;
    expect(res.headers.location).toBe(`/api/tv/broadcasts/${b.id}`);
  });

  it('edits while scheduled without showing the key again', async () => {
    const res = await tv.expectStatus(
      tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Ingest Night: main card', scheduled_at: '2030-06-22T21:00:00+01:00' }),
      200,
    );
    expect(res.body.data).toMatchObject({ title: 'Ingest Night: main card', scheduled_at: '2030-06-22T20:00:00.000Z', source: 'ingest', source_url: null });
    expect(res.body.data.ingest).toEqual({ server_url: b.ingest.server_url });
  });

  it('goes live and reports health from the media server', async () => {
    const live = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    expect(live.body.data).toMatchObject({ state: 'live', ingest: { server_url: b.ingest.server_url } });
    expect(live.body.data.ingest).not.toHaveProperty('stream_key');
    await ingest(t.app, 'on-publish', { name: streamKey, app: 'live' }).expect(200);
    await ingest(t.app, 'metrics', { name: streamKey, bitrate_kbps: 6000, resolution: '1920x1080', fps: 30, viewers: 42 }).expect(200);
    const health = await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.rw), 200);
    expect(health.body.data).toMatchObject({
      broadcast_id: b.id,
      state: 'live',
      signal: 'receiving',
      bitrate_kbps: 6000,
      resolution: '1920x1080',
      fps: 30,
      viewers: 42,
      warnings: [],
    });
  });

  it('stays ended, without a replay, when it ends', async () => {
    const res = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    expect(res.body.data).toMatchObject({ state: 'ended', replay_url: null });
    expect(res.body.data.ended_at).not.toBeNull();
    expect(await publicView(b.slug)).toMatchObject({ state: 'ended', replay_url: null });
    const channel = await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
    const all = [...channel.body.data.live, ...channel.body.data.upcoming, ...channel.body.data.replays].map((x: { id: string }) => x.id);
    expect(all).not.toContain(b.id);
    // ended: only the descriptive fields may change
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Ingest Night (ended)' }), 200);
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { scheduled_at: '2030-07-01T10:00:00Z' }), 409, 'invalid_state');
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source: 'hls', source_url: 'https://cdn.example/x.m3u8' }), 409, 'invalid_state');
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 409, 'invalid_state');
  });

  it('becomes a replay when the media server reports the recording', async () => {
    await ingest(t.app, 'recording-ready', { name: streamKey, replay_url: 'https://cdn.example/replays/ingest-night.m3u8' }).expect(200);
    const view = await publicView(b.slug);
    expect(view).toMatchObject({ state: 'replay', replay_url: 'https://cdn.example/replays/ingest-night.m3u8', title: 'Ingest Night (ended)' });
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.broadcasts.find((x: { id: string }) => x.id === b.id)).toMatchObject({
      state: 'replay',
      replay_url: 'https://cdn.example/replays/ingest-night.m3u8',
    });
    const channel = await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
    expect(channel.body.data.replays.map((x: { id: string }) => x.id)).toContain(b.id);
    // a second report for the same recording is refused, the replay stays
    const again = await ingest(t.app, 'recording-ready', { name: streamKey, replay_url: 'https://cdn.example/other.m3u8' });
    expect(again.status).toBe(409);
    expect((await publicView(b.slug)).replay_url).toBe('https://cdn.example/replays/ingest-night.m3u8');
  });
});

describe('switching sources while scheduled', () => {
  it('to ingest reveals a stream key once and drops the source_url; back to youtube needs a source_url', async () => {
    const b = await tv.create(CK.rw, aBroadcast());
    const toIngest = await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source: 'ingest' }), 200);
    expect(toIngest.body.data).toMatchObject({ source: 'ingest', source_url: null, ingest: { stream_key: expect.stringMatching(/^sk_/) } });
    const key = toIngest.body.data.ingest.stream_key;
    await ingest(t.app, 'on-publish', { name: key }).expect(200);

    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source: 'youtube' }), 422, 'invalid_source_url');
    const back = await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source: 'mp4', source_url: 'https://cdn.example/fight.mp4' }), 200);
    expect(back.body.data).toMatchObject({ source: 'mp4', source_url: 'https://cdn.example/fight.mp4' });
    expect(back.body.data).not.toHaveProperty('ingest');
    // the key of the former ingest source no longer opens a publish
    expect((await ingest(t.app, 'on-publish', { name: key })).status).toBe(403);
  });
});
