import request from 'supertest';
import type { ChangeTopic } from '../../../src/db/change-feed';
import { operator as operatorPrincipal } from '../../../src/domain/channels/channel-access';
import { adminJson, adminProcess } from '../../helpers/cli';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient, aBroadcast } from '../../helpers/tv-client';
import { buildTvWorld, CK, type TvWorld } from '../../helpers/tv-world';
import { buildWorld, KEYS, testClock } from '../../helpers/world';

/**
 * Two API instances on one database, caching for a minute: a change made through either of
 * them, or through the operator's command line, shows on the very next request of both. The
 * instance that did not write waits only for the notification to reach it (its feed's version
 * moves), never for a cache period.
 */

const env = { ...TV_ENV, AUTH_CACHE_TTL_MS: '60000' };
let a: TestApp;
let b: TestApp;
/** Where the operator's commands run: a third process's container on the same database. */
let operator: TestApp;
let tvWorld: TvWorld;
const actor = { id: 'test' };

beforeAll(async () => {
  a = await startTestApp({ clock: testClock, env });
  b = await startTestApp({ clock: testClock, env, sharing: a });
  operator = await startTestApp({ clock: testClock, env, sharing: a });
  await buildWorld(operator.c);
  tvWorld = await buildTvWorld(operator.c);
  await operator.c.services.studioUsers.create(operatorPrincipal(actor), { email: 'crew@fight.tv', password: 'crew-password-1' });
  await operator.c.services.studioUsers.grant(operatorPrincipal(actor), { email: 'crew@fight.tv', channelSlug: 'fight-tv', role: 'manager' });
});
afterAll(async () => {
  await b?.close();
  await operator?.close();
  await a?.close();
});

/** Notes both instances' versions of `topic`; the returned wait polls (bounded) until both moved. */
function watch(topic: ChangeTopic): () => Promise<void> {
  const before = [a, b].map((i) => i.c.changes.version(topic));
  return async () => {
    for (const [n, i] of [a, b].entries()) {
      for (let tries = 0; i.c.changes.version(topic) === before[n] && tries < 2000; tries++) await new Promise((r) => setTimeout(r, 2));
      expect(i.c.changes.version(topic)).toBeGreaterThan(before[n]);
    }
  };
}

/** Runs `change`, then waits until every instance has heard of it on `topic`. */
async function changeAndHear<T>(topic: ChangeTopic, change: () => Promise<T>): Promise<T> {
  const heard = watch(topic);
  const out = await change();
  await heard();
  return out;
}

const status = async (t: TestApp, key: string) => (await getPartner(t.app, '/me', key)).status;

describe('partner keys', () => {
  it('are live on both instances and cached; revoked by the command line process, they are 401 on the next request of either', async () => {
    const issued = await changeAndHear('partner_keys', () =>
      adminJson(operator.c, 'keys:issue', '--partner', 'acme-media', '--name', 'cross', '--scopes', 'rankings.read'),
    );
    expect([await status(a, issued.key), await status(b, issued.key)]).toEqual([200, 200]);
    const revoked = await changeAndHear('partner_keys', () => adminProcess(a.db.url, ['keys:revoke', issued.id, '--json']));
    expect(revoked).toMatchObject({ code: 0 });
    expect([await status(a, issued.key), await status(b, issued.key)]).toEqual([401, 401]);
  });

  it('stop with a partner suspension and work again on reinstatement', async () => {
    expect([await status(a, KEYS.full), await status(b, KEYS.full)]).toEqual([200, 200]);
    await changeAndHear('partner_keys', () => adminJson(operator.c, 'partners:suspend', 'acme-media'));
    expect([await status(a, KEYS.full), await status(b, KEYS.full)]).toEqual([401, 401]);
    await changeAndHear('partner_keys', () => adminJson(operator.c, 'partners:reinstate', 'acme-media'));
    expect([await status(a, KEYS.full), await status(b, KEYS.full)]).toEqual([200, 200]);
  });

  it('an unknown key (even 15 KB of it) is refused, and a key issued afterwards works at once on both instances', async () => {
    expect(await status(a, `pk_${'x'.repeat(15_000)}`)).toBe(401);
    // refused, and the refusal cached, on both instances before the key exists
    expect([await status(a, 'pk_test_late'), await status(b, 'pk_test_late')]).toEqual([401, 401]);
    await changeAndHear('partner_keys', () =>
      operator.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'late', scopes: ['rankings.read'], fixedToken: 'pk_test_late' }),
    );
    expect([await status(a, 'pk_test_late'), await status(b, 'pk_test_late')]).toEqual([200, 200]);
  });

  it('the writing instance sees its own change without waiting for the notification', async () => {
    const issued = await a.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'own', scopes: ['rankings.read'] });
    expect(await status(a, issued.token)).toBe(200);
    await a.c.services.partners.revokeKey(actor, issued.key.id);
    expect(await status(a, issued.token)).toBe(401);
  });
});

