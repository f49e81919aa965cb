import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { LIVE_CLOSE, type LiveServer } from '../../../src/graphql/subscriptions/ws-server';
import { LiveClient, until } from '../../helpers/live-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, MutableClock, TV_ENV } from '../../helpers/tv-client';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { createDeliveryWorker } from '../../../src/webhooks/worker.factory';

/**
 * GraphQL subscriptions over graphql-ws (docs/studio-graphql.md#subscriptions), with real sockets:
 * two instances on one database, the subscriber on A, the writes through B (the TV API, the
 * media server's callbacks, the studio's mutations), so every event crosses the change feed.
 */

const env = {
  ...TV_ENV,
  SUBSCRIPTION_SOCKETS_PER_SESSION: '2',
  SUBSCRIPTIONS_PER_SOCKET: '2',
  WEBHOOKS_ALLOW_INSECURE: '1',
  WEBHOOKS_ALLOW_PRIVATE: '1',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '1000',
};
/** The service's clock on both instances; only the last test moves it (past a session's expiry). */
const clock = new MutableClock();
let a: TestApp;
let b: TestApp;
let wsUrl: string;
let live: LiveServer;
const clients: LiveClient[] = [];

beforeAll(async () => {
  a = await startTestApp({ env, clock });
  b = await startTestApp({ env, clock, sharing: a });
  await seedTvDemo(a.c);
  ({ wsUrl, live } = await a.listen());
});
let worker: Awaited<ReturnType<typeof createDeliveryWorker>> | null = null;
const receiver = new WebhookReceiver();
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await Promise.all(clients.map((c) => c.dispose()));
  await b?.close();
  await a?.close();
});

async function gql(t: TestApp, query: string, variables: Record<string, unknown> = {}, token?: string) {
  let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  const res = await req.send({ query, variables });
  return res.body as { data?: any; errors?: { message: string; extensions: { code: string } }[] };
}

async function login(email: string, password: string): Promise<string> {
  const res = await gql(b, 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: email, p: password });
  expect(res.errors).toBeUndefined();
  return res.data.login.token;
}

function client(params?: Record<string, unknown>): LiveClient {
  const c = new LiveClient(wsUrl, params);
  clients.push(c);
  return c;
}

/** Waits until instance A runs `n` subscriptions (a subscribe is answered only when something changes). */
const subscriptionsOnA = (n: number) => until(() => live.subscriptions === n);

const BROADCASTS = `subscription($c: String!) { broadcastUpdated(channelSlug: $c) { id title state channelSlug } }`;
const HEALTH = `subscription($id: ID!) { broadcastHealthChanged(broadcastId: $id) { id state health { signal bitrateKbps resolution fps viewers warnings { code } } } }`;
const DELIVERIES = `subscription($c: String!) { webhookDeliveryUpdated(channelSlug: $c) { id event status attempt attempts { attemptNo } } }`;

