import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, INGEST_SECRET, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * The media server's callbacks on /internal/ingest (docs/decisions.md#health): authenticated by the ingest secret,
 * a stream key names the broadcast, and a publish is refused once the broadcast has ended.
 */

const PATHS = ['on-publish', 'on-publish-done', 'metrics', 'recording-ready'] as const;

let t: TestApp;
let tv: TvClient;
let b: { id: string; key: string };
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  const created = await tv.expectStatus(
    tv.post('/broadcasts', CK.rw, { title: 'Callback Night', source: 'ingest', scheduled_at: '2030-02-02T20:00:00Z' }),
    201,
  );
  b = { id: created.body.data.id, key: created.body.data.ingest.stream_key };
});
afterAll(() => t?.close());

const bodyFor = (path: (typeof PATHS)[number], key: string) =>
  path === 'recording-ready' ? { name: key, replay_url: 'https://cdn.example/r.m3u8' } : path === 'metrics' ? { name: key, bitrate_kbps: 5000 } : { name: key };

describe('the ingest secret', () => {
  it('a missing or wrong secret is 401 on every callback, and changes nothing', async () => {
    for (const path of PATHS) {
      for (const secret of [null, '', 'wrong-secret', `${INGEST_SECRET}x`, INGEST_SECRET.slice(0, -1), INGEST_SECRET.toUpperCase()]) {
        const res = await ingest(t.app, path, bodyFor(path, b.key), secret);
        expect([path, secret, res.status, res.body.error]).toEqual([path, secret, 401, 'unauthenticated']);
      }
      const query = await request(t.app).post(`/internal/ingest/${path}?secret=nope`).type('form').send(bodyFor(path, b.key));
      expect([path, query.status]).toEqual([path, 401]);
    }
    const health = await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.ro), 200);
    expect(health.body.data).toMatchObject({ signal: 'no_signal', updated_at: null });
  });

  it('is accepted in X-Ingest-Secret or, for nginx-rtmp, in ?secret= with a form body', async () => {
    await ingest(t.app, 'on-publish', { name: b.key }).expect(200);
    await request(t.app).post(`/internal/ingest/on-publish?secret=${INGEST_SECRET}`).type('form').send({ name: b.key, app: 'live' }).expect(200);
    await request(t.app)
      .post(`/internal/ingest/metrics?secret=${INGEST_SECRET}`)
      .type('form')
      .send({ name: b.key, bitrate_kbps: '4200', fps: '29.97', resolution: '1280x720', viewers: '7' })
      .expect(200);
    const health = await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.ro), 200);
    expect(health.body.data).toMatchObject({ signal: 'receiving', bitrate_kbps: 4200, fps: 29.97, resolution: '1280x720', viewers: 7 });
  });
});

describe('stream keys', () => {
  it('an unknown, missing or malformed stream key is 403 on every callback', async () => {
    for (const path of PATHS) {
      for (const key of ['sk_unknownunknownunknownunknown', '', 'ck_test_rw', `${b.key}x`, b.key.slice(0, -1)]) {
        const res = await ingest(t.app, path, bodyFor(path, key));
        expect([path, key, res.status, res.body.error]).toEqual([path, key, 403, 'forbidden']);
      }
      const { name: _none, ...noKey } = bodyFor(path, '');
      const none = await ingest(t.app, path, noKey);
      expect([path, none.status]).toEqual([path, 403]);
    }
  });

  it('bad metrics are 422 and do not overwrite the last good report', async () => {
    for (const m of [{ bitrate_kbps: -1 }, { fps: 'fast' }, { viewers: 1e12 }, { resolution: 'full-hd' }, { bitrate_kbps: 'NaN' }]) {
      const res = await ingest(t.app, 'metrics', { name: b.key, ...m });
      expect([JSON.stringify(m), res.status, res.body.error]).toEqual([JSON.stringify(m), 422, 'invalid_metrics']);
    }
    const health = await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.ro), 200);
    expect(health.body.data).toMatchObject({ signal: 'receiving', bitrate_kbps: 4200 });
  });
});

describe('the broadcast state', () => {
  it('recording-ready before the broadcast has ended is 409, and an http replay_url is 422', async () => {
    const early = await ingest(t.app, 'recording-ready', { name: b.key, replay_url: 'https://cdn.example/r.m3u8' });
    expect([early.status, early.body.error]).toEqual([409, 'invalid_state']);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    const http = await ingest(t.app, 'recording-ready', { name: b.key, replay_url: 'http://cdn.example/r.m3u8' });
    expect([http.status, http.body.error]).toEqual([422, 'invalid_replay_url']);
    const nul = await ingest(t.app, 'recording-ready', { name: b.key, replay_url: 'https://cdn.example/r\u0000.m3u8' });
    expect([nul.status, nul.body.error]).toEqual([422, 'invalid_replay_url']);
    const none = await ingest(t.app, 'recording-ready', { name: b.key });
    expect([none.status, none.body.error]).toEqual([422, 'invalid_replay_url']);
  });

  it('a publish to an ended broadcast is 403, and to its replay too', async () => {
    const ended = await ingest(t.app, 'on-publish', { name: b.key });
    expect([ended.status, ended.body.error]).toEqual([403, 'forbidden']);
    expect(ended.body.message).toMatch(/ended/);
    await ingest(t.app, 'recording-ready', { name: b.key, replay_url: 'https://cdn.example/r.m3u8' }).expect(200);
    const replay = await ingest(t.app, 'on-publish', { name: b.key });
    expect([replay.status, replay.body.error]).toEqual([403, 'forbidden']);
    // the media server may still say the publish is done
    await ingest(t.app, 'on-publish-done', { name: b.key }).expect(200);
  });

  it('a publish to a scheduled broadcast is allowed (encoders connect before go-live)', async () => {
    const created = await tv.expectStatus(tv.post('/broadcasts', CK.rw, { title: 'Warm-up', source: 'ingest', scheduled_at: '2030-02-03T20:00:00Z' }), 201);
    await ingest(t.app, 'on-publish', { name: created.body.data.ingest.stream_key }).expect(200);
    const health = await tv.expectStatus(tv.get(`/broadcasts/${created.body.data.id}/health`, CK.ro), 200);
    expect(health.body.data).toMatchObject({ state: 'scheduled', signal: 'receiving', warnings: [] });
  });
});

describe('without an INGEST_SECRET configured', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp();
  });
  afterAll(() => bare?.close());

  it('every callback is refused, whatever secret is sent (no default secret outside the embedded demo)', async () => {
    for (const secret of [null, '', 'demo-ingest-secret', INGEST_SECRET]) {
      const res = await ingest(bare.app, 'on-publish', { name: 'sk_whatever' }, secret);
      expect([secret, res.status]).toEqual([secret, 401]);
    }
  });
});
