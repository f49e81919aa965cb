import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { renderStudioSdl } from '../../../src/graphql/schema';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedTvDemo(t.c);
});
afterAll(() => t?.close());

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return req.send({ query, variables });
}

async function login(email: string, password: string): Promise<string> {
  const res = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token expiresAt } }', { e: email, p: password });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.login.token;
}

describe('the studio GraphQL endpoint', () => {
  it('schema/studio.graphql is the emitted SDL (run npm run schema when this fails)', () => {
    expect(readFileSync(join(__dirname, '../../../schema/studio.graphql'), 'utf8')).toBe(renderStudioSdl());
  });

  it('signs in with email and password, refusing a wrong password with a domain code', async () => {
    const bad = await gql('mutation { login(email: "owner@demo.tv", password: "wrong-password") { token } }');
    expect(bad.body.errors[0].extensions.code).toBe('invalid_credentials');
    const token = await login('owner@demo.tv', 'demo-owner-pass');
    expect(token).toMatch(/^st_[0-9A-Za-z]{40}$/);
  });

  it('answers the dashboard: channels with plan, billing, live slots, broadcasts and their health, keys', async () => {
    const token = await login('owner@demo.tv', 'demo-owner-pass');
    const res = await gql(
      `{ viewer { email channels { slug role plan billingState liveSlots { used total }
      broadcasts(first: 3) { edges { cursor node { title state source health { signal warnings { code } } } } pageInfo { hasNextPage endCursor } }
    } } }`,
      {},
      token,
    );
    expect(res.body.errors).toBeUndefined();
    const demo = res.body.data.viewer.channels.find((c: any) => c.slug === 'demo-tv');
    expect(demo).toMatchObject({ role: 'OWNER', plan: 'PRO', billingState: 'ACTIVE', liveSlots: { used: 1, total: 3 } });
    expect(demo.broadcasts.edges).toHaveLength(3);
    expect(demo.broadcasts.pageInfo.hasNextPage).toBe(true);
    const next = await gql(
      `query($after: String) { channel(slug: "demo-tv") { broadcasts(first: 100, after: $after) { edges { node { title } } } } }`,
      { after: demo.broadcasts.pageInfo.endCursor },
      token,
    );
    const titles = [...demo.broadcasts.edges, ...next.body.data.channel.broadcasts.edges].map((e: any) => e.node.title);
    expect(new Set(titles).size).toBe(7);
  });

  it('creates a channel key that works on /api/tv and stops working once revoked', async () => {
    const token = await login('manager@demo.tv', 'demo-manager-pass');
    const created = await gql(
      `mutation { createChannelApiKey(channel: "demo-tv", name: "ci", scopes: [READ]) { secret key { id prefix scopes } } }`,
      {},
      token,
    );
    expect(created.body.errors).toBeUndefined();
    const { secret, key } = created.body.data.createChannelApiKey;
    expect((await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${secret}`)).body.data.channel.slug).toBe('demo-tv');
    await gql(`mutation($id: ID!) { revokeChannelApiKey(channel: "demo-tv", id: $id) { revokedAt } }`, { id: key.id }, token);
    expect((await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${secret}`)).status).toBe(401);
  });

  it('enforces roles: an editor manages broadcasts but not keys, a viewer only reads, other channels are not found', async () => {
    const editor = await login('editor@demo.tv', 'demo-editor-pass');
    const keys = await gql(`{ channel(slug: "demo-tv") { apiKeys { id } } }`, {}, editor);
    expect(keys.body.errors[0].extensions.code).toBe('forbidden');
    const made = await gql(
      `mutation { createBroadcast(channel: "demo-tv", input: { title: "Editor's show", source: MP4, sourceUrl: "https://cdn.example/e.mp4", scheduledAt: "2030-01-01T10:00:00Z" }) { id state } }`,
      {},
      editor,
    );
    expect(made.body.data.createBroadcast.state).toBe('SCHEDULED');
    const viewer = await login('viewer@demo.tv', 'demo-viewer-pass');
    const refused = await gql(`mutation($id: ID!) { goLive(id: $id) { state } }`, { id: made.body.data.createBroadcast.id }, viewer);
    expect(refused.body.errors[0].extensions.code).toBe('forbidden');
    const elsewhere = await gql(`{ channel(slug: "garage-fights") { name } }`, {}, editor);
    expect(elsewhere.body.errors[0].extensions.code).toBe('not_found');
  });

  it('applies the TV API rules and codes to broadcast mutations', async () => {
    const token = await login('owner@demo.tv', 'demo-owner-pass');
    const bad = await gql(
      `mutation { createBroadcast(channel: "demo-tv", input: { title: "x", source: YOUTUBE, sourceUrl: "http://youtube.com/x", scheduledAt: "2030-01-01T10:00:00Z" }) { id } }`,
      {},
      token,
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_source_url');
    const ingest = await gql(
      `mutation { createBroadcast(channel: "demo-tv", input: { title: "Ingest", source: INGEST, scheduledAt: "2030-01-01T10:00:00Z" }) { id ingest { serverUrl streamKey } } }`,
      {},
      token,
    );
    expect(ingest.body.data.createBroadcast.ingest.streamKey).toMatch(/^sk_/);
    const ended = await gql(`mutation($id: ID!) { endBroadcast(id: $id) { state } }`, { id: ingest.body.data.createBroadcast.id }, token);
    expect(ended.body.errors[0].extensions.code).toBe('invalid_state');
  });

  it('refuses without a session, with a bad session and after logout', async () => {
    expect((await gql('{ viewer { email } }')).body.errors[0].extensions.code).toBe('unauthenticated');
    const invalid = await gql('{ viewer { email } }', {}, 'st_nope');
    expect(invalid.status).toBe(401);
    const token = await login('viewer@demo.tv', 'demo-viewer-pass');
    await gql('mutation { logout }', {}, token);
    expect((await gql('{ viewer { email } }', {}, token)).status).toBe(401);
  });

  it('keeps a session to its own door: /api/tv and /api/v1 refuse it', async () => {
    const token = await login('owner@demo.tv', 'demo-owner-pass');
    expect((await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    const channelKey = await request(t.app)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .set('Authorization', 'Bearer ck_demo_rw')
      .send({ query: '{ viewer { email } }' });
    expect(channelKey.status).toBe(401);
  });

  it('blocks a simple cross-site request (CSRF prevention)', async () => {
    const res = await request(t.app).get('/graphql?query=%7Bviewer%7Bemail%7D%7D');
    expect(res.status).toBe(400);
  });
});
