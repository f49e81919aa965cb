import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { operator } from '../../../src/domain/channels/channel-access';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { DASHBOARD } from '../../helpers/studio-queries';
import { countStatements } from '../../helpers/statements';

let t: TestApp;
let token: string;
let channelId: string;

async function dashboard() {
  const res = await request(t.app)
    .post('/graphql')
    .set('Authorization', `Bearer ${token}`)
    .send({ query: DASHBOARD, variables: { slug: 'demo-tv' } });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.channel;
}

/** More endpoints, deliveries and attempts: the dashboard must not run more statements for them. */
async function addEndpointsAndDeliveries(endpoints: number, deliveriesEach: number) {
  const conn = t.c.orm.em.getConnection();
  for (let e = 0; e < endpoints; e++) {
    const [endpoint] = await conn.execute(
      `insert into webhook_endpoint (id, channel_id, url, events, secret, enabled, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, '{broadcast.live}', 'whsec_x', true, now(), now()) returning id`,
      [channelId, `https://hooks.example/${e}`],
    );
    for (let d = 0; d < deliveriesEach; d++) {
      const eventId = `evt_bench_${e}_${d}_${Math.random().toString(36).slice(2)}`;
      await conn.execute(`insert into webhook_event (id, type, payload, created_at) values (?, 'broadcast.live', '{}', now())`, [eventId]);
      const [delivery] = await conn.execute(
        `insert into webhook_delivery (id, event_id, endpoint_id, status, attempt, next_attempt_at, created_at) values (gen_random_uuid(), ?, ?, 'failed', 2, now(), now()) returning id`,
        [eventId, endpoint.id],
      );
      for (const n of [1, 2]) {
        await conn.execute(
          `insert into webhook_attempt (id, delivery_id, attempt_no, started_at, duration_ms, request_headers, status_code) values (gen_random_uuid(), ?, ?, now(), 12, '{}', 500)`,
          [delivery.id, n],
        );
      }
    }
  }
}

async function addBroadcasts(n: number) {
  for (let i = 0; i < n; i++) {
    const { broadcast } = await t.c.services.broadcasts.create(
      operator({ id: 'test' }),
      channelId,
      i % 2
        ? { title: `Filler ${i}`, source: 'ingest', scheduledAt: new Date('2031-01-01T00:00:00Z') }
        : { title: `Filler ${i}`, source: 'mp4', sourceUrl: 'https://cdn.example/f.mp4', scheduledAt: new Date('2031-01-01T00:00:00Z') },
    );
    if (i % 2)
      await t.c.orm.em
        .getConnection()
        .execute(`insert into broadcast_telemetry (broadcast_id, publishing, bitrate_kbps, reported_at) values (?, true, 4000, now())`, [broadcast.id]);
  }
}

beforeAll(async () => {
  t = await startTestApp();
  await seedTvDemo(t.c);
  channelId = (await t.c.services.channels.bySlug('demo-tv')).id;
  const res = await request(t.app).post('/graphql').send({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' });
  token = res.body.data.login.token;
});
afterAll(() => t?.close());

describe('the studio dashboard query (docs/decisions.md#studio-statements)', () => {
  it('runs the same small number of SQL statements for 5 broadcasts and for 50, and for 1 or 5 endpoints with their deliveries', async () => {
    // The demo channel has 7 broadcasts: keep 5.
    await t.c.orm.em
      .getConnection()
      .execute(`delete from broadcast where channel_id = ? and id not in (select id from broadcast where channel_id = ? order by created_at limit 5)`, [
        channelId,
        channelId,
      ]);
    await addEndpointsAndDeliveries(1, 2);
    const few = await countStatements(async () => {
      const channel = await dashboard();
      expect(channel.broadcasts.edges).toHaveLength(5);
      expect(channel.webhookEndpoints[0].deliveries[0].attempts).toHaveLength(2);
    });
    await addBroadcasts(45);
    await addEndpointsAndDeliveries(4, 10);
    const many = await countStatements(async () => {
      const channel = await dashboard();
      expect(channel.broadcasts.edges).toHaveLength(50);
      expect(channel.webhookEndpoints).toHaveLength(5);
    });
    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(12);
  });
});
