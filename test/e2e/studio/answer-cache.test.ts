import request from 'supertest';
import { TELEMETRY_STALE_MS } from '../../../src/domain/channels/broadcast-health';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { admin } from '../../helpers/cli';
import { feedCaughtUp } from '../../helpers/change-feed';
import { countStatements } from '../../helpers/statements';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, MutableClock, TV_ENV, TvClient } from '../../helpers/tv-client';
import { WEBHOOK_ENV, runWorker, waitUntil } from '../../helpers/webhooks';
import { WebhookReceiver } from '../../helpers/webhook-receiver';

/**
 * Studio query answers are kept until something they were read from changes (the answer cache of
 * src/graphql/answer-cache.ts), on an instance with its caches on as in production: a repeated
 * query runs no SQL, and every kind of write the dashboard shows is in the very next answer.
 */

const clock = new MutableClock('2030-03-01T20:00:00.000Z');
let t: TestApp;
let tv: TvClient;
let owner: string;
const receiver = new WebhookReceiver();
let receiverUrl: string;

const DASH = `query($slug: String!) { channel(slug: $slug) {
  slug plan role liveSlots { used total }
  broadcasts(first: 50) { edges { node { id title state health { signal bitrateKbps warnings { code } } } } }
  apiKeys { name revokedAt }
  webhookEndpoints { url deliveries(first: 10) { event status attempts { statusCode } } }
} }`;

function gql(token: string, query: string, variables: Record<string, unknown> = {}) {
  return request(t.app).post('/graphql').set('Authorization', `Bearer ${token}`).send({ query, variables });
}

async function login(email: string, password: string): Promise<string> {
  const res = await request(t.app)
    .post('/graphql')
    .send({ query: `mutation { login(email: "${email}", password: "${password}") { token } }` });
  return res.body.data.login.token;
}

async function dashboard(token = owner) {
  const res = await gql(token, DASH, { slug: 'demo-tv' });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.channel;
}

const node = (d: { broadcasts: { edges: { node: { id: string } }[] } }, id: string) =>
  d.broadcasts.edges.find((e) => e.node.id === id)?.node as
    | { state: string; title: string; health: { signal: string; bitrateKbps: number | null; warnings: { code: string }[] } }
    | undefined;

beforeAll(async () => {
  receiverUrl = await receiver.start();
  t = await startTestApp({ clock, env: { ...TV_ENV, ...WEBHOOK_ENV, AUTH_CACHE_TTL_MS: '1000' } });
  await seedTvDemo(t.c);
  tv = new TvClient(t.app);
  owner = await login('owner@demo.tv', 'demo-owner-pass');
});
afterAll(async () => {
  await receiver.stop();
  await t?.close();
});

