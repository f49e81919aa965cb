import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { operator } from '../../../src/domain/channels/channel-access';
import { hashToken } from '../../../src/domain/partners/api-key.token';
import type { StudioPrincipal } from '../../../src/domain/studio/studio-auth.service';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * docs/decisions.md#studio-roles as a table: every studio query field and mutation that acts on a channel, for each role on
 * demo-tv (owner, manager, editor, viewer), a signed-in user with no role anywhere (stranger) and
 * no session at all (anonymous). Each cell sets up its own fixtures (through the domain, not the
 * door under test), makes one /graphql call and asserts the exact outcome:
 *
 * - allowed: data and no errors, and the change really happened (read back from the database or
 *   through /api/tv/me);
 * - hidden: data, but the channel is not in it (viewer.channels for the stranger);
 * - forbidden / not_found / unauthenticated: that code in errors[0].extensions.code, no data,
 *   and nothing changed anywhere (a fingerprint of every table a studio call can write).
 *
 * Reads change nothing whatever the outcome.
 */

type Who = 'owner' | 'manager' | 'editor' | 'viewer' | 'stranger' | 'anonymous';
type Outcome = 'allowed' | 'hidden' | 'forbidden' | 'not_found' | 'unauthenticated';
type Expect = Record<Who, Outcome>;

const WHO: readonly Who[] = ['owner', 'manager', 'editor', 'viewer', 'stranger', 'anonymous'];
const ROLES = ['owner', 'manager', 'editor', 'viewer'] as const;

/** Every role reads; no role is not found. */
const READ: Expect = { owner: 'allowed', manager: 'allowed', editor: 'allowed', viewer: 'allowed', stranger: 'not_found', anonymous: 'unauthenticated' };
/** Owners and managers only (keys, webhooks): an editor and a viewer are refused. */
const MANAGE: Expect = { owner: 'allowed', manager: 'allowed', editor: 'forbidden', viewer: 'forbidden', stranger: 'not_found', anonymous: 'unauthenticated' };
/** Broadcasts: owners, managers and editors. */
const BROADCASTS: Expect = {
  owner: 'allowed',
  manager: 'allowed',
  editor: 'allowed',
  viewer: 'forbidden',
  stranger: 'not_found',
  anonymous: 'unauthenticated',
};
/** The user's own channel list: the stranger gets one, without demo-tv. */
const LIST: Expect = { ...READ, stranger: 'hidden' };

const CREDENTIALS: Record<Exclude<Who, 'anonymous'>, [string, string]> = {
  owner: ['owner@demo.tv', 'demo-owner-pass'],
  manager: ['manager@demo.tv', 'demo-manager-pass'],
  editor: ['editor@demo.tv', 'demo-editor-pass'],
  viewer: ['viewer@demo.tv', 'demo-viewer-pass'],
  stranger: ['nobody@demo.tv', 'nobody-has-no-role'],
};

let t: TestApp;
let demoId: string;
let ownerPrincipal: StudioPrincipal;
const tokens: Partial<Record<Who, string>> = {};
const userIds: Partial<Record<Who, string>> = {};

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_PRIVATE: '1' } });
  await seedTvDemo(t.c);
  // A signed-in studio user who holds no role on any channel.
  await t.c.services.studioUsers.create(operator({ id: 'test' }), { email: CREDENTIALS.stranger[0], password: CREDENTIALS.stranger[1] });
  for (const who of Object.keys(CREDENTIALS) as Exclude<Who, 'anonymous'>[]) {
    const [email, password] = CREDENTIALS[who];
    const res = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: email, p: password });
    expect(res.body.errors).toBeUndefined();
    tokens[who] = res.body.data.login.token;
  }
  ownerPrincipal = await t.c.services.studioAuth.authenticate(tokens.owner!);
  for (const who of Object.keys(CREDENTIALS) as Exclude<Who, 'anonymous'>[]) userIds[who] = (await t.c.services.studioAuth.authenticate(tokens[who]!)).userId;
  [{ id: demoId }] = await rows<{ id: string }>(`select id from channel where slug = 'demo-tv'`);
  expect(ownerPrincipal.roles.get(demoId)).toBe('owner');
});
afterAll(() => t?.close());

function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return req.send({ query, variables });
}

function rows<T>(query: string, params: unknown[] = []): Promise<T[]> {
  return t.c.orm.em.getConnection('write').execute<T[]>(query, params);
}

