import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedTvDemo(t.c);
});
afterAll(() => t?.close());

const as = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('the demo channels of the README', () => {
  it('ck_demo_rw: demo-tv on pro, billing active, one of three live slots in use', async () => {
    const me = await request(t.app).get('/api/tv/me').set(as('ck_demo_rw'));
    expect(me.status).toBe(200);
    expect(me.body.data.channel).toEqual({
      slug: 'demo-tv',
      name: 'Demo TV',
      plan: 'pro',
      billing_state: 'active',
      approved: true,
      live_slots: { used: 1, total: 3 },
    });
    const states = new Set(me.body.data.broadcasts.map((b: any) => b.state));
    const visibilities = new Set(me.body.data.broadcasts.map((b: any) => b.visibility));
    expect([...states].sort()).toEqual(['ended', 'live', 'replay', 'scheduled']);
    expect([...visibilities].sort()).toEqual(['followers', 'ppv', 'public', 'unlisted']);
  });

  it('ck_demo_ro reads but cannot write', async () => {
    expect((await request(t.app).get('/api/tv/me').set(as('ck_demo_ro'))).status).toBe(200);
    const res = await request(t.app)
      .post('/api/tv/broadcasts')
      .set(as('ck_demo_ro'))
      .send({ title: 'x', source: 'ingest', scheduled_at: '2030-01-01T00:00:00Z' });
    expect(res.body.error).toBe('insufficient_scope');
  });

  it('every go-live refusal can be tried with the documented keys', async () => {
    const create = async (key: string, body: object) => (await request(t.app).post('/api/tv/broadcasts').set(as(key)).send(body)).body.data.id;
    const goLive = async (key: string, id: string) => request(t.app).post(`/api/tv/broadcasts/${id}/go-live`).set(as(key));
    const free = await create('ck_demo_free', { title: 'Ingest on free', source: 'ingest', scheduled_at: '2030-01-01T00:00:00Z' });
    expect((await goLive('ck_demo_free', free)).body.error).toBe('plan_forbids_source');
    const late = await create('ck_demo_pastdue', {
      title: 'Past due',
      source: 'mp4',
      source_url: 'https://cdn.example/a.mp4',
      scheduled_at: '2030-01-01T00:00:00Z',
    });
    expect((await goLive('ck_demo_pastdue', late)).status).toBe(402);
    const demoIds = [];
    for (let i = 0; i < 3; i++)
      demoIds.push(
        await create('ck_demo_rw', { title: `Slot ${i}`, source: 'mp4', source_url: 'https://cdn.example/a.mp4', scheduled_at: '2030-01-01T00:00:00Z' }),
      );
    expect((await goLive('ck_demo_rw', demoIds[0])).status).toBe(200);
    expect((await goLive('ck_demo_rw', demoIds[1])).status).toBe(200);
    expect((await goLive('ck_demo_rw', demoIds[2])).body.error).toBe('no_live_slot');
    expect((await goLive('ck_demo_other', demoIds[2])).status).toBe(404);
  });

  it('lists approved channels only', async () => {
    const res = await request(t.app).get('/api/tv/channels?per_page=100');
    const slugs = res.body.data.map((c: any) => c.slug);
    expect(slugs).toEqual(expect.arrayContaining(['demo-tv', 'ringside-network', 'garage-fights', 'late-night-bouts', 'closed-corner']));
    expect(slugs).not.toContain('pending-arena');
  });
});
