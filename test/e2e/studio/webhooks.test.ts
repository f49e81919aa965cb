import { operator } from '../../../src/domain/channels/channel-access';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import type { DomainError } from '../../../src/domain/errors';
import { ChannelWebhookService } from '../../../src/webhooks/channel-webhook.service';
import { channelWebhookStorage } from '../../../src/webhooks/channel-webhook.repository';
import { createDeliveryWorker } from '../../../src/webhooks/worker.factory';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { fakeResolver, TEST_DNS } from '../../helpers/fake-resolver';
import { WebhookReceiver, type Received } from '../../helpers/webhook-receiver';
import { EVENT_ID, header, ISO_WITH_OFFSET, signedWith, sleep, UUID, waitUntil } from '../../helpers/webhooks';

/**
 * docs/decisions.md#studio-schema in the studio: a channel's webhook endpoints (list, create with the secret shown once,
 * change, delete, rotate the secret, the Test button) and each endpoint's delivery log with its
 * attempts (redeliver one, recover failed ones), with docs/decisions.md#studio-roles's roles: owner and manager change,
 * every role reads, another channel is not found. Deliveries go to real loopback receivers.
 */

const BROADCAST_EVENTS = ['broadcast.scheduled', 'broadcast.live', 'broadcast.ended', 'replay.ready'];
/** The same events as the GraphQL enum ChannelWebhookEvent names them. */
const BROADCAST_EVENT_NAMES = ['BROADCAST_SCHEDULED', 'BROADCAST_LIVE', 'BROADCAST_ENDED', 'REPLAY_READY'];
type Who = 'owner' | 'manager' | 'editor' | 'viewer' | 'garage';

let t: TestApp;
let worker: Awaited<ReturnType<typeof createDeliveryWorker>>;
const tokens = {} as Record<Who, string>;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  t = await startTestApp({
    env: { WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms', WEBHOOK_POLL_MS: '50' },
  });
  await seedTvDemo(t.c);
  // The owner of another channel, who holds no role on demo-tv.
  await t.c.services.studioUsers.create(operator({ id: 'test' }), { email: 'garage@demo.tv', password: 'garage-owner-pass' });
  await t.c.services.studioUsers.grant(operator({ id: 'test' }), { email: 'garage@demo.tv', channelSlug: 'garage-fights', role: 'owner' });
  for (const [who, email, password] of [
    ['owner', 'owner@demo.tv', 'demo-owner-pass'],
    ['manager', 'manager@demo.tv', 'demo-manager-pass'],
    ['editor', 'editor@demo.tv', 'demo-editor-pass'],
    ['viewer', 'viewer@demo.tv', 'demo-viewer-pass'],
    ['garage', 'garage@demo.tv', 'garage-owner-pass'],
  ] as const) {
    const res = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: email, p: password });
    tokens[who] = res.body.data.login.token;
  }
  worker = await createDeliveryWorker(t.c, t.db);
  worker.worker.start();
});
afterAll(async () => {
  await worker?.close();
  await Promise.all(receivers.map((r) => r.stop()));
  await t?.close();
});

function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return req.send({ query, variables });
}