const tvMe = (key: string) => request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${key}`);

/**
 * Everything a studio call could write, as digests: broadcasts, channel keys, endpoints (secrets
 * included), deliveries, attempts, outbox events, audit entries, memberships and sessions.
 */
async function fingerprint(): Promise<Record<string, string>> {
  const digest = (select: string) => `(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from (${select}) x)`;
  const [row] = await rows<Record<string, string>>(`select
    ${digest('select id, channel_id, title, source, source_url, scheduled_at, started_at, ended_at, state, visibility, replay_url, stream_key_hash from broadcast')} as broadcasts,
    ${digest('select id, channel_id, name, scopes, created_by, revoked_at, created_at from channel_api_key')} as keys,
    ${digest('select id, channel_id, url, events, secret, next_secret, next_secret_from, enabled, disabled_reason, deleted_at from webhook_endpoint')} as endpoints,
    ${digest('select id, event_id, endpoint_id, status, attempt, replay_of, completed_at from webhook_delivery')} as deliveries,
    ${digest('select id, delivery_id, attempt_no from webhook_attempt')} as attempts,
    ${digest('select id from webhook_event')} as events,
    ${digest('select id, actor, action, subject from audit_entry')} as audit,
    ${digest('select user_id, channel_id, role from channel_member')} as members,
    ${digest('select id, ended_at from studio_session')} as sessions`);
  return row;
}

// ---- fixtures, made through the domain services -------------------------------------------------

let serial = 0;
const uniq = (what: string) => `${what} ${++serial} ${Date.now().toString(36)}`;

async function newBroadcast(): Promise<{ id: string; title: string }> {
  const title = uniq('Permissions Night');
  const r = await t.c.services.broadcasts.create(operator({ id: 'test' }), demoId, {
    title,
    source: 'mp4',
    sourceUrl: 'https://cdn.demo.tv/permissions.mp4',
    scheduledAt: new Date('2031-03-01T19:00:00Z'),
  });
  return { id: r.broadcast.id, title };
}

async function newIngestBroadcast(): Promise<{ id: string; title: string; streamKey: string }> {
  const title = uniq('Permissions Ingest');
  const r = await t.c.services.broadcasts.create(operator({ id: 'test' }), demoId, { title, source: 'ingest', scheduledAt: new Date('2031-03-01T19:00:00Z') });
  return { id: r.broadcast.id, title, streamKey: r.streamKey! };
}

const streamKeyHash = async (id: string) =>
  (await rows<{ stream_key_hash: string }>(`select stream_key_hash from broadcast where id = ?`, [id]))[0].stream_key_hash;

async function newLiveBroadcast(): Promise<{ id: string; title: string }> {
  const b = await newBroadcast();
  await t.c.services.broadcasts.goLive(operator({ id: 'test' }), b.id);
  return b;
}

/** Ends the broadcast if it is (still) live: the channel has 3 live slots, the seed uses 1. */
async function endIfLive(id: string): Promise<void> {
  const [b] = await rows<{ state: string }>(`select state from broadcast where id = ?`, [id]);
  if (b?.state === 'live') await t.c.services.broadcasts.end(operator({ id: 'test' }), id);
}

const broadcastRow = async (id: string) =>
  (
    await rows<{ title: string; state: string; started_at: Date | null; ended_at: Date | null; replay_url: string | null }>(
      `select title, state, started_at, ended_at, replay_url from broadcast where id = ?`,
      [id],
    )
  )[0];

async function newKey(): Promise<{ id: string; secret: string; prefix: string; name: string }> {
  const name = uniq('permissions key');
  const { key, token } = await t.c.services.channels.createKey(operator({ id: 'test' }), { channelId: demoId, name, scopes: ['read'] });
  return { id: key.id, secret: token, prefix: key.prefix, name };
}

let port = 40000;
/** An endpoint nothing is sent to (no delivery worker runs in this file). */
async function newEndpoint(): Promise<{ id: string; url: string; secret: string }> {
  const url = `http://127.0.0.1:${++port}/permissions`;
  const { endpoint, secret } = await t.c.services.channelWebhooks.create(ownerPrincipal, demoId, { url, events: ['ping'] });
  return { id: endpoint.id, url, secret };
}

const endpointRow = async (id: string) =>
  (
    await rows<{
      url: string;
      events: string[];
      enabled: boolean;
      secret: string;
      next_secret: string | null;
      next_secret_from: Date | null;
      deleted_at: Date | null;
      disabled_reason: string | null;
    }>(`select url, events, enabled, secret, next_secret, next_secret_from, deleted_at, disabled_reason from webhook_endpoint where id = ?`, [id])
  )[0];

const deliveriesOf = (endpointId: string) =>
  rows<{ id: string; event_id: string; status: string; replay_of: string | null }>(
    `select id, event_id, status, replay_of from webhook_delivery where endpoint_id = ? order by created_at, id`,
    [endpointId],
  );

/** An endpoint with one delivery (a ping), failed after one logged attempt. */
async function newFailedDelivery(): Promise<{ endpoint: { id: string; url: string; secret: string }; delivery: { id: string; eventId: string } }> {
  const endpoint = await newEndpoint();
  const d = await t.c.services.channelWebhooks.ping(ownerPrincipal, endpoint.id);
  await rows(`update webhook_delivery set status = 'failed', attempt = 1, last_status_code = 500, last_error = 'HTTP 500', completed_at = now() where id = ?`, [
    d.id,
  ]);
  await rows(
    `insert into webhook_attempt (id, delivery_id, attempt_no, started_at, duration_ms, request_headers, status_code, error, response_excerpt)
              values (gen_random_uuid(), ?, 1, now(), 12, ?::jsonb, 500, null, 'no')`,
    [d.id, JSON.stringify({ 'X-SVC-Attempt': '1', 'X-SVC-Delivery': d.id })],
  );
  return { endpoint, delivery: { id: d.id, eventId: d.event_id } };
}