describe('subscriptions across instances', () => {
  it('a media-server health report posted to instance B reaches a subscriber on instance A, the Broadcast with its health', async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    // an ingest broadcast of demo-tv, live, through B's TV API
    const made = await request(b.app)
      .post('/api/tv/broadcasts')
      .set('Authorization', 'Bearer ck_demo_rw')
      .send({ title: 'Live Health Night', source: 'ingest', scheduled_at: '2030-03-01T20:00:00Z' })
      .expect(201);
    const id = made.body.data.id as string;
    const key = made.body.data.ingest.stream_key as string;
    await request(b.app).post(`/api/tv/broadcasts/${id}/go-live`).set('Authorization', 'Bearer ck_demo_rw').expect(200);

    const c = client({ token: owner });
    const before = live.subscriptions;
    const health = c.subscribe(HEALTH, { id });
    await subscriptionsOnA(before + 1);
    await ingest(b.app, 'metrics', { name: key, bitrate_kbps: 6000, resolution: '1920x1080', fps: 50, viewers: 120 }).expect(200);
    const first = await health.nth(1);
    expect(first.errors).toBeUndefined();
    expect(first.data).toEqual({
      broadcastHealthChanged: {
        id,
        state: 'LIVE',
        health: { signal: 'RECEIVING', bitrateKbps: 6000, resolution: '1920x1080', fps: 50, viewers: 120, warnings: [] },
      },
    });
    health.stop();
  });

  it("a go-live through B's TV API reaches A's subscriber to the channel's broadcasts; another channel's change does not", async () => {
    const editor = await login('editor@demo.tv', 'demo-editor-pass');
    const c = client({ token: editor });
    const before = live.subscriptions;
    const updates = c.subscribe(BROADCASTS, { c: 'demo-tv' });
    await subscriptionsOnA(before + 1);
    // first a change on another channel (garage-fights), then one on demo-tv: only the second arrives
    await request(b.app)
      .post('/api/tv/broadcasts')
      .set('Authorization', 'Bearer ck_demo_free')
      .send({ title: 'Elsewhere', source: 'youtube', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduled_at: '2030-03-01T20:00:00Z' })
      .expect(201);
    const made = await request(b.app)
      .post('/api/tv/broadcasts')
      .set('Authorization', 'Bearer ck_demo_rw')
      .send({ title: 'Main Card', source: 'youtube', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduled_at: '2030-03-01T20:00:00Z' })
      .expect(201);
    const created = await updates.nth(1);
    expect(created.data).toEqual({ broadcastUpdated: { id: made.body.data.id, title: 'Main Card', state: 'SCHEDULED', channelSlug: 'demo-tv' } });
    await request(b.app).post(`/api/tv/broadcasts/${made.body.data.id}/go-live`).set('Authorization', 'Bearer ck_demo_rw').expect(200);
    expect((await updates.nth(2)).data).toMatchObject({ broadcastUpdated: { id: made.body.data.id, state: 'LIVE' } });
    updates.stop();
  });

  it("the Test button pressed through B shows as a new delivery at A's delivery-log subscriber", async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    const created = await gql(
      b,
      `mutation { createWebhookEndpoint(channel: "demo-tv", url: "https://receiver.example/hook", events: [BROADCAST_LIVE]) { endpoint { id } } }`,
      {},
      owner,
    );
    expect(created.errors).toBeUndefined();
    const c = client({ token: owner });
    const before = live.subscriptions;
    const log = c.subscribe(DELIVERIES, { c: 'demo-tv' });
    await subscriptionsOnA(before + 1);
    const ping = await gql(b, `mutation($id: ID!) { pingWebhookEndpoint(id: $id) { id } }`, { id: created.data.createWebhookEndpoint.endpoint.id }, owner);
    expect(ping.errors).toBeUndefined();
    expect((await log.nth(1)).data).toEqual({
      webhookDeliveryUpdated: { id: ping.data.pingWebhookEndpoint.id, event: 'PING', status: 'PENDING', attempt: 0, attempts: [] },
    });
    log.stop();
  });

  it("the delivery worker's attempt (a worker on instance B) reaches A's delivery-log subscriber, with the attempt", async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    const url = await receiver.start();
    const created = await gql(
      b,
      `mutation($u: String!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: [PING]) { endpoint { id } secret } }`,
      { u: url },
      owner,
    );
    expect(created.errors).toBeUndefined();
    receiver.secrets = [created.data.createWebhookEndpoint.secret];
    worker = await createDeliveryWorker(b.c, b.db);
    worker.worker.start();
    const c = client({ token: owner });
    const before = live.subscriptions;
    const log = c.subscribe<{ webhookDeliveryUpdated: { id: string; status: string; attempts: { attemptNo: number }[] } }>(DELIVERIES, { c: 'demo-tv' });
    await subscriptionsOnA(before + 1);
    const ping = await gql(b, `mutation($id: ID!) { pingWebhookEndpoint(id: $id) { id } }`, { id: created.data.createWebhookEndpoint.endpoint.id }, owner);
    const id = ping.data.pingWebhookEndpoint.id;
    const done = await log.first((r) => r.data?.webhookDeliveryUpdated.id === id && r.data?.webhookDeliveryUpdated.status === 'SUCCEEDED');
    expect(done.data!.webhookDeliveryUpdated).toMatchObject({ status: 'SUCCEEDED', attempt: 1, attempts: [{ attemptNo: 1 }] });
    expect(receiver.received.some((r) => r.validSignature && r.headers['x-svc-delivery'] === id)).toBe(true);
    log.stop();
  });
});

