import { Client } from 'pg';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let token: string;
let channelId: string;

const DASHBOARD = `query($slug: String!) { channel(slug: $slug) {
  slug plan billingState liveSlots { used total }
  broadcasts(first: 50) { edges { cursor node { id title state source ingest { serverUrl }
    health { signal bitrateKbps viewers warnings { code message } } } } pageInfo { hasNextPage } }
  apiKeys { id name prefix scopes revokedAt }
} }`;

/** Counts the SQL statements the app sends, at the driver, while `fn` runs. */
async function countStatements(fn: () => Promise<unknown>): Promise<number> {
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return n;
}

async function dashboard() {
  const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${token}`).send({ query: DASHBOARD, variables: { slug: 'demo-tv' } });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.channel;
}

async function addBroadcasts(n: number) {
  for (let i = 0; i < n; i++) {
    const { broadcast } = await t.c.services.broadcasts.create(channelId, i % 2
      ? { title: `Filler ${i}`, source: 'ingest', scheduled_at: '2031-01-01T00:00:00Z' }
      : { title: `Filler ${i}`, source: 'mp4', source_url: 'https://cdn.example/f.mp4', scheduled_at: '2031-01-01T00:00:00Z' });
    if (i % 2) await t.c.orm.em.getConnection().execute(`insert into broadcast_telemetry (broadcast_id, publishing, bitrate_kbps, reported_at) values (?, true, 4000, now())`, [broadcast.id]);
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

describe('the studio dashboard query (D9.5)', () => {
  it('runs the same small number of SQL statements for 5 broadcasts and for 50', async () => {
    // The demo channel has 7 broadcasts: keep 5.
    await t.c.orm.em.getConnection().execute(`delete from broadcast where channel_id = ? and id not in (select id from broadcast where channel_id = ? order by created_at limit 5)`, [channelId, channelId]);
    const few = await countStatements(async () => expect((await dashboard()).broadcasts.edges).toHaveLength(5));
    await addBroadcasts(45);
    const many = await countStatements(async () => expect((await dashboard()).broadcasts.edges).toHaveLength(50));
    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(10);
  });
});