/** The data of an answer that must have no errors. */
async function ok(res: Promise<request.Response> | request.Response): Promise<any> {
  const body = (await res).body;
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** The code of the first error (extensions.code), or 'ok' when there was none. */
async function code(res: Promise<request.Response> | request.Response): Promise<string> {
  const body = (await res).body;
  return body.errors ? body.errors[0].extensions?.code : 'ok';
}

async function newReceiver(): Promise<{ r: WebhookReceiver; url: string }> {
  const r = new WebhookReceiver();
  receivers.push(r);
  return { r, url: await r.start() };
}

const ENDPOINT = 'id url events enabled disabledReason secretSwitchAt createdAt';
const DELIVERY = 'id eventId event status attempt nextAttemptAt replayOf lastStatusCode lastError createdAt completedAt';
const ATTEMPT = 'attemptNo startedAt durationMs requestHeaders statusCode error responseExcerpt';

async function createEndpoint(who: Who, url: string, events: string[], channel = 'demo-tv'): Promise<{ endpoint: any; secret: string }> {
  const data = await ok(
    gql(
      `mutation($c: String!, $u: String!, $e: [ChannelWebhookEvent!]!) { createWebhookEndpoint(channel: $c, url: $u, events: $e) { secret endpoint { ${ENDPOINT} } } }`,
      { c: channel, u: url, e: events },
      tokens[who],
    ),
  );
  return data.createWebhookEndpoint;
}

/** The channel's endpoints as `who` sees them in the studio. */
async function endpoints(who: Who, channel = 'demo-tv'): Promise<any[]> {
  return (await ok(gql(`query($c: String!) { channel(slug: $c) { webhookEndpoints { ${ENDPOINT} } } }`, { c: channel }, tokens[who]))).channel.webhookEndpoints;
}

/** An endpoint's delivery log (newest first, with attempts) as `who` sees it. */
async function deliveryLog(who: Who, endpointId: string, first = 20, channel = 'demo-tv'): Promise<any[]> {
  const data = await ok(
    gql(
      `query($c: String!, $f: Int!) { channel(slug: $c) { webhookEndpoints { id deliveries(first: $f) { ${DELIVERY} attempts { ${ATTEMPT} } } } } }`,
      { c: channel, f: first },
      tokens[who],
    ),
  );
  const endpoint = data.channel.webhookEndpoints.find((e: any) => e.id === endpointId);
  expect(endpoint).toBeDefined();
  return endpoint.deliveries;
}

const settled = (d: any) => d.status === 'SUCCEEDED' || d.status === 'FAILED';
async function waitForLog(endpointId: string, what: string, test: (log: any[]) => boolean, who: Who = 'viewer', channel = 'demo-tv'): Promise<any[]> {
  return waitUntil(what, async () => {
    const log = await deliveryLog(who, endpointId, 100, channel);
    return test(log) ? log : null;
  });
}

const ping = (who: Who, id: string) => gql(`mutation($id: ID!) { pingWebhookEndpoint(id: $id) { ${DELIVERY} } }`, { id }, tokens[who]);
const redeliver = (who: Who, id: string) => gql(`mutation($id: ID!) { redeliverWebhookDelivery(id: $id) { ${DELIVERY} } }`, { id }, tokens[who]);
const recover = (who: Who, endpoint: string, since: Date, until?: Date) =>
  gql(
    `mutation($e: ID!, $s: DateTimeISO!, $u: DateTimeISO) { recoverWebhookDeliveries(endpoint: $e, since: $s, until: $u) { ${DELIVERY} } }`,
    { e: endpoint, s: since.toISOString(), u: until?.toISOString() ?? null },
    tokens[who],
  );
const rotate = (who: Who, id: string, switchAt?: Date) =>
  gql(
    `mutation($id: ID!, $at: DateTimeISO) { rotateWebhookSecret(id: $id, switchAt: $at) { secret switchAt endpoint { ${ENDPOINT} } } }`,
    { id, at: switchAt?.toISOString() ?? null },
    tokens[who],
  );
const update = (who: Who, id: string, patch: { url?: string; events?: string[]; enabled?: boolean }) =>
  gql(
    `mutation($id: ID!, $u: String, $e: [ChannelWebhookEvent!], $on: Boolean) { updateWebhookEndpoint(id: $id, url: $u, events: $e, enabled: $on) { ${ENDPOINT} } }`,
    { id, u: patch.url ?? null, e: patch.events ?? null, on: patch.enabled ?? null },
    tokens[who],
  );
const remove = (who: Who, id: string) => gql(`mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`, { id }, tokens[who]);

async function auditActions(subject: string): Promise<{ actor: string; action: string }[]> {
  return t.c.orm.em.getConnection().execute(`select actor, action from audit_entry where subject = ? order by at, action`, [subject]);
}

async function channelId(slug: string): Promise<string> {
  const [row] = await t.c.orm.em.getConnection().execute<{ id: string }[]>(`select id from channel where slug = ?`, [slug]);
  return row.id;
}

describe('webhook endpoints in the studio', () => {
  it('an owner creates an endpoint and sees its secret once; every role of the channel lists it, without the secret', async () => {
    const { url } = await newReceiver();
    const created = await createEndpoint('owner', url, ['BROADCAST_LIVE', 'PING', 'BROADCAST_LIVE']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.endpoint).toMatchObject({ url, events: ['BROADCAST_LIVE', 'PING'], enabled: true, disabledReason: null, secretSwitchAt: null });
    expect(created.endpoint.id).toMatch(UUID);
    expect(created.endpoint.createdAt).toMatch(ISO_WITH_OFFSET);

    for (const who of ['owner', 'manager', 'editor', 'viewer'] as const) {
      const listed = (await endpoints(who)).find((e) => e.id === created.endpoint.id);
      expect(listed).toEqual(created.endpoint);
    }
    // The secret is not part of the endpoint: it cannot be asked for again.
    const again = await gql(`{ channel(slug: "demo-tv") { webhookEndpoints { id secret } } }`, {}, tokens.owner);
    expect(again.body.errors[0].extensions.code).toBe('invalid_query');
    expect(JSON.stringify((await gql(`{ channel(slug: "demo-tv") { webhookEndpoints { ${ENDPOINT} } } }`, {}, tokens.owner)).body)).not.toContain(
      created.secret,
    );
    // The other channel's owner neither sees the channel nor its endpoints.
    expect(await code(gql(`{ channel(slug: "demo-tv") { webhookEndpoints { id } } }`, {}, tokens.garage))).toBe('not_found');
    expect(await endpoints('garage', 'garage-fights')).toEqual([]);
    expect(await auditActions(created.endpoint.id)).toEqual([{ actor: 'studio:owner@demo.tv', action: 'channel-webhooks.create' }]);
  });

  it('creating: a manager may, an editor and a viewer may not, another channel is not found; bad urls and events are refused', async () => {
    const { url } = await newReceiver();
    const before = (await endpoints('owner')).length;
    expect(
      await code(gql(`mutation($u: String!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: [PING]) { secret } }`, { u: url }, tokens.editor)),
    ).toBe('forbidden');
    expect(
      await code(gql(`mutation($u: String!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: [PING]) { secret } }`, { u: url }, tokens.viewer)),
    ).toBe('forbidden');
    expect(
      await code(gql(`mutation($u: String!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: [PING]) { secret } }`, { u: url }, tokens.garage)),
    ).toBe('not_found');
    // The demo owner is only a viewer on ringside-network: reads, cannot create.
    expect(await endpoints('owner', 'ringside-network')).toEqual([]);
    expect(
      await code(
        gql(`mutation($u: String!) { createWebhookEndpoint(channel: "ringside-network", url: $u, events: [PING]) { secret } }`, { u: url }, tokens.owner),
      ),
    ).toBe('forbidden');
    expect(
      await code(
        gql(`mutation($u: String!) { createWebhookEndpoint(channel: "no-such-channel", url: $u, events: [PING]) { secret } }`, { u: url }, tokens.owner),
      ),
    ).toBe('not_found');
    expect((await endpoints('owner')).length).toBe(before);

    const bad = (u: string, events: string[]) =>
      code(
        gql(
          `mutation($u: String!, $e: [ChannelWebhookEvent!]!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: $e) { secret } }`,
          { u, e: events },
          tokens.manager,
        ),
      );
    expect(await bad('not a url', ['PING'])).toBe('invalid_url');
    expect(await bad('ftp://hooks.example.com/x', ['PING'])).toBe('invalid_url');
    expect(await bad('https://user:pw@hooks.example.com/x', ['PING'])).toBe('invalid_url');
    expect(await bad(url, ['RESULT_VERIFIED'])).toBe('invalid_variables');
    expect(await bad(url, [])).toBe('invalid_events');
    expect((await endpoints('owner')).length).toBe(before);

    const made = await createEndpoint('manager', url, BROADCAST_EVENT_NAMES);
    expect(made.endpoint.events).toEqual(BROADCAST_EVENT_NAMES);
    expect((await endpoints('viewer')).map((e) => e.id)).toContain(made.endpoint.id);
    expect(await auditActions(made.endpoint.id)).toEqual([{ actor: 'studio:manager@demo.tv', action: 'channel-webhooks.create' }]);
    await ok(remove('manager', made.endpoint.id));
  });

  it('without WEBHOOKS_ALLOW_INSECURE and WEBHOOKS_ALLOW_PRIVATE, http and private targets are invalid_url', async () => {
    const strict = new ChannelWebhookService(
      channelWebhookStorage(t.c.uow, { outbox: t.c.outbox, endpoints: t.c.services.webhooks, log: t.c.services.deliveries }),
      t.c.clock,
      { allowInsecure: false, allowPrivate: false, resolve: fakeResolver(TEST_DNS) },
    );
    const owner = await t.c.services.studioAuth.authenticate(tokens.owner);
    const demo = await channelId('demo-tv');
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: DomainError) => e.code,
      );
    expect(await refusal(strict.create(owner, demo, { url: 'http://hooks.example.com/svc', events: ['ping'] }))).toBe('invalid_url');
    expect(await refusal(strict.create(owner, demo, { url: 'https://127.0.0.1/svc', events: ['ping'] }))).toBe('invalid_url');
    expect(await refusal(strict.create(owner, demo, { url: 'https://10.1.2.3/svc', events: ['ping'] }))).toBe('invalid_url');
    expect(await refusal(strict.create(owner, demo, { url: 'https://localhost/svc', events: ['ping'] }))).toBe('invalid_url');
    expect(await refusal(strict.create(owner, demo, { url: 'https://[::127.0.0.1]/svc', events: ['ping'] }))).toBe('invalid_url');
    expect(await refusal(strict.create(owner, demo, { url: 'https://loopback.example.com/svc', events: ['ping'] }))).toBe('invalid_url');
    expect(await refusal(strict.create(owner, demo, { url: 'https://hooks.example.com:0/svc', events: ['ping'] }))).toBe('invalid_url');
    const made = await strict.create(owner, demo, { url: 'https://hooks.example.com/svc', events: ['ping'] });
    expect(made.endpoint.url).toBe('https://hooks.example.com/svc');
    expect(await refusal(strict.update(owner, made.endpoint.id, { url: 'http://hooks.example.com/svc' }))).toBe('invalid_url');
    // The role is checked in the domain too, whatever the door.
    const viewer = await t.c.services.studioAuth.authenticate(tokens.viewer);
    expect(await refusal(strict.create(viewer, demo, { url: 'https://hooks.example.com/svc', events: ['ping'] }))).toBe('forbidden');
    expect(await refusal(strict.remove(viewer, made.endpoint.id))).toBe('forbidden');
    await strict.remove(owner, made.endpoint.id);
    expect((await endpoints('owner')).map((e) => e.id)).not.toContain(made.endpoint.id);
  });

  it('the Test button sends a signed ping to that endpoint only, and the delivery log shows it with its attempt', async () => {
    const { r, url } = await newReceiver();
    r.responseBody = 'pong from the receiver';
    const other = await newReceiver();
    const { endpoint, secret } = await createEndpoint('owner', url, ['BROADCAST_LIVE']);
    r.secrets = [secret];
    const bystander = await createEndpoint('owner', other.url, ['PING', ...BROADCAST_EVENT_NAMES]);
    other.r.secrets = [bystander.secret];

    const sent = (await ok(ping('manager', endpoint.id))).pingWebhookEndpoint;
    expect(sent).toMatchObject({ event: 'PING', status: 'PENDING', attempt: 0, replayOf: null, lastStatusCode: null, completedAt: null });
    expect(sent.id).toMatch(UUID);
    expect(sent.eventId).toMatch(EVENT_ID);

    await r.waitFor(1);
    const [got] = r.received;
    expect(got.validSignature).toBe(true);
    expect(signedWith(got, secret)).toBe(true);
    expect(got.json).toMatchObject({
      id: sent.eventId,
      event: 'ping',
      data: { channel: { slug: 'demo-tv', name: 'Demo TV' }, message: 'ping from the studio' },
    });
    expect(header(got, 'X-SVC-Event')).toBe('ping');
    expect(header(got, 'X-SVC-Delivery')).toBe(sent.id);
    expect(header(got, 'X-SVC-Attempt')).toBe('1');

    // A viewer reads the log: the delivery succeeded, with its one attempt as it was sent.
    const log = await waitForLog(endpoint.id, 'the ping to succeed', (l) => l.length === 1 && l[0].status === 'SUCCEEDED');
    const [delivery] = log;
    expect(delivery).toMatchObject({
      id: sent.id,
      eventId: sent.eventId,
      event: 'PING',
      attempt: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(delivery.completedAt).toMatch(ISO_WITH_OFFSET);
    expect(delivery.attempts).toHaveLength(1);
    const [attempt] = delivery.attempts;
    expect(attempt).toMatchObject({ attemptNo: 1, statusCode: 200, error: null, responseExcerpt: 'pong from the receiver' });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(attempt.durationMs).toBeLessThan(10_000);
    expect(Math.abs(Date.parse(attempt.startedAt) - got.at)).toBeLessThan(5_000);
    expect(attempt.requestHeaders).toMatchObject({
      'X-SVC-Event': 'ping',
      'X-SVC-Delivery': sent.id,
      'X-SVC-Attempt': '1',
      'X-SVC-Timestamp': header(got, 'X-SVC-Timestamp'),
      'X-SVC-Signature': header(got, 'X-SVC-Signature'),
      'X-SVC-Signature-Timestamped': header(got, 'X-SVC-Signature-Timestamped'),
      'content-type': 'application/json',
    });
    expect(JSON.stringify(attempt.requestHeaders)).not.toContain(secret);

    // Only that endpoint: the other one, subscribed to ping, heard nothing, and logged nothing.
    await sleep(300);
    expect(other.r.received).toHaveLength(0);
    expect(r.received).toHaveLength(1);
    expect(await deliveryLog('owner', bystander.endpoint.id)).toEqual([]);
    expect((await auditActions(endpoint.id)).map((a) => `${a.actor} ${a.action}`)).toContain('studio:manager@demo.tv channel-webhooks.ping');

    // Editors and viewers cannot press the button; another channel's owner does not find the endpoint.
    expect(await code(ping('editor', endpoint.id))).toBe('forbidden');
    expect(await code(ping('viewer', endpoint.id))).toBe('forbidden');
    expect(await code(ping('garage', endpoint.id))).toBe('not_found');
    expect(await code(ping('owner', '00000000-0000-4000-8000-000000000000'))).toBe('not_found');
    expect(await code(ping('owner', 'not-an-id'))).toBe('not_found');
    await sleep(300);
    expect(r.received).toHaveLength(1);
    expect(await deliveryLog('viewer', endpoint.id)).toHaveLength(1);
    await ok(remove('owner', bystander.endpoint.id));
  });

  it('a failed delivery is redelivered with X-SVC-Replay-Of and the same payload id; the log keeps every attempt', async () => {
    const { r, url } = await newReceiver();
    r.responses = [500];
    const { endpoint, secret } = await createEndpoint('owner', url, ['PING']);
    r.secrets = [secret];
    const sent = (await ok(ping('owner', endpoint.id))).pingWebhookEndpoint;

    const failedLog = await waitForLog(endpoint.id, 'the ping to fail', (l) => l.length === 1 && l[0].status === 'FAILED');
    const original = failedLog[0];
    expect(original).toMatchObject({ id: sent.id, status: 'FAILED', attempt: 5, lastStatusCode: 500, lastError: 'HTTP 500' });
    expect(original.attempts.map((a: any) => [a.attemptNo, a.statusCode, a.responseExcerpt])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 500, 'no']));
    expect(original.attempts.map((a: any) => a.requestHeaders['X-SVC-Attempt'])).toEqual(['1', '2', '3', '4', '5']);
    expect(r.received).toHaveLength(5);

    // Only owners and managers redeliver; another channel's owner does not find the delivery.
    expect(await code(redeliver('viewer', original.id))).toBe('forbidden');
    expect(await code(redeliver('editor', original.id))).toBe('forbidden');
    expect(await code(redeliver('garage', original.id))).toBe('not_found');
    expect(await code(redeliver('owner', '00000000-0000-4000-8000-000000000000'))).toBe('not_found');

    r.responses = [200];
    const replay = (await ok(redeliver('manager', original.id))).redeliverWebhookDelivery;
    expect(replay).toMatchObject({ replayOf: original.id, eventId: original.eventId, event: 'PING', status: 'PENDING', attempt: 0 });
    expect(replay.id).not.toBe(original.id);
    await r.waitFor(6);
    const again = r.received[5];
    expect(header(again, 'X-SVC-Replay-Of')).toBe(original.id);
    expect(header(again, 'X-SVC-Delivery')).toBe(replay.id);
    expect(header(again, 'X-SVC-Attempt')).toBe('1');
    expect(again.json.id).toBe(original.eventId);
    expect(again.body).toBe(r.received[0].body);
    expect(again.validSignature).toBe(true);
    expect(header(r.received[0], 'X-SVC-Replay-Of')).toBeUndefined();

    const log = await waitForLog(endpoint.id, 'the redelivery to succeed', (l) => l.length === 2 && l.every(settled));
    // Newest first: the redelivery, then the original.
    expect(log.map((d) => [d.id, d.status, d.replayOf])).toEqual([
      [replay.id, 'SUCCEEDED', original.id],
      [original.id, 'FAILED', null],
    ]);
    expect(log[0].attempts).toHaveLength(1);
    expect(log[0].attempts[0]).toMatchObject({ attemptNo: 1, statusCode: 200 });
    expect(log[0].attempts[0].requestHeaders['X-SVC-Replay-Of']).toBe(original.id);
    expect(await deliveryLog('viewer', endpoint.id, 1)).toHaveLength(1);
    expect(await code(gql(`{ channel(slug: "demo-tv") { webhookEndpoints { deliveries(first: 0) { id } } } }`, {}, tokens.viewer))).toBe('invalid_first');
    expect((await auditActions(original.id)).map((a) => `${a.actor} ${a.action}`)).toEqual(['studio:manager@demo.tv deliveries.replay']);
  });

  it('recovers the failed deliveries of an endpoint since a time (and before another)', async () => {
    const { r, url } = await newReceiver();
    r.responses = [500];
    const { endpoint, secret } = await createEndpoint('manager', url, ['PING']);
    r.secrets = [secret];
    const since = new Date(Date.now() - 1000);
    const first = (await ok(ping('owner', endpoint.id))).pingWebhookEndpoint;
    await waitForLog(endpoint.id, 'the first ping to fail', (l) => l.length === 1 && l[0].status === 'FAILED');
    await sleep(50);
    const middle = new Date();
    await sleep(50);
    const second = (await ok(ping('owner', endpoint.id))).pingWebhookEndpoint;
    await waitForLog(endpoint.id, 'the second ping to fail', (l) => l.length === 2 && l.every((d) => d.status === 'FAILED'));
    expect(r.received).toHaveLength(10);

    expect(await code(recover('viewer', endpoint.id, since))).toBe('forbidden');
    expect(await code(recover('editor', endpoint.id, since))).toBe('forbidden');
    expect(await code(recover('garage', endpoint.id, since))).toBe('not_found');
    expect(await code(recover('owner', endpoint.id, middle, since))).toBe('invalid_until');

    r.responses = [200];
    // Only the failed ones created in [since, middle): the first ping.
    const once = (await ok(recover('owner', endpoint.id, since, middle))).recoverWebhookDeliveries;
    expect(once.map((d: any) => [d.replayOf, d.eventId, d.status])).toEqual([[first.id, first.eventId, 'PENDING']]);
    await r.waitFor(11);
    expect(header(r.received[10], 'X-SVC-Replay-Of')).toBe(first.id);
    expect(r.received[10].json.id).toBe(first.eventId);
    await waitForLog(endpoint.id, 'the first recovery to succeed', (l) => l.length === 3 && l.every(settled));

    // From middle on: only the second ping (the first one's recovery, created later, succeeded).
    const rest = (await ok(recover('manager', endpoint.id, middle))).recoverWebhookDeliveries;
    expect(rest.map((d: any) => d.replayOf)).toEqual([second.id]);
    await r.waitFor(12);
    expect(header(r.received[11], 'X-SVC-Replay-Of')).toBe(second.id);
    expect(r.received[11].json.id).toBe(second.eventId);
    expect(r.received.slice(10).every((x) => x.validSignature)).toBe(true);
    const log = await waitForLog(endpoint.id, 'every recovery to succeed', (l) => l.length === 4 && l.every(settled));
    expect(
      log
        .filter((d) => d.status === 'SUCCEEDED')
        .map((d) => d.replayOf)
        .sort(),
    ).toEqual([first.id, second.id].sort());
    expect((await auditActions(endpoint.id)).map((a) => `${a.actor} ${a.action}`)).toEqual(
      expect.arrayContaining(['studio:owner@demo.tv deliveries.recover', 'studio:manager@demo.tv deliveries.recover']),
    );
  });

  it('rotating the secret shows the new one once; the old one signs until the switch time', async () => {
    const { r, url } = await newReceiver();
    const { endpoint, secret: oldSecret } = await createEndpoint('owner', url, ['PING']);
    r.secrets = [oldSecret];

    expect(await code(rotate('editor', endpoint.id))).toBe('forbidden');
    expect(await code(rotate('viewer', endpoint.id))).toBe('forbidden');
    expect(await code(rotate('garage', endpoint.id))).toBe('not_found');

    const before = Date.now();
    const rotated = (await ok(rotate('manager', endpoint.id))).rotateWebhookSecret;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(oldSecret);
    // Default switch: 24 hours later.
    expect(Math.abs(Date.parse(rotated.switchAt) - (before + 24 * 3600_000))).toBeLessThan(60_000);
    expect(rotated.endpoint.secretSwitchAt).toBe(rotated.switchAt);
    expect((await endpoints('viewer')).find((e) => e.id === endpoint.id).secretSwitchAt).toBe(rotated.switchAt);
    expect(
      JSON.stringify(
        (await gql(`{ channel(slug: "demo-tv") { webhookEndpoints { ${ENDPOINT} deliveries { attempts { requestHeaders } } } } }`, {}, tokens.owner)).body,
      ),
    ).not.toContain(rotated.secret);

    // Before the switch: still signed with the old secret.
    await ok(ping('owner', endpoint.id));
    await r.waitFor(1);
    expect(signedWith(r.received[0], oldSecret)).toBe(true);
    expect(signedWith(r.received[0], rotated.secret)).toBe(false);

    // A rotation whose switch time has come: the new secret signs, the old one no longer does.
    const now = (await ok(rotate('owner', endpoint.id, new Date(Date.now() - 1000)))).rotateWebhookSecret;
    expect(now.secret).not.toBe(rotated.secret);
    await ok(ping('owner', endpoint.id));
    await r.waitFor(2);
    expect(signedWith(r.received[1], now.secret)).toBe(true);
    expect(signedWith(r.received[1], oldSecret)).toBe(false);
    expect((await auditActions(endpoint.id)).filter((a) => a.action === 'webhooks.rotate-secret').map((a) => a.actor)).toEqual([
      'studio:manager@demo.tv',
      'studio:owner@demo.tv',
    ]);
  });

  it('changes url, events and enabled; a disabled endpoint receives nothing; deleting hides it for good', async () => {
    const first = await newReceiver();
    const second = await newReceiver();
    const witness = await newReceiver();
    const { endpoint, secret } = await createEndpoint('owner', first.url, ['PING']);
    second.r.secrets = [secret];
    const w = await createEndpoint('owner', witness.url, ['BROADCAST_SCHEDULED']);
    witness.r.secrets = [w.secret];

    expect(await code(update('editor', endpoint.id, { enabled: false }))).toBe('forbidden');
    expect(await code(update('viewer', endpoint.id, { url: second.url }))).toBe('forbidden');
    expect(await code(update('garage', endpoint.id, { url: second.url }))).toBe('not_found');
    expect(await code(update('owner', endpoint.id, {}))).toBe('invalid_patch');
    expect(await code(update('owner', endpoint.id, { events: ['LICENCE_ISSUED'] }))).toBe('invalid_variables');
    expect(await code(update('owner', endpoint.id, { url: 'ftp://x.example/' }))).toBe('invalid_url');
    expect((await endpoints('owner')).find((e) => e.id === endpoint.id)).toEqual(endpoint);

    const moved = (await ok(update('manager', endpoint.id, { url: second.url, events: ['BROADCAST_SCHEDULED', 'PING'] }))).updateWebhookEndpoint;
    expect(moved).toMatchObject({ id: endpoint.id, url: second.url, events: ['BROADCAST_SCHEDULED', 'PING'], enabled: true });
    expect((await endpoints('viewer')).find((e) => e.id === endpoint.id)).toEqual(moved);
    await ok(ping('owner', endpoint.id));
    await second.r.waitFor(1);
    expect(second.r.received[0].validSignature).toBe(true);
    expect(first.r.received).toHaveLength(0);

    const off = (await ok(update('manager', endpoint.id, { enabled: false }))).updateWebhookEndpoint;
    expect(off).toMatchObject({ enabled: false, disabledReason: 'disabled in the studio by manager@demo.tv' });
    expect(await code(ping('owner', endpoint.id))).toBe('invalid_state');
    // A broadcast is scheduled: the witness hears of it, the disabled endpoint does not.
    const b = (
      await ok(
        gql(
          `mutation { createBroadcast(channel: "demo-tv", input: { title: "Quiet Night", source: MP4, sourceUrl: "https://cdn.demo.tv/q.mp4", scheduledAt: "2031-01-01T10:00:00Z" }) { id } }`,
          {},
          tokens.editor,
        ),
      )
    ).createBroadcast;
    await waitUntil('the witness to hear of the broadcast', () => witness.r.received.some((x) => (x.json.data.broadcast as any)?.id === b.id));
    await sleep(300);
    expect(second.r.received).toHaveLength(1);

    const on = (await ok(update('owner', endpoint.id, { enabled: true }))).updateWebhookEndpoint;
    expect(on).toMatchObject({ enabled: true, disabledReason: null });
    await ok(ping('owner', endpoint.id));
    await second.r.waitFor(2);
    const [delivered] = await deliveryLog('owner', endpoint.id);

    expect(await code(remove('editor', endpoint.id))).toBe('forbidden');
    expect(await code(remove('viewer', endpoint.id))).toBe('forbidden');
    expect(await code(remove('garage', endpoint.id))).toBe('not_found');
    expect((await endpoints('owner')).map((e) => e.id)).toContain(endpoint.id);
    expect(await ok(remove('manager', endpoint.id))).toEqual({ deleteWebhookEndpoint: true });
    for (const who of ['owner', 'manager', 'editor', 'viewer'] as const) expect((await endpoints(who)).map((e) => e.id)).not.toContain(endpoint.id);
    expect(await code(remove('owner', endpoint.id))).toBe('not_found');
    expect(await code(update('owner', endpoint.id, { enabled: true }))).toBe('not_found');
    expect(await code(ping('owner', endpoint.id))).toBe('not_found');
    expect(await code(rotate('owner', endpoint.id))).toBe('not_found');
    expect(await code(recover('owner', endpoint.id, new Date(0)))).toBe('not_found');
    expect(await code(redeliver('owner', delivered.id))).toBe('not_found');
    // Nothing more reaches it.
    await ok(
      gql(
        `mutation { createBroadcast(channel: "demo-tv", input: { title: "After Delete", source: MP4, sourceUrl: "https://cdn.demo.tv/a.mp4", scheduledAt: "2031-01-02T10:00:00Z" }) { id } }`,
        {},
        tokens.owner,
      ),
    );
    await waitUntil('the witness to hear of the second broadcast', () => witness.r.received.length >= 2);
    await sleep(300);
    expect(second.r.received).toHaveLength(2);
    expect((await auditActions(endpoint.id)).map((a) => `${a.actor} ${a.action}`)).toEqual(
      expect.arrayContaining([
        'studio:owner@demo.tv channel-webhooks.create',
        'studio:manager@demo.tv channel-webhooks.update',
        'studio:owner@demo.tv channel-webhooks.update',
        'studio:manager@demo.tv channel-webhooks.delete',
      ]),
    );
    await ok(remove('owner', w.endpoint.id));
  });

  it("another channel's endpoints and deliveries are not found, nor are partner endpoints", async () => {
    const { r, url } = await newReceiver();
    const garage = await createEndpoint('garage', url, ['PING'], 'garage-fights');
    r.secrets = [garage.secret];
    await ok(ping('garage', garage.endpoint.id));
    await r.waitFor(1);
    const [delivery] = await waitForLog(garage.endpoint.id, 'the garage ping', (l) => l.length === 1 && settled(l[0]), 'garage', 'garage-fights');
    expect((await endpoints('garage', 'garage-fights')).map((e) => e.id)).toEqual([garage.endpoint.id]);
    for (const who of ['owner', 'manager'] as const) {
      expect(await code(update(who, garage.endpoint.id, { enabled: false }))).toBe('not_found');
      expect(await code(rotate(who, garage.endpoint.id))).toBe('not_found');
      expect(await code(ping(who, garage.endpoint.id))).toBe('not_found');
      expect(await code(remove(who, garage.endpoint.id))).toBe('not_found');
      expect(await code(recover(who, garage.endpoint.id, new Date(0)))).toBe('not_found');
      expect(await code(redeliver(who, delivery.id))).toBe('not_found');
      expect(await code(gql(`{ channel(slug: "garage-fights") { webhookEndpoints { id } } }`, {}, tokens[who]))).toBe('not_found');
    }
    expect((await endpoints('garage', 'garage-fights'))[0]).toMatchObject({ id: garage.endpoint.id, enabled: true });
    expect(r.received).toHaveLength(1);

    await t.c.services.partners.create({ id: 'test' }, { slug: 'acme-media', name: 'Acme Media' });
    const partner = await t.c.services.webhooks.register({ id: 'test' }, { partnerSlug: 'acme-media', url, events: ['event.sanctioned'] });
    for (const who of ['owner', 'garage'] as const) {
      expect(await code(update(who, partner.endpoint.id, { enabled: false }))).toBe('not_found');
      expect(await code(rotate(who, partner.endpoint.id))).toBe('not_found');
      expect(await code(remove(who, partner.endpoint.id))).toBe('not_found');
    }
    expect((await t.c.services.webhooks.list({ partnerSlug: 'acme-media' }))[0]).toMatchObject({ enabled: true, nextSecret: null });
  });

  it('broadcast transitions made in the studio reach the channel endpoint, signed, and show in its log', async () => {
    const { r, url } = await newReceiver();
    const { endpoint, secret } = await createEndpoint('owner', url, BROADCAST_EVENT_NAMES);
    r.secrets = [secret];
    const created = (
      await ok(
        gql(
          `mutation { createBroadcast(channel: "demo-tv", input: { title: "Studio Hooks Night", source: MP4, sourceUrl: "https://cdn.demo.tv/hooks.mp4", scheduledAt: "2031-02-01T19:00:00Z" }) { id } }`,
          {},
          tokens.editor,
        ),
      )
    ).createBroadcast;
    await ok(gql(`mutation($id: ID!) { goLive(id: $id) { state } }`, { id: created.id }, tokens.editor));
    await ok(gql(`mutation($id: ID!) { endBroadcast(id: $id) { state } }`, { id: created.id }, tokens.manager));

    const mine = () => r.received.filter((x) => (x.json.data.broadcast as any)?.id === created.id);
    await waitUntil('four transitions at the receiver', () => mine().length >= 4);
    const byEvent = new Map<string, Received>(mine().map((x) => [x.json.event, x]));
    expect([...byEvent.keys()].sort()).toEqual([...BROADCAST_EVENTS].sort());
    for (const [event, x] of byEvent) {
      expect(x.validSignature).toBe(true);
      expect(header(x, 'X-SVC-Event')).toBe(event);
      expect((x.json.data.broadcast as any).channel).toEqual({ slug: 'demo-tv', name: 'Demo TV' });
    }
    expect(byEvent.get('broadcast.scheduled')!.json.data.broadcast as any).toMatchObject({ title: 'Studio Hooks Night', state: 'scheduled' });
    expect((byEvent.get('broadcast.live')!.json.data.broadcast as any).state).toBe('live');
    expect(byEvent.get('replay.ready')!.json.data.broadcast as any).toMatchObject({ state: 'replay', replay_url: 'https://cdn.demo.tv/hooks.mp4' });

    const log = await waitForLog(endpoint.id, 'four delivered transitions', (l) => l.length === 4 && l.every((d) => d.status === 'SUCCEEDED'));
    expect(log.map((d) => d.event).sort()).toEqual([...BROADCAST_EVENT_NAMES].sort());
    expect(new Set(log.map((d) => d.eventId))).toEqual(new Set(mine().map((x) => x.json.id)));
    // Newest first.
    const times = log.map((d) => Date.parse(d.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('the dashboard reads endpoints, deliveries and attempts in one statement each, however many there are', async () => {
    const conn = t.c.orm.em.getConnection('write');
    const spy = jest.spyOn(conn, 'execute');
    const webhookStatements = () =>
      spy.mock.calls
        .map((c) => String(c[0]))
        .filter((q) => /webhook_(endpoint|delivery|attempt)/.test(q) && !/skip locked|insert into webhook_attempt/.test(q));
    try {
      const count = async (query: string) => {
        spy.mockClear();
        const data = await ok(gql(query, {}, tokens.owner));
        return { statements: webhookStatements().length, data };
      };
      const all = await count(`{ viewer { channels { slug webhookEndpoints { id deliveries(first: 5) { id attempts { attemptNo } } } } } }`);
      const demo = all.data.viewer.channels.find((c: any) => c.slug === 'demo-tv');
      expect(demo.webhookEndpoints.length).toBeGreaterThanOrEqual(5);
      const deliveries = demo.webhookEndpoints.flatMap((e: any) => e.deliveries);
      expect(deliveries.length).toBeGreaterThanOrEqual(10);
      expect(deliveries.filter((d: any) => d.attempts.length > 0).length).toBeGreaterThanOrEqual(10);
      expect(all.statements).toBe(3);
      const one = await count(`{ channel(slug: "ringside-network") { webhookEndpoints { id deliveries(first: 5) { id attempts { attemptNo } } } } }`);
      expect(one.statements).toBeLessThanOrEqual(3);
    } finally {
      spy.mockRestore();
    }
  });

  it("shows the operator's delivery rate on an endpoint, read-only (docs/decisions.md#delivery-rate)", async () => {
    const { url } = await newReceiver();
    const { endpoint } = await createEndpoint('owner', url, ['BROADCAST_LIVE']);
    const rateOf = async (who: Who) =>
      (
        await ok(gql(`query($c: String!) { channel(slug: $c) { webhookEndpoints { id ratePerSecond } } }`, { c: 'demo-tv' }, tokens[who]))
      ).channel.webhookEndpoints.find((e: any) => e.id === endpoint.id).ratePerSecond;
    expect(await rateOf('viewer')).toBeNull();
    await t.c.services.webhooks.setRate({ id: 'operator' }, endpoint.id, 2.5);
    expect(await rateOf('viewer')).toBe(2.5);
    expect(await rateOf('owner')).toBe(2.5);
    // No mutation changes it: updateWebhookEndpoint knows no such field.
    expect(await code(gql(`mutation($id: ID!) { updateWebhookEndpoint(id: $id, ratePerSecond: 100) { id } }`, { id: endpoint.id }, tokens.owner))).toBe(
      'invalid_query',
    );
    await t.c.services.webhooks.setRate({ id: 'operator' }, endpoint.id, null);
    expect(await rateOf('owner')).toBeNull();
  });
});