describe('channel keys', () => {
  it('revoked on one instance, are 401 on the next request of either', async () => {
    const created = await changeAndHear('channel_keys', () =>
      operator.c.services.channels.createKey(operatorPrincipal(actor), { channelId: tvWorld.channelIds.pro, name: 'cross', scopes: ['read'] }),
    );
    const me = async (t: TestApp) => (await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${created.token}`)).status;
    expect([await me(a), await me(b)]).toEqual([200, 200]);
    await changeAndHear('channel_keys', () => b.c.services.channels.revokeKey(operatorPrincipal(actor), tvWorld.channelIds.pro, created.key.id));
    expect([await me(a), await me(b)]).toEqual([401, 401]);
  });
});

describe('studio sessions', () => {
  const gql = (t: TestApp, query: string, token?: string) => {
    let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    return req.send({ query });
  };

  it('signed out on one instance, are refused on the next request of either', async () => {
    const login = await changeAndHear('studio_sessions', () => gql(a, 'mutation { login(email: "crew@fight.tv", password: "crew-password-1") { token } }'));
    const token = login.body.data.login.token as string;
    expect([(await gql(a, '{ viewer { email } }', token)).status, (await gql(b, '{ viewer { email } }', token)).status]).toEqual([200, 200]);
    await changeAndHear('studio_sessions', () => gql(a, 'mutation { logout }', token));
    expect([(await gql(a, '{ viewer { email } }', token)).status, (await gql(b, '{ viewer { email } }', token)).status]).toEqual([401, 401]);
  });
});

describe('public TV schedules', () => {
  const slugs = async (t: TestApp, path: string) => ((await new TvClient(t.app).get(path)).body.data as { slug: string }[]).map((x) => x.slug);
  const channel = async (t: TestApp) => (await new TvClient(t.app).get('/channels/fight-tv')).body.data;

  it('show a go-live and an end on the next request of the writing instance and of the other one', async () => {
    const tvA = new TvClient(a.app);
    // both instances have the pages cached
    for (const t of [a, b]) for (const path of ['/live', '/upcoming', '/channels']) await slugs(t, path);
    let heard = watch('tv');
    const created = (await tvA.expectStatus(tvA.post('/broadcasts', CK.rw, aBroadcast()), 201)).body.data;
    // the writer at once; the other instance once it has heard
    expect(await slugs(a, '/upcoming')).toContain(created.slug);
    await heard();
    expect(await slugs(b, '/upcoming')).toContain(created.slug);
    expect(await slugs(b, '/live')).not.toContain(created.slug);

    heard = watch('tv');
    await tvA.expectStatus(tvA.post(`/broadcasts/${created.id}/go-live`, CK.rw), 200);
    expect(await slugs(a, '/live')).toContain(created.slug);
    expect(await slugs(a, '/upcoming')).not.toContain(created.slug);
    await heard();
    expect(await slugs(b, '/live')).toContain(created.slug);
    expect((await channel(b)).live.map((x: { slug: string }) => x.slug)).toContain(created.slug);
    expect((await new TvClient(b.app).get(`/broadcasts/${created.slug}`)).body.data.state).toBe('live');

    await changeAndHear('tv', () => tvA.expectStatus(tvA.post(`/broadcasts/${created.id}/end`, CK.rw), 200));
    expect(await slugs(a, '/live')).not.toContain(created.slug);
    expect(await slugs(b, '/live')).not.toContain(created.slug);
    expect((await new TvClient(b.app).get(`/broadcasts/${created.slug}`)).body.data.state).toBe('replay');
  });

  it('list a channel on both instances as soon as the operator approves it', async () => {
    const listed = async (t: TestApp) => slugs(t, '/channels');
    expect(await listed(b)).not.toContain('new-tv');
    await changeAndHear('tv', () => adminJson(operator.c, 'channels:approve', 'new-tv'));
    expect(await listed(a)).toContain('new-tv');
    expect(await listed(b)).toContain('new-tv');
  });
});

describe('the LISTEN connection', () => {
  const onPostgres = !!process.env.TEST_TEMPLATE_DB;
  (onPostgres ? it : it.skip)('when terminated, is re-established and every topic is bumped (cached answers are reloaded)', async () => {
    const before = b.c.changes.version('catalog');
    await a.c.orm.em
      .getConnection()
      .execute(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'listen svc_changes' and pid <> pg_backend_pid()`,
      );
    for (let tries = 0; !(b.c.changes.live && b.c.changes.version('catalog') > before) && tries < 2000; tries++) await new Promise((r) => setTimeout(r, 5));
    expect(b.c.changes.live).toBe(true);
    expect(b.c.changes.version('catalog')).toBeGreaterThan(before);
    // and it hears again
    await changeAndHear('partner_keys', () => adminJson(operator.c, 'partners:suspend', 'acme-media'));
    expect(await status(b, KEYS.full)).toBe(401);
    await changeAndHear('partner_keys', () => adminJson(operator.c, 'partners:reinstate', 'acme-media'));
  });
});