async function auditOf(subject: string): Promise<string[]> {
  return (await rows<{ actor: string; action: string }>(`select actor, action from audit_entry where subject = ? order by at, action`, [subject])).map(
    (a) => `${a.actor} ${a.action}`,
  );
}

const studio = (who: Who) => `studio:${CREDENTIALS[who as Exclude<Who, 'anonymous'>][0]}`;

// ---- the table -----------------------------------------------------------------------------------

interface Case<F> {
  name: string;
  kind: 'query' | 'mutation';
  expect: Expect;
  setup(): Promise<F>;
  call(fx: F): { query: string; variables?: Record<string, unknown> };
  /** The answer when allowed (or hidden), and that the change really happened. */
  allowed(data: any, fx: F, who: Who): Promise<void>;
  /** What a refusal must have left as it was (on top of the fingerprint). */
  unchanged?(fx: F): Promise<void>;
  cleanup?(fx: F): Promise<void>;
}

const none = async () => undefined;
const cell = <F>(c: Case<F>) => c as Case<unknown>;

const CASES: Case<unknown>[] = [
  // ---- queries ----
  cell({
    name: 'viewer.channels',
    kind: 'query',
    expect: LIST,
    setup: none,
    call: () => ({ query: `{ viewer { id email channels { id slug role } } }` }),
    async allowed(data, _fx, who) {
      expect(data.viewer).toMatchObject({ id: userIds[who], email: CREDENTIALS[who as Exclude<Who, 'anonymous'>][0] });
      const demo = data.viewer.channels.filter((c: any) => c.slug === 'demo-tv');
      if (who === 'stranger') expect(data.viewer.channels).toEqual([]);
      else expect(demo).toEqual([{ id: demoId, slug: 'demo-tv', role: who.toUpperCase() }]);
    },
  }),
  cell({
    name: 'channel(slug)',
    kind: 'query',
    expect: READ,
    setup: none,
    call: () => ({ query: `query($c: String!) { channel(slug: $c) { id slug name plan billingState approved role } }`, variables: { c: 'demo-tv' } }),
    async allowed(data, _fx, who) {
      expect(data.channel).toEqual({
        id: demoId,
        slug: 'demo-tv',
        name: 'Demo TV',
        plan: 'PRO',
        billingState: 'ACTIVE',
        approved: true,
        role: who.toUpperCase(),
      });
    },
  }),
  cell({
    // what the role may do, from the access rule's table: the studio shows only these controls
    name: 'channel(slug).permissions',
    kind: 'query',
    expect: READ,
    setup: none,
    call: () => ({ query: `{ channel(slug: "demo-tv") { role permissions } }` }),
    async allowed(data, _fx, who) {
      const expected: Record<string, string[]> = {
        owner: ['READ', 'BROADCASTS', 'KEYS', 'WEBHOOKS'],
        manager: ['READ', 'BROADCASTS', 'KEYS', 'WEBHOOKS'],
        editor: ['READ', 'BROADCASTS'],
        viewer: ['READ'],
      };
      expect(data.channel).toEqual({ role: who.toUpperCase(), permissions: expected[who] });
    },
  }),
  cell({
    name: 'channel.broadcast',
    kind: 'query',
    expect: READ,
    setup: newBroadcast,
    call: (fx) => ({
      query: `query($id: ID!) { channel(slug: "demo-tv") { broadcast(id: $id) { id title state channelSlug health { signal } } } }`,
      variables: { id: fx.id },
    }),
    async allowed(data, fx) {
      expect(data.channel.broadcast).toEqual({ id: fx.id, title: fx.title, state: 'SCHEDULED', channelSlug: 'demo-tv', health: { signal: 'EXTERNAL' } });
    },
  } satisfies Case<{ id: string; title: string }>),
  cell({
    name: 'channel.liveSlots',
    kind: 'query',
    expect: READ,
    setup: none,
    call: () => ({ query: `{ channel(slug: "demo-tv") { liveSlots { used total } } }` }),
    async allowed(data) {
      const [{ n }] = await rows<{ n: number }>(`select count(*)::int as n from broadcast where channel_id = ? and state = 'live'`, [demoId]);
      expect(data.channel.liveSlots).toEqual({ used: n, total: 3 });
    },
  }),
  cell({
    name: 'channel.broadcasts',
    kind: 'query',
    expect: READ,
    setup: newBroadcast,
    call: () => ({
      query: `{ channel(slug: "demo-tv") { broadcasts(first: 100, state: SCHEDULED) { edges { node { id title state channelSlug health { signal } } } pageInfo { hasNextPage } } } }`,
    }),
    async allowed(data, fx) {
      const nodes = data.channel.broadcasts.edges.map((e: any) => e.node);
      expect(data.channel.broadcasts.pageInfo.hasNextPage).toBe(false);
      expect(nodes.find((n: any) => n.id === fx.id)).toEqual({
        id: fx.id,
        title: fx.title,
        state: 'SCHEDULED',
        channelSlug: 'demo-tv',
        health: { signal: 'EXTERNAL' },
      });
    },
  } satisfies Case<{ id: string; title: string }>),
  cell({
    // "Owners and managers only": reading keys is the `keys` permission in this implementation.
    name: 'channel.apiKeys',
    kind: 'query',
    expect: MANAGE,
    setup: newKey,
    call: () => ({ query: `{ channel(slug: "demo-tv") { apiKeys { id name prefix scopes revokedAt } } }` }),
    async allowed(data, fx) {
      expect(data.channel.apiKeys.find((k: any) => k.id === fx.id)).toEqual({ id: fx.id, name: fx.name, prefix: fx.prefix, scopes: ['READ'], revokedAt: null });
      expect(JSON.stringify(data)).not.toContain(fx.secret);
    },
  } satisfies Case<{ id: string; secret: string; prefix: string; name: string }>),
  cell({
    name: 'channel.webhookEndpoints',
    kind: 'query',
    expect: READ,
    setup: newEndpoint,
    call: () => ({ query: `{ channel(slug: "demo-tv") { webhookEndpoints { id url events enabled } } }` }),
    async allowed(data, fx) {
      expect(data.channel.webhookEndpoints.find((e: any) => e.id === fx.id)).toEqual({ id: fx.id, url: fx.url, events: ['PING'], enabled: true });
      expect(JSON.stringify(data)).not.toContain(fx.secret);
    },
  } satisfies Case<{ id: string; url: string; secret: string }>),
  cell({
    name: 'channel.webhookEndpoints.deliveries',
    kind: 'query',
    expect: READ,
    setup: newFailedDelivery,
    call: () => ({ query: `{ channel(slug: "demo-tv") { webhookEndpoints { id deliveries(first: 5) { id eventId event status replayOf } } } }` }),
    async allowed(data, fx) {
      const endpoint = data.channel.webhookEndpoints.find((e: any) => e.id === fx.endpoint.id);
      expect(endpoint.deliveries).toEqual([{ id: fx.delivery.id, eventId: fx.delivery.eventId, event: 'PING', status: 'FAILED', replayOf: null }]);
    },
  } satisfies Case<Awaited<ReturnType<typeof newFailedDelivery>>>),
  cell({
    name: 'channel.webhookEndpoints.deliveries.attempts',
    kind: 'query',
    expect: READ,
    setup: newFailedDelivery,
    call: () => ({
      query: `{ channel(slug: "demo-tv") { webhookEndpoints { id deliveries(first: 5) { id attempts { attemptNo statusCode responseExcerpt requestHeaders } } } } }`,
    }),
    async allowed(data, fx) {
      const endpoint = data.channel.webhookEndpoints.find((e: any) => e.id === fx.endpoint.id);
      expect(endpoint.deliveries).toEqual([
        {
          id: fx.delivery.id,
          attempts: [{ attemptNo: 1, statusCode: 500, responseExcerpt: 'no', requestHeaders: { 'X-SVC-Attempt': '1', 'X-SVC-Delivery': fx.delivery.id } }],
        },
      ]);
    },
  } satisfies Case<Awaited<ReturnType<typeof newFailedDelivery>>>),

  // ---- broadcast mutations ----
  cell({
    name: 'createBroadcast',
    kind: 'mutation',
    expect: BROADCASTS,
    setup: async () => ({ title: uniq('Created In The Studio') }),
    call: (fx) => ({
      query: `mutation($t: String!) { createBroadcast(channel: "demo-tv", input: { title: $t, source: MP4, sourceUrl: "https://cdn.demo.tv/created.mp4", scheduledAt: "2031-04-01T19:00:00Z" }) { id title state channelSlug } }`,
      variables: { t: fx.title },
    }),
    async allowed(data, fx) {
      expect(data.createBroadcast).toMatchObject({ title: fx.title, state: 'SCHEDULED', channelSlug: 'demo-tv' });
      expect(await rows(`select channel_id, state from broadcast where title = ?`, [fx.title])).toEqual([{ channel_id: demoId, state: 'scheduled' }]);
      expect(data.createBroadcast.id).toBe((await rows<{ id: string }>(`select id from broadcast where title = ?`, [fx.title]))[0].id);
    },
    async unchanged(fx) {
      expect(await rows(`select id from broadcast where title = ?`, [fx.title])).toEqual([]);
    },
  } satisfies Case<{ title: string }>),
  cell({
    name: 'updateBroadcast',
    kind: 'mutation',
    expect: BROADCASTS,
    setup: newBroadcast,
    call: (fx) => ({
      query: `mutation($id: ID!, $t: String!) { updateBroadcast(id: $id, input: { title: $t }) { id title } }`,
      variables: { id: fx.id, t: `${fx.title} (renamed)` },
    }),
    async allowed(data, fx) {
      expect(data.updateBroadcast).toEqual({ id: fx.id, title: `${fx.title} (renamed)` });
      expect((await broadcastRow(fx.id)).title).toBe(`${fx.title} (renamed)`);
    },
    async unchanged(fx) {
      expect(await broadcastRow(fx.id)).toMatchObject({ title: fx.title, state: 'scheduled' });
    },
  } satisfies Case<{ id: string; title: string }>),
  cell({
    name: 'goLive',
    kind: 'mutation',
    expect: BROADCASTS,
    setup: newBroadcast,
    call: (fx) => ({ query: `mutation($id: ID!) { goLive(id: $id) { id state startedAt } }`, variables: { id: fx.id } }),
    async allowed(data, fx) {
      expect(data.goLive).toMatchObject({ id: fx.id, state: 'LIVE' });
      const row = await broadcastRow(fx.id);
      expect(row.state).toBe('live');
      expect(row.started_at).not.toBeNull();
      expect(new Date(row.started_at!).toISOString()).toBe(new Date(data.goLive.startedAt).toISOString());
    },
    async unchanged(fx) {
      expect(await broadcastRow(fx.id)).toMatchObject({ state: 'scheduled', started_at: null });
    },
    cleanup: (fx) => endIfLive(fx.id),
  } satisfies Case<{ id: string; title: string }>),
  cell({
    name: 'endBroadcast',
    kind: 'mutation',
    expect: BROADCASTS,
    setup: newLiveBroadcast,
    call: (fx) => ({ query: `mutation($id: ID!) { endBroadcast(id: $id) { id state endedAt replayUrl } }`, variables: { id: fx.id } }),
    async allowed(data, fx) {
      // An mp4 broadcast becomes a replay as it ends.
      expect(data.endBroadcast).toMatchObject({ id: fx.id, state: 'REPLAY', replayUrl: 'https://cdn.demo.tv/permissions.mp4' });
      expect(await broadcastRow(fx.id)).toMatchObject({ state: 'replay', replay_url: 'https://cdn.demo.tv/permissions.mp4' });
      expect((await broadcastRow(fx.id)).ended_at).not.toBeNull();
    },
    async unchanged(fx) {
      expect(await broadcastRow(fx.id)).toMatchObject({ state: 'live', ended_at: null });
    },
    cleanup: (fx) => endIfLive(fx.id),
  } satisfies Case<{ id: string; title: string }>),

  cell({
    name: 'rotateStreamKey',
    kind: 'mutation',
    expect: BROADCASTS,
    setup: newIngestBroadcast,
    call: (fx) => ({ query: `mutation($id: ID!) { rotateStreamKey(id: $id) { id ingest { serverUrl streamKey } } }`, variables: { id: fx.id } }),
    async allowed(data, fx) {
      const key = data.rotateStreamKey.ingest.streamKey as string;
      expect(key).toEqual(expect.any(String));
      expect(key).not.toBe(fx.streamKey);
      // the new key is the one the media server's callbacks now accept
      expect(await streamKeyHash(fx.id)).toBe(hashToken(key));
    },
    async unchanged(fx) {
      expect(await streamKeyHash(fx.id)).toBe(hashToken(fx.streamKey));
    },
  } satisfies Case<{ id: string; title: string; streamKey: string }>),

  // ---- channel API keys ----
  cell({
    name: 'createChannelApiKey',
    kind: 'mutation',
    expect: MANAGE,
    setup: async () => ({ name: uniq('studio key') }),
    call: (fx) => ({
      query: `mutation($n: String!) { createChannelApiKey(channel: "demo-tv", name: $n, scopes: [READ, BROADCASTS_WRITE]) { secret key { id name prefix scopes revokedAt } } }`,
      variables: { n: fx.name },
    }),
    async allowed(data, fx, who) {
      const { secret, key } = data.createChannelApiKey;
      expect(secret).toMatch(/^ck_/);
      expect(key).toMatchObject({ name: fx.name, scopes: ['READ', 'BROADCASTS_WRITE'], revokedAt: null });
      expect(secret.startsWith(key.prefix)).toBe(true);
      // The key works on the TV API, for this channel.
      const me = await tvMe(secret);
      expect(me.status).toBe(200);
      expect(me.body.data.channel.slug).toBe('demo-tv');
      expect(await rows(`select channel_id, created_by from channel_api_key where id = ?`, [key.id])).toEqual([
        { channel_id: demoId, created_by: userIds[who] },
      ]);
      expect(await auditOf(key.id)).toEqual([`${studio(who)} channel-keys.create`]);
    },
    async unchanged(fx) {
      expect(await rows(`select id from channel_api_key where name = ?`, [fx.name])).toEqual([]);
    },
  } satisfies Case<{ name: string }>),
  cell({
    name: 'revokeChannelApiKey',
    kind: 'mutation',
    expect: MANAGE,
    setup: newKey,
    call: (fx) => ({ query: `mutation($id: ID!) { revokeChannelApiKey(channel: "demo-tv", id: $id) { id revokedAt } }`, variables: { id: fx.id } }),
    async allowed(data, fx, who) {
      expect(data.revokeChannelApiKey.id).toBe(fx.id);
      expect(data.revokeChannelApiKey.revokedAt).not.toBeNull();
      expect((await tvMe(fx.secret)).status).toBe(401);
      expect(await auditOf(fx.id)).toEqual(['test channel-keys.create', `${studio(who)} channel-keys.revoke`]);
    },
    async unchanged(fx) {
      const me = await tvMe(fx.secret);
      expect(me.status).toBe(200);
      expect(me.body.data.channel.slug).toBe('demo-tv');
    },
  } satisfies Case<{ id: string; secret: string; prefix: string; name: string }>),

  // ---- webhook endpoints ----
  cell({
    name: 'createWebhookEndpoint',
    kind: 'mutation',
    expect: MANAGE,
    setup: async () => ({ url: `http://127.0.0.1:${++port}/created` }),
    call: (fx) => ({
      query: `mutation($u: String!) { createWebhookEndpoint(channel: "demo-tv", url: $u, events: [BROADCAST_LIVE, PING]) { secret endpoint { id url events enabled } } }`,
      variables: { u: fx.url },
    }),
    async allowed(data, fx, who) {
      const { secret, endpoint } = data.createWebhookEndpoint;
      expect(secret).toMatch(/^whsec_/);
      expect(endpoint).toMatchObject({ url: fx.url, events: ['BROADCAST_LIVE', 'PING'], enabled: true });
      expect(await endpointRow(endpoint.id)).toMatchObject({ url: fx.url, secret, enabled: true, deleted_at: null });
      expect(await rows(`select channel_id from webhook_endpoint where id = ?`, [endpoint.id])).toEqual([{ channel_id: demoId }]);
      expect(await auditOf(endpoint.id)).toEqual([`${studio(who)} channel-webhooks.create`]);
    },
    async unchanged(fx) {
      expect(await rows(`select id from webhook_endpoint where url = ?`, [fx.url])).toEqual([]);
    },
  } satisfies Case<{ url: string }>),
  cell({
    name: 'updateWebhookEndpoint',
    kind: 'mutation',
    expect: MANAGE,
    setup: newEndpoint,
    call: (fx) => ({
      query: `mutation($id: ID!, $u: String!) { updateWebhookEndpoint(id: $id, url: $u, events: [BROADCAST_ENDED], enabled: false) { id url events enabled disabledReason } }`,
      variables: { id: fx.id, u: `${fx.url}/moved` },
    }),
    async allowed(data, fx, who) {
      const email = CREDENTIALS[who as Exclude<Who, 'anonymous'>][0];
      expect(data.updateWebhookEndpoint).toEqual({
        id: fx.id,
        url: `${fx.url}/moved`,
        events: ['BROADCAST_ENDED'],
        enabled: false,
        disabledReason: `disabled in the studio by ${email}`,
      });
      expect(await endpointRow(fx.id)).toMatchObject({ url: `${fx.url}/moved`, events: ['broadcast.ended'], enabled: false });
    },
    async unchanged(fx) {
      expect(await endpointRow(fx.id)).toMatchObject({ url: fx.url, events: ['ping'], enabled: true, disabled_reason: null });
    },
  } satisfies Case<{ id: string; url: string; secret: string }>),
  cell({
    name: 'deleteWebhookEndpoint',
    kind: 'mutation',
    expect: MANAGE,
    setup: newEndpoint,
    call: (fx) => ({ query: `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`, variables: { id: fx.id } }),
    async allowed(data, fx) {
      expect(data).toEqual({ deleteWebhookEndpoint: true });
      const row = await endpointRow(fx.id);
      expect(row.deleted_at).not.toBeNull();
      expect(row.enabled).toBe(false);
      const listed = await gql(`{ channel(slug: "demo-tv") { webhookEndpoints { id } } }`, {}, tokens.owner);
      expect(listed.body.data.channel.webhookEndpoints.map((e: any) => e.id)).not.toContain(fx.id);
    },
    async unchanged(fx) {
      expect(await endpointRow(fx.id)).toMatchObject({ deleted_at: null, enabled: true });
    },
  } satisfies Case<{ id: string; url: string; secret: string }>),
  cell({
    name: 'rotateWebhookSecret',
    kind: 'mutation',
    expect: MANAGE,
    setup: newEndpoint,
    call: (fx) => ({
      query: `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret switchAt endpoint { id secretSwitchAt } } }`,
      variables: { id: fx.id },
    }),
    async allowed(data, fx) {
      const r = data.rotateWebhookSecret;
      expect(r.secret).toMatch(/^whsec_/);
      expect(r.secret).not.toBe(fx.secret);
      expect(r.endpoint).toEqual({ id: fx.id, secretSwitchAt: r.switchAt });
      const row = await endpointRow(fx.id);
      expect(row.next_secret).toBe(r.secret);
      expect(new Date(row.next_secret_from!).toISOString()).toBe(new Date(r.switchAt).toISOString());
    },
    async unchanged(fx) {
      expect(await endpointRow(fx.id)).toMatchObject({ secret: fx.secret, next_secret: null, next_secret_from: null });
    },
  } satisfies Case<{ id: string; url: string; secret: string }>),
  cell({
    name: 'pingWebhookEndpoint',
    kind: 'mutation',
    expect: MANAGE,
    setup: newEndpoint,
    call: (fx) => ({ query: `mutation($id: ID!) { pingWebhookEndpoint(id: $id) { id eventId event status attempt } }`, variables: { id: fx.id } }),
    async allowed(data, fx) {
      const d = data.pingWebhookEndpoint;
      expect(d).toMatchObject({ event: 'PING', status: 'PENDING', attempt: 0 });
      expect(await deliveriesOf(fx.id)).toEqual([{ id: d.id, event_id: d.eventId, status: 'pending', replay_of: null }]);
    },
    async unchanged(fx) {
      expect(await deliveriesOf(fx.id)).toEqual([]);
    },
  } satisfies Case<{ id: string; url: string; secret: string }>),

  // ---- the delivery log ----
  cell({
    name: 'redeliverWebhookDelivery',
    kind: 'mutation',
    expect: MANAGE,
    setup: newFailedDelivery,
    call: (fx) => ({ query: `mutation($id: ID!) { redeliverWebhookDelivery(id: $id) { id eventId status replayOf } }`, variables: { id: fx.delivery.id } }),
    async allowed(data, fx, who) {
      const d = data.redeliverWebhookDelivery;
      expect(d).toMatchObject({ eventId: fx.delivery.eventId, status: 'PENDING', replayOf: fx.delivery.id });
      expect(await deliveriesOf(fx.endpoint.id)).toEqual([
        { id: fx.delivery.id, event_id: fx.delivery.eventId, status: 'failed', replay_of: null },
        { id: d.id, event_id: fx.delivery.eventId, status: 'pending', replay_of: fx.delivery.id },
      ]);
      expect(await auditOf(fx.delivery.id)).toEqual([`${studio(who)} deliveries.replay`]);
    },
    async unchanged(fx) {
      expect(await deliveriesOf(fx.endpoint.id)).toEqual([{ id: fx.delivery.id, event_id: fx.delivery.eventId, status: 'failed', replay_of: null }]);
    },
  } satisfies Case<Awaited<ReturnType<typeof newFailedDelivery>>>),
  cell({
    name: 'recoverWebhookDeliveries',
    kind: 'mutation',
    expect: MANAGE,
    setup: newFailedDelivery,
    call: (fx) => ({
      query: `mutation($e: ID!, $s: DateTimeISO!) { recoverWebhookDeliveries(endpoint: $e, since: $s) { id eventId status replayOf } }`,
      variables: { e: fx.endpoint.id, s: new Date(Date.now() - 3_600_000).toISOString() },
    }),
    async allowed(data, fx) {
      const [d, ...more] = data.recoverWebhookDeliveries;
      expect(more).toEqual([]);
      expect(d).toMatchObject({ eventId: fx.delivery.eventId, status: 'PENDING', replayOf: fx.delivery.id });
      expect(await deliveriesOf(fx.endpoint.id)).toEqual([
        { id: fx.delivery.id, event_id: fx.delivery.eventId, status: 'failed', replay_of: null },
        { id: d.id, event_id: fx.delivery.eventId, status: 'pending', replay_of: fx.delivery.id },
      ]);
    },
    async unchanged(fx) {
      expect(await deliveriesOf(fx.endpoint.id)).toEqual([{ id: fx.delivery.id, event_id: fx.delivery.eventId, status: 'failed', replay_of: null }]);
    },
  } satisfies Case<Awaited<ReturnType<typeof newFailedDelivery>>>),
];