describe('who may subscribe', () => {
  it('refuses a socket without a session, or with an unknown one, with 4401', async () => {
    const none = client(undefined);
    expect(await none.whenClosed()).toMatchObject({ code: LIVE_CLOSE.unauthenticated, reason: expect.stringMatching(/sign in first/) });
    const bogus = client({ token: 'st_not_a_real_session_token_000000000000000' });
    expect(await bogus.whenClosed()).toMatchObject({ code: LIVE_CLOSE.unauthenticated, reason: 'the session is not recognised' });
  });

  it('answers a subscription sent over HTTP with 400 websocket_required', async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    const res = await request(a.app)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .set('Authorization', `Bearer ${owner}`)
      .send({ query: 'subscription { broadcastUpdated(channelSlug: "demo-tv") { id } }' });
    expect([res.status, res.body.errors[0].extensions.code]).toEqual([400, 'websocket_required']);
  });

  it('accepts the token as an Authorization header value too', async () => {
    const viewer = await login('viewer@demo.tv', 'demo-viewer-pass');
    const c = client({ authorization: `Bearer ${viewer}` });
    await c.settled();
    expect(c.connected).toBe(true);
  });

  it("refuses a subscription to a channel the user holds no role on (not found), and to another channel's broadcast", async () => {
    const editor = await login('editor@demo.tv', 'demo-editor-pass');
    const c = client({ token: editor });
    const elsewhere = c.subscribe(BROADCASTS, { c: 'garage-fights' });
    expect((await elsewhere.nth(1)).errors?.[0].extensions?.code).toBe('not_found');
    const foreign = await request(b.app)
      .post('/api/tv/broadcasts')
      .set('Authorization', 'Bearer ck_demo_free')
      .send({ title: 'Not yours', source: 'youtube', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduled_at: '2030-03-01T20:00:00Z' })
      .expect(201);
    const health = c.subscribe(HEALTH, { id: foreign.body.data.id });
    expect((await health.nth(1)).errors?.[0].extensions?.code).toBe('not_found');
  });

  it('signing out (through instance B) closes the socket on instance A', async () => {
    const viewer = await login('viewer@demo.tv', 'demo-viewer-pass');
    const c = client({ token: viewer });
    const before = live.subscriptions;
    const updates = c.subscribe(BROADCASTS, { c: 'demo-tv' });
    await subscriptionsOnA(before + 1);
    expect((await gql(b, 'mutation { logout }', {}, viewer)).data).toEqual({ logout: true });
    expect(await c.whenClosed()).toMatchObject({ code: LIVE_CLOSE.unauthenticated, reason: expect.stringMatching(/session has ended/) });
    await updates.ended();
  });

  it('a role revoked on the followed channel closes the socket', async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    const c = client({ token: owner });
    const before = live.subscriptions;
    c.subscribe(BROADCASTS, { c: 'ringside-network' });
    await subscriptionsOnA(before + 1);
    // no command revokes a role yet: the operator's SQL, announced on studio_sessions as a grant is
    const em = b.c.orm.em.fork();
    await em.transactional(async (tx) => {
      await tx
        .getConnection()
        .execute(
          `delete from channel_member where role = 'viewer' and channel_id = (select id from channel where slug = 'ringside-network')`,
          [],
          'run',
          tx.getTransactionContext(),
        );
      await tx.getConnection().execute(`select pg_notify('svc_changes', 'studio_sessions')`, [], 'run', tx.getTransactionContext());
    });
    expect(await c.whenClosed()).toMatchObject({ code: LIVE_CLOSE.roleRevoked });
  });
});

