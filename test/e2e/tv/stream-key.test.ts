import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * docs/decisions.md#ingest: an ingest broadcast's stream key is returned once, in the answer
 * that creates it (or rotates it), and never again by any endpoint; a rotated key stops working.
 */

let t: TestApp;
let tv: TvClient;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
});
afterAll(() => t?.close());

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** How many answers (and how many times in all) carried `key` since answer number `from`. */
function shown(key: string, from = 0) {
  const answers = tv.seen.slice(from).map((r) => `${JSON.stringify(r.headers)}\n${r.text ?? ''}`);
  return { answers: answers.filter((a) => a.includes(key)).length, times: answers.reduce((n, a) => n + occurrences(a, key), 0) };
}

it('appears exactly once over the whole life of an ingest broadcast: in the creation answer', async () => {
  const from = tv.seen.length;
  const created = await tv.expectStatus(
    tv.post('/broadcasts', CK.rw, { title: 'Key Night', source: 'ingest', scheduled_at: '2030-05-01T18:00:00Z', tags: ['main-card'] }),
    201,
  );
  const b = created.body.data;
  const key: string = b.ingest.stream_key;
  expect(key).toMatch(/^sk_[A-Za-z0-9]{20,}$/);

  await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Key Night: main card', visibility: 'public' }), 200);
  await tv.expectStatus(tv.get('/upcoming'), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
  await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
  await tv.expectStatus(tv.get('/me', CK.rw), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.rw), 200);
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
  const publish = await ingest(t.app, 'on-publish', { name: key }).expect(200);
  const metrics = await ingest(t.app, 'metrics', { name: key, bitrate_kbps: 4500, resolution: '1280x720', fps: 30, viewers: 3 }).expect(200);
  expect(publish.text).not.toContain(key);
  expect(metrics.text).not.toContain(key);
  await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { tags: ['main-card', 'live'] }), 200);
  await tv.expectStatus(tv.get('/live'), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
  await tv.expectStatus(tv.get('/channels'), 200);
  await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
  await tv.expectStatus(tv.get('/me', CK.ro), 200);
  const health = await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.ro), 200);
  expect(health.body.data.signal).toBe('receiving');
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
  await ingest(t.app, 'recording-ready', { name: key, replay_url: 'https://cdn.example/r/key-night.m3u8' }).expect(200);
  await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Key Night (replay)' }), 200);
  await tv.expectStatus(tv.get('/channels/fight-tv'), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
  await tv.expectStatus(tv.get('/me', CK.rw), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.rw), 200);

  expect(tv.seen.length - from).toBeGreaterThan(20);
  expect(shown(key, from)).toEqual({ answers: 1, times: 1 });
  expect(tv.seen[from].text).toContain(key);
  // every channel answer shows the server URL, no public answer shows any ingest detail
  const me = await tv.expectStatus(tv.get('/me', CK.rw), 200);
  expect(me.body.data.broadcasts.find((x: { id: string }) => x.id === b.id).ingest).toEqual({ server_url: b.ingest.server_url });
  const pub = await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
  expect(pub.body.data).not.toHaveProperty('ingest');
  expect(pub.text).not.toContain(b.ingest.server_url);
});

it('is stored only as a hash', async () => {
  const b = (await tv.expectStatus(tv.post('/broadcasts', CK.rw, { title: 'Hash Night', source: 'ingest', scheduled_at: '2030-05-02T18:00:00Z' }), 201)).body
    .data;
  const rows = await t.c.orm.em.getConnection().execute(`select * from broadcast where id = ?`, [b.id]);
  expect(JSON.stringify(rows)).not.toContain(b.ingest.stream_key);
  expect(JSON.stringify(rows)).not.toContain(b.ingest.stream_key.slice(3));
});

it('rotate-stream-key returns a new key once; the old key stops working at on-publish, the new one works', async () => {
  const b = (await tv.expectStatus(tv.post('/broadcasts', CK.rw, { title: 'Rotation Night', source: 'ingest', scheduled_at: '2030-05-03T18:00:00Z' }), 201))
    .body.data;
  const oldKey: string = b.ingest.stream_key;
  await ingest(t.app, 'on-publish', { name: oldKey }).expect(200);

  const from = tv.seen.length;
  const rotated = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/rotate-stream-key`, CK.rw), 200);
  expect(rotated.body.data).toMatchObject({
    id: b.id,
    state: 'scheduled',
    ingest: { server_url: b.ingest.server_url, stream_key: expect.stringMatching(/^sk_/) },
  });
  const newKey: string = rotated.body.data.ingest.stream_key;
  expect(newKey).not.toBe(oldKey);
  expect(rotated.text).not.toContain(oldKey);

  const old = await ingest(t.app, 'on-publish', { name: oldKey });
  expect([old.status, old.body.error]).toEqual([403, 'forbidden']);
  expect((await ingest(t.app, 'metrics', { name: oldKey, bitrate_kbps: 3000 })).status).toBe(403);
  await ingest(t.app, 'on-publish', { name: newKey }).expect(200);
  // over the form encoding nginx-rtmp uses, too
  await ingest(t.app, 'on-publish', { name: newKey, app: 'live', addr: '198.51.100.4' }).type('form').expect(200);

  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
  await tv.expectStatus(tv.get('/me', CK.rw), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.id}/health`, CK.rw), 200);
  await tv.expectStatus(tv.get(`/broadcasts/${b.slug}`), 200);
  expect(shown(newKey, from)).toEqual({ answers: 1, times: 1 });
  expect(shown(oldKey, from)).toEqual({ answers: 0, times: 0 });

  // rotating again while live: the encoder's next publish needs the newest key
  const again = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/rotate-stream-key`, CK.rw), 200);
  expect(again.body.data.state).toBe('live');
  expect((await ingest(t.app, 'on-publish', { name: newKey })).status).toBe(403);
  await ingest(t.app, 'on-publish', { name: again.body.data.ingest.stream_key }).expect(200);
});
