import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildTvWorld, CK } from '../../helpers/tv-world';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { INGEST_SECRET: 'test-ingest-secret-123' } });
  await buildTvWorld(t.c);
});
afterAll(() => t?.close());

it('runs an ingest broadcast through its whole life', async () => {
  const auth = { Authorization: `Bearer ${CK.rw}` };
  const created = await request(t.app).post('/api/tv/broadcasts').set(auth).send({ title: 'Friday Fights', source: 'ingest', scheduled_at: '2026-06-20T19:00:00+02:00', tags: ['main-card'] });
  console.log(created.status, JSON.stringify(created.body));
  expect(created.status).toBe(201);
  const id = created.body.data.id;
  const key = created.body.data.ingest.stream_key;
  const onPublish = await request(t.app).post('/internal/ingest/on-publish?secret=test-ingest-secret-123').type('form').send({ name: key, app: 'live' });
  expect(onPublish.status).toBe(200);
  await request(t.app).post('/internal/ingest/metrics').set('X-Ingest-Secret', 'test-ingest-secret-123').send({ name: key, bitrate_kbps: 6000, resolution: '1920x1080', fps: 30, viewers: 12 }).expect(200);
  const live = await request(t.app).post(`/api/tv/broadcasts/${id}/go-live`).set(auth);
  console.log(live.status, JSON.stringify(live.body));
  const health = await request(t.app).get(`/api/tv/broadcasts/${id}/health`).set(auth);
  console.log(health.status, JSON.stringify(health.body));
  const pub = await request(t.app).get('/api/tv/live');
  console.log(pub.status, JSON.stringify(pub.body).slice(0, 400));
  const ended = await request(t.app).post(`/api/tv/broadcasts/${id}/end`).set(auth);
  console.log(ended.status, ended.body.data.state);
  await request(t.app).post('/internal/ingest/recording-ready').set('X-Ingest-Secret', 'test-ingest-secret-123').send({ name: key, replay_url: 'https://cdn.example/replays/1.m3u8' }).expect(200);
  const channel = await request(t.app).get('/api/tv/channels/fight-tv');
  console.log(channel.status, JSON.stringify(channel.body).slice(0, 600));
  const me = await request(t.app).get('/api/tv/me').set(auth);
  console.log(me.status, JSON.stringify(me.body).slice(0, 300));
});
