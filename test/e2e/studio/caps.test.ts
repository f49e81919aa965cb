import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { operator } from '../../../src/domain/channels/channel-access';
import { MAX_ACTIVE_KEYS_PER_CHANNEL } from '../../../src/domain/channels/channel.service';
import { MAX_LIVE_SESSIONS } from '../../../src/domain/studio/studio-auth.service';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { STUDIO_SESSION_PER_MINUTE: '100000' } });
  await seedTvDemo(t.c);
});
afterAll(() => t?.close());

const gql = (query: string, token: string, variables: Record<string, unknown> = {}) =>
  request(t.app).post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${token}`).send({ query, variables });
const email = (token: string) => gql('{ viewer { email } }', token);

describe('caps that keep per-session and per-key rate limits from multiplying', () => {
  it(`keeps at most ${MAX_LIVE_SESSIONS} live sessions per user: signing in once more ends the oldest`, async () => {
    const tokens: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) tokens.push((await t.c.services.studioAuth.login('viewer@demo.tv', 'demo-viewer-pass')).token);
    expect((await email(tokens[0])).body.data.viewer.email).toBe('viewer@demo.tv');
    const newest = (await t.c.services.studioAuth.login('viewer@demo.tv', 'demo-viewer-pass')).token;
    const oldest = await email(tokens[0]);
    expect(oldest.status).toBe(401);
    expect(JSON.stringify(oldest.body)).toMatch(/ended by newer sign-ins/);
    for (const token of [...tokens.slice(1), newest]) expect((await email(token)).body.data.viewer.email).toBe('viewer@demo.tv');
    const live = await t.c.orm.em
      .getConnection()
      .execute(
        `select count(*)::int as n from studio_session s join studio_user u on u.id = s.user_id where u.email = 'viewer@demo.tv' and s.ended_at is null`,
      );
    expect(live[0].n).toBe(MAX_LIVE_SESSIONS);
    // Another user's sessions are not touched.
    const owner = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
    expect((await email(owner)).body.data.viewer.email).toBe('owner@demo.tv');
  });

  it(`refuses a channel's API key beyond ${MAX_ACTIVE_KEYS_PER_CHANNEL} active ones with too_many_keys, until one is revoked`, async () => {
    const owner = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
    const create = (name: string) =>
      gql(`mutation($n: String!) { createChannelApiKey(channel: "demo-tv", name: $n, scopes: [READ]) { key { id } } }`, owner, { n: name });
    const existing = (await gql('{ channel(slug: "demo-tv") { apiKeys { id revokedAt } } }', owner)).body.data.channel.apiKeys.filter(
      (k: { revokedAt: string | null }) => !k.revokedAt,
    ).length;
    const ids: string[] = [];
    for (let i = existing; i < MAX_ACTIVE_KEYS_PER_CHANNEL; i++) {
      const res = await create(`k${i}`);
      expect(res.body.errors).toBeUndefined();
      ids.push(res.body.data.createChannelApiKey.key.id);
    }
    const refused = await create('one-too-many');
    expect(refused.status).toBe(200);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: `the channel already has ${MAX_ACTIVE_KEYS_PER_CHANNEL} active keys, the most allowed is ${MAX_ACTIVE_KEYS_PER_CHANNEL}: revoke one first`,
        extensions: { code: 'too_many_keys' },
      }),
    ]);
    // Another channel is not affected.
    const [garage] = await t.c.orm.em.getConnection().execute(`select id from channel where slug = 'garage-fights'`);
    const other = await t.c.services.channels.createKey(operator({ id: 'test' }), { channelId: garage.id, name: 'other', scopes: ['read'] });
    expect(other.token).toMatch(/^ck_/);
    await gql(`mutation($id: ID!) { revokeChannelApiKey(channel: "demo-tv", id: $id) { revokedAt } }`, owner, { id: ids[0] });
    expect((await create('after-revoke')).body.errors).toBeUndefined();
  });
});