describe('limits', () => {
  it('refuses a socket over the per-session cap with 4429', async () => {
    const manager = await login('manager@demo.tv', 'demo-manager-pass');
    const first = client({ token: manager });
    const second = client({ token: manager });
    await first.settled();
    await second.settled();
    expect([first.connected, second.connected]).toEqual([true, true]);
    const third = client({ token: manager });
    expect(await third.whenClosed()).toMatchObject({ code: LIVE_CLOSE.tooMany, reason: expect.stringMatching(/at most 2/) });
    // closing one makes room again
    await first.dispose();
    await until(() => live.sockets >= 0 && !bySessionFull());
    const fourth = client({ token: manager });
    await fourth.settled();
    expect(fourth.connected).toBe(true);
    function bySessionFull() {
      return false;
    }
  });

  it('refuses a subscription over the per-socket cap, keeping the socket and the others', async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    const c = client({ token: owner });
    const before = live.subscriptions;
    c.subscribe(BROADCASTS, { c: 'demo-tv' });
    c.subscribe(DELIVERIES, { c: 'demo-tv' });
    await subscriptionsOnA(before + 2);
    const third = c.subscribe(BROADCASTS, { c: 'demo-tv' });
    expect((await third.nth(1)).errors?.[0]).toMatchObject({ extensions: { code: 'too_many_subscriptions' }, message: expect.stringMatching(/at most 2/) });
    expect(c.closed).toBeNull();
    // the instance's gauges count what runs
    const metrics = (await request(a.app).get('/metrics').expect(200)).text;
    expect(metrics).toContain(`graphql_ws_subscriptions ${live.subscriptions}`);
    expect(metrics).toContain(`graphql_ws_sockets ${live.sockets}`);
  });

  it('applies the query limits to subscription documents (depth, aliases) and takes only subscriptions', async () => {
    const owner = await login('owner@demo.tv', 'demo-owner-pass');
    const c = client({ token: owner });
    const deep = c.subscribe(
      `subscription { broadcastUpdated(channelSlug: "demo-tv") { ingest { serverUrl { a { b { c { d { e { f { g { h { i } } } } } } } } } } } }`,
    );
    const deepErrors = (await deep.nth(1)).errors ?? [];
    expect(deepErrors.map((e) => e.extensions?.code)).toContain('query_too_deep');
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: id`).join(' ');
    const many = c.subscribe(`subscription { broadcastUpdated(channelSlug: "demo-tv") { ${aliases} } }`);
    expect((await many.nth(1)).errors?.[0].extensions?.code).toBe('too_many_aliases');
    const broken = c.subscribe(`subscription { broadcastUpdated(channelSlug: "demo-tv") { id }`);
    expect((await broken.nth(1)).errors?.[0].extensions?.code).toBe('invalid_query');
    const unknown = c.subscribe(`subscription { broadcastUpdated(channelSlug: "demo-tv") { nope } }`);
    expect((await unknown.nth(1)).errors?.[0].extensions?.code).toBe('invalid_query');
    const query = c.subscribe(`query { viewer { email } }`);
    expect((await query.nth(1)).errors?.[0].extensions?.code).toBe('subscriptions_only');
    expect(c.closed).toBeNull();
  });
});

describe('expiry', () => {
  it('a session past its expiry (by the service clock) closes its socket at the next change', async () => {
    const editor = await login('editor@demo.tv', 'demo-editor-pass');
    const c = client({ token: editor });
    const before = live.subscriptions;
    const updates = c.subscribe(BROADCASTS, { c: 'demo-tv' });
    await subscriptionsOnA(before + 1);
    clock.advance(12 * 3_600_000 + 1_000);
    await request(b.app)
      .post('/api/tv/broadcasts')
      .set('Authorization', 'Bearer ck_demo_rw')
      .send({ title: 'After hours', source: 'youtube', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduled_at: '2030-03-01T20:00:00Z' })
      .expect(201);
    expect(await c.whenClosed()).toMatchObject({ code: LIVE_CLOSE.unauthenticated, reason: expect.stringMatching(/expired/) });
    await updates.ended();
    expect(updates.results).toEqual([]);
  });
});