describe('studio answers kept until their data changes', () => {
  it('a repeated query is answered byte for byte without running SQL', async () => {
    // the seed's and the sign-in's notifications come back through LISTEN: heard before the count
    await feedCaughtUp(t);
    const first = await gql(owner, DASH, { slug: 'demo-tv' });
    expect(first.body.errors).toBeUndefined();
    let again: request.Response | undefined;
    // the session check is cached too: nothing reaches the database
    expect(
      await countStatements(async () => {
        again = await gql(owner, DASH, { slug: 'demo-tv' });
      }),
    ).toBe(0);
    expect(again!.text).toBe(first.text);
    expect(again!.headers['content-type']).toBe(first.headers['content-type']);
    expect(again!.headers['cache-control']).toBe('no-store');
    // other variables are another answer
    const other = await gql(owner, DASH, { slug: 'ringside-network' });
    expect(other.body.data.channel.slug).toBe('ringside-network');
  });

  it('shows each user their own answer', async () => {
    const manager = await login('manager@demo.tv', 'demo-manager-pass');
    expect((await dashboard(owner)).role).toBe('OWNER');
    expect((await dashboard(manager)).role).toBe('MANAGER');
    expect((await dashboard(owner)).role).toBe('OWNER');
  });

  it('a broadcast created, taken live and ended through the TV API is in the next answer', async () => {
    await dashboard();
    const created = await tv.expectStatus(
      tv.post('/broadcasts', 'ck_demo_rw', {
        title: 'Cache Night',
        source: 'mp4',
        source_url: 'https://cdn.example/c.mp4',
        scheduled_at: '2030-03-02T20:00:00Z',
      }),
      201,
    );
    const id = created.body.data.id as string;
    expect(node(await dashboard(), id)).toMatchObject({ title: 'Cache Night', state: 'SCHEDULED' });
    const used = (await dashboard()).liveSlots.used as number;
    await tv.expectStatus(tv.post(`/broadcasts/${id}/go-live`, 'ck_demo_rw'), 200);
    const live = await dashboard();
    expect(node(live, id)?.state).toBe('LIVE');
    expect(live.liveSlots.used).toBe(used + 1);
    await tv.expectStatus(tv.post(`/broadcasts/${id}/end`, 'ck_demo_rw'), 200);
    expect(node(await dashboard(), id)?.state).toBe('REPLAY');
  });

  it("the media server's telemetry is in the next answer, and a receiving signal goes stale with time alone", async () => {
    const created = await tv.expectStatus(
      tv.post('/broadcasts', 'ck_demo_rw', { title: 'Signal Night', source: 'ingest', scheduled_at: '2030-03-02T20:00:00Z' }),
      201,
    );
    const {
      id,
      ingest: { stream_key: key },
    } = created.body.data as { id: string; ingest: { stream_key: string } };
    expect(node(await dashboard(), id)?.health.signal).toBe('NO_SIGNAL');
    await ingest(t.app, 'on-publish', { name: key }).expect(200);
    await ingest(t.app, 'metrics', { name: key, bitrate_kbps: 6000, resolution: '1920x1080', fps: 50, viewers: 10 }).expect(200);
    expect(node(await dashboard(), id)?.health).toMatchObject({ signal: 'RECEIVING', bitrateKbps: 6000 });
    await ingest(t.app, 'metrics', { name: key, bitrate_kbps: 900, resolution: '1920x1080', fps: 50, viewers: 10 }).expect(200);
    expect(node(await dashboard(), id)?.health).toMatchObject({ signal: 'RECEIVING', bitrateKbps: 900, warnings: [{ code: 'low_bitrate' }] });
    // no write from here on: only the clock moves
    clock.advance(TELEMETRY_STALE_MS);
    expect(node(await dashboard(), id)?.health.signal).toBe('RECEIVING');
    clock.advance(1);
    expect(node(await dashboard(), id)?.health).toMatchObject({ signal: 'NO_SIGNAL', bitrateKbps: null, warnings: [] });
  });

  it("the operator's changes (plan, keys, roles) are in the next answer", async () => {
    expect((await dashboard()).plan).toBe('PRO');
    expect((await admin(t.c, 'channels:set-plan', 'demo-tv', '--plan', 'broadcaster')).code).toBe(0);
    const d = await dashboard();
    expect(d.plan).toBe('BROADCASTER');
    expect(d.liveSlots.total).toBe(10);
    expect((await admin(t.c, 'channel-keys:create', '--channel', 'demo-tv', '--name', 'cache-key', '--scopes', 'read')).code).toBe(0);
    expect((await dashboard()).apiKeys.map((k: { name: string }) => k.name)).toContain('cache-key');
    expect((await admin(t.c, 'studio-users:grant', '--email', 'owner@demo.tv', '--channel', 'demo-tv', '--role', 'manager')).code).toBe(0);
    expect((await dashboard()).role).toBe('MANAGER');
    expect((await admin(t.c, 'studio-users:grant', '--email', 'owner@demo.tv', '--channel', 'demo-tv', '--role', 'owner')).code).toBe(0);
    expect((await dashboard()).role).toBe('OWNER');
  });

  it('a delivery attempt made by the worker is in the next answer', async () => {
    // only here: elsewhere its polling would count among a request's statements
    const worker = await runWorker(t.c, t.db);
    try {
      await deliveryShows();
    } finally {
      await worker.close();
    }
  });

  async function deliveryShows() {
    const url = `${receiverUrl.replace(/\/$/, '')}/studio-cache`;
    const made = await gql(owner, 'mutation($u: String!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: [BROADCAST_SCHEDULED]) { secret } }', {
      u: url,
    });
    expect(made.body.errors).toBeUndefined();
    const endpoint = () => dashboard().then((d) => d.webhookEndpoints.find((e: { url: string }) => e.url === url));
    expect((await endpoint()).deliveries).toEqual([]);
    receiver.delayMs = 1_500; // the receiver answers late: the answer below is read before the attempt is recorded
    await tv.expectStatus(
      tv.post('/broadcasts', 'ck_demo_rw', {
        title: 'Hooked Night',
        source: 'mp4',
        source_url: 'https://cdn.example/h.mp4',
        scheduled_at: '2030-03-03T20:00:00Z',
      }),
      201,
    );
    // the delivery is made by the worker's fan-out a moment after the commit: once the database has it, the next answer shows it
    await waitUntil(
      'the delivery made',
      async () =>
        (
          await t.c.orm.em
            .fork()
            .getConnection()
            .execute(`select 1 from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id where e.url = ?`, [url])
        ).length > 0 || null,
    );
    expect(['PENDING', 'SENDING']).toContain((await endpoint()).deliveries[0]?.status);
    // the worker sends it and records the attempt; the database is the judge of when
    await waitUntil(
      'the attempt recorded',
      async () =>
        (
          await t.c.orm.em
            .fork()
            .getConnection()
            .execute(`select 1 from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id where e.url = ? and d.status = 'succeeded'`, [url])
        ).length > 0 || null,
    );
    expect((await endpoint()).deliveries).toMatchObject([{ event: 'BROADCAST_SCHEDULED', status: 'SUCCEEDED', attempts: [{ statusCode: 200 }] }]);
  }

  it('never keeps an answer with errors, nor a mutation', async () => {
    const viewer = await login('viewer@demo.tv', 'demo-viewer-pass');
    const keys = 'query { channel(slug: "demo-tv") { slug apiKeys { name } } }';
    const first = await gql(viewer, keys);
    expect(first.body.errors[0].extensions.code).toBe('forbidden');
    expect(await countStatements(() => gql(viewer, keys))).toBeGreaterThan(0);
    const create = 'mutation { createChannelApiKey(channel: "demo-tv", name: "twice", scopes: [READ]) { secret } }';
    const a = await gql(owner, create);
    const b = await gql(owner, create);
    expect(a.body.data.createChannelApiKey.secret).not.toBe(b.body.data.createChannelApiKey.secret);
  });
});