describe('docs/decisions.md#studio-roles: who may do what on a channel, field by field', () => {
  it('covers every mutation of schema/studio.graphql but login and logout, and every object field under channel', () => {
    const sdl = buildSchema(readFileSync(join(__dirname, '../../../schema/studio.graphql'), 'utf8'));
    const type = (name: string) => sdl.getType(name) as GraphQLObjectType;
    const fields = (name: string) => Object.keys(type(name).getFields());
    /** The fields that lead to other objects: each is resolved (and checked) on its own. */
    const objectFields = (name: string) =>
      Object.values(type(name).getFields())
        .filter((f) => isObjectType(getNamedType(f.type)))
        .map((f) => f.name);
    expect(
      CASES.filter((c) => c.kind === 'mutation')
        .map((c) => c.name)
        .sort(),
    ).toEqual(
      fields('Mutation')
        .filter((m) => m !== 'login' && m !== 'logout')
        .sort(),
    );
    expect(objectFields('Query')).toEqual(['viewer', 'channel']);
    expect(
      objectFields('StudioChannel')
        .map((f) => `channel.${f}`)
        .sort(),
    ).toEqual(
      CASES.filter((c) => /^channel\.[a-zA-Z]+$/.test(c.name))
        .map((c) => c.name)
        .sort(),
    );
    expect(objectFields('WebhookEndpoint')).toEqual(['deliveries']);
    expect(objectFields('WebhookDelivery')).toEqual(['attempts']);
  });

  for (const c of CASES) {
    describe(c.name, () => {
      it.each(WHO.map((who) => [who, c.expect[who]] as const))('%s: %s', async (who, outcome) => {
        const fx = await c.setup();
        try {
          const before = await fingerprint();
          const { query, variables } = c.call(fx);
          const res = await gql(query, variables, tokens[who]);
          expect(res.status).toBe(200);
          if (outcome === 'allowed' || outcome === 'hidden') {
            expect(res.body.errors).toBeUndefined();
            await c.allowed(res.body.data, fx, who);
            // A read writes nothing; every allowed mutation shows in the fingerprint (so a refusal's unchanged one means something).
            if (c.kind === 'query') expect(await fingerprint()).toEqual(before);
            else expect(await fingerprint()).not.toEqual(before);
          } else {
            // apiKeys is nullable so that one channel's refusal does not fail a whole dashboard.
            const refusedData = c.name === 'channel.apiKeys' && outcome === 'forbidden' ? { channel: { apiKeys: null } } : null;
            expect({ code: res.body.errors?.[0]?.extensions?.code, data: res.body.data }).toEqual({ code: outcome, data: refusedData });
            expect(await fingerprint()).toEqual(before);
            await c.unchanged?.(fx);
          }
        } finally {
          await c.cleanup?.(fx);
        }
      });
    });
  }
});

