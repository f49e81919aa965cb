import { TELEMETRY_STALE_MS } from '../../../src/domain/channels/broadcast-health';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, MutableClock, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * docs/decisions.md#health: GET /broadcasts/{id}/health from the media server's telemetry, fresh, stale or missing,
 * with a clock the test moves.
 */

const clock = new MutableClock('2030-03-01T20:00:00.000Z');
let t: TestApp;
let tv: TvClient;
beforeAll(async () => {
  t = await startTestApp({ clock, env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
});
afterAll(() => t?.close());

const health = async (id: string) => (await tv.expectStatus(tv.get(`/broadcasts/${id}/health`, CK.ro), 200)).body.data;
const codes = (h: { warnings: { code: string }[] }) => h.warnings.map((w) => w.code).sort();
const NO_METRICS = { bitrate_kbps: null, resolution: null, fps: null, viewers: null };

async function ingestBroadcast(title: string) {
  const res = await tv.expectStatus(tv.post('/broadcasts', CK.rw, { title, source: 'ingest', scheduled_at: '2030-03-01T20:00:00Z' }), 201);
  return { id: res.body.data.id as string, key: res.body.data.ingest.stream_key as string };
}

describe('an ingest broadcast', () => {
  let b: { id: string; key: string };

  it('without any telemetry: no_signal, no metrics, no warning while scheduled', async () => {
    b = await ingestBroadcast('Telemetry Night');
    expect(await health(b.id)).toEqual({ broadcast_id: b.id, state: 'scheduled', signal: 'no_signal', ...NO_METRICS, warnings: [], updated_at: null });
  });

  it('live without any telemetry: no_signal_while_live', async () => {
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    const h = await health(b.id);
    expect(h).toMatchObject({ state: 'live', signal: 'no_signal', ...NO_METRICS, updated_at: null });
    expect(codes(h)).toEqual(['no_signal_while_live']);
    expect(h.warnings[0].message).toEqual(expect.any(String));
  });

  it('publishing with fresh, good metrics: receiving, metrics shown, no warning', async () => {
    await ingest(t.app, 'on-publish', { name: b.key }).expect(200);
    clock.advance(2_000);
    await ingest(t.app, 'metrics', { name: b.key, bitrate_kbps: 6000, resolution: '1920x1080', fps: 50, viewers: 120 }).expect(200);
    expect(await health(b.id)).toEqual({
      broadcast_id: b.id,
      state: 'live',
      signal: 'receiving',
      bitrate_kbps: 6000,
      resolution: '1920x1080',
      fps: 50,
      viewers: 120,
      warnings: [],
      updated_at: '2030-03-01T20:00:02.000Z',
    });
  });

  it('low bitrate and low fps are warned about', async () => {
    clock.advance(1_000);
    await ingest(t.app, 'metrics', { name: b.key, bitrate_kbps: 800, resolution: '640x360', fps: 12.5, viewers: 99 }).expect(200);
    const h = await health(b.id);
    expect(h).toMatchObject({ signal: 'receiving', bitrate_kbps: 800, resolution: '640x360', fps: 12.5, viewers: 99, updated_at: '2030-03-01T20:00:03.000Z' });
    expect(codes(h)).toEqual(['low_bitrate', 'low_fps']);
    expect(h.warnings.find((w: { code: string }) => w.code === 'low_bitrate').message).toMatch(/800/);
    // back to good numbers: the warnings go away
    await ingest(t.app, 'metrics', { name: b.key, bitrate_kbps: 5000, resolution: '1920x1080', fps: 30, viewers: 99 }).expect(200);
    expect((await health(b.id)).warnings).toEqual([]);
  });

  it(`goes stale after ${TELEMETRY_STALE_MS / 1000} s without a report: no_signal, metrics dropped, no_signal_while_live`, async () => {
    clock.advance(TELEMETRY_STALE_MS);
    expect(await health(b.id)).toMatchObject({ signal: 'receiving', bitrate_kbps: 5000 }); // exactly at the limit: still fresh
    clock.advance(1);
    const h = await health(b.id);
    expect(h).toMatchObject({ state: 'live', signal: 'no_signal', ...NO_METRICS, updated_at: '2030-03-01T20:00:03.000Z' });
    expect(codes(h)).toEqual(['no_signal_while_live']);
    // a new report brings it back
    await ingest(t.app, 'metrics', { name: b.key, bitrate_kbps: 5200, resolution: '1920x1080', fps: 30, viewers: 80 }).expect(200);
    expect(await health(b.id)).toMatchObject({ signal: 'receiving', bitrate_kbps: 5200, warnings: [] });
  });

  it('on-publish-done: no_signal at once, even with a recent report', async () => {
    clock.advance(500);
    await ingest(t.app, 'on-publish-done', { name: b.key }).expect(200);
    const h = await health(b.id);
    expect(h).toMatchObject({ signal: 'no_signal', ...NO_METRICS });
    expect(codes(h)).toEqual(['no_signal_while_live']);
  });

  it('once ended, a missing signal is no longer a warning', async () => {
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    clock.advance(60_000);
    expect(await health(b.id)).toMatchObject({ state: 'ended', signal: 'no_signal', ...NO_METRICS, warnings: [] });
  });

  it('an old report inserted directly is stale too', async () => {
    const other = await ingestBroadcast('Old Report Night');
    await tv.expectStatus(tv.post(`/broadcasts/${other.id}/go-live`, CK.rw), 200);
    await t.c.orm.em
      .getConnection()
      .execute(
        `insert into broadcast_telemetry (broadcast_id, publishing, bitrate_kbps, resolution, fps, viewers, reported_at) values (?, true, 4000, '1280x720', 30, 10, ?)`,
        [other.id, new Date(clock.now().getTime() - 10 * 60_000)],
      );
    const h = await health(other.id);
    expect(h).toMatchObject({ signal: 'no_signal', ...NO_METRICS });
    expect(codes(h)).toEqual(['no_signal_while_live']);
    await tv.expectStatus(tv.post(`/broadcasts/${other.id}/end`, CK.rw), 200);
  });
});

describe('an external broadcast', () => {
  it('is external in every state, with null metrics and no warnings', async () => {
    const b = await tv.create(CK.rw, { source: 'hls', source_url: 'https://cdn.example/live/main.m3u8' });
    const expected = { broadcast_id: b.id, signal: 'external', ...NO_METRICS, warnings: [], updated_at: null };
    expect(await health(b.id)).toEqual({ ...expected, state: 'scheduled' });
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    clock.advance(5 * 60_000);
    expect(await health(b.id)).toEqual({ ...expected, state: 'live' });
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    expect(await health(b.id)).toEqual({ ...expected, state: 'replay' });
  });
});