describe('not found is the same answer whether the channel exists or not', () => {
  it.each(ROLES)('%s on a channel that does not exist', async (who) => {
    const res = await gql(`{ channel(slug: "no-such-channel") { id } }`, {}, tokens[who]);
    expect(res.body.errors[0].extensions.code).toBe('not_found');
  });
});

describe('an id that is not one is not found (never an internal error), for every door that takes one', () => {
  const ID_MUTATIONS: Record<string, string> = {
    updateBroadcast: `mutation($id: ID!) { updateBroadcast(id: $id, input: { title: "x" }) { id } }`,
    goLive: `mutation($id: ID!) { goLive(id: $id) { id } }`,
    endBroadcast: `mutation($id: ID!) { endBroadcast(id: $id) { id } }`,
    rotateStreamKey: `mutation($id: ID!) { rotateStreamKey(id: $id) { id } }`,
    revokeChannelApiKey: `mutation($id: ID!) { revokeChannelApiKey(channel: "demo-tv", id: $id) { id } }`,
    updateWebhookEndpoint: `mutation($id: ID!) { updateWebhookEndpoint(id: $id, enabled: false) { id } }`,
    deleteWebhookEndpoint: `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`,
    rotateWebhookSecret: `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }`,
    pingWebhookEndpoint: `mutation($id: ID!) { pingWebhookEndpoint(id: $id) { id } }`,
    redeliverWebhookDelivery: `mutation($id: ID!) { redeliverWebhookDelivery(id: $id) { id } }`,
    recoverWebhookDeliveries: `mutation($id: ID!) { recoverWebhookDeliveries(endpoint: $id, since: "2020-01-01T00:00:00Z") { id } }`,
  };
  // 36 characters of hex digits and dashes, but not a uuid: PostgreSQL refuses to compare them with one.
  const NOT_IDS = ['------------------------------------', '00000000-0000-0000-0000-0000000000-0', 'not-an-id', '00000000-0000-4000-8000-000000000000'];

  it.each(Object.keys(ID_MUTATIONS))('%s', async (name) => {
    const before = await fingerprint();
    for (const id of NOT_IDS) {
      const res = await gql(ID_MUTATIONS[name], { id }, tokens.owner);
      expect({ id, code: res.body.errors?.[0]?.extensions?.code, data: res.body.data }).toEqual({ id, code: 'not_found', data: null });
    }
    expect(await fingerprint()).toEqual(before);
  });

  it('a broadcasts cursor whose id is not one is invalid_after', async () => {
    for (const id of NOT_IDS.slice(0, 2)) {
      const after = Buffer.from(`2031-01-01T00:00:00.000Z|${id}`).toString('base64url');
      const res = await gql(`query($a: String) { channel(slug: "demo-tv") { broadcasts(after: $a) { edges { cursor } } } }`, { a: after }, tokens.viewer);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('invalid_after');
    }
  });
});
