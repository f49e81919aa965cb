import request from 'supertest';
import { TcpProxy } from '../../../src/bench/tcp-proxy';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { provisionTestDatabase } from '../../helpers/test-database';
import { buildTvWorld, CK } from '../../helpers/tv-world';
import { aBroadcast } from '../../helpers/tv-client';

/**
 * PostgreSQL going away (docs/decisions.md#unavailable): the service reaches its database through
 * a TCP proxy that the test cuts (every open connection reset, new ones refused) and restores.
 * While it is cut every door answers 503 `unavailable` with Retry-After, never a 500; once it is
 * back the same requests succeed with no restart.
 */

let t: TestApp;
let proxy: TcpProxy;
let drop: () => Promise<void>;
let partnerKey: string;

beforeAll(async () => {
  const database = await provisionTestDatabase();
  drop = database.drop;
  const url = new URL(database.url);
  proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
  await proxy.start();
  t = await startTestApp({ sharing: { db: { url: proxy.proxied(database.url) } } as TestApp });
  await t.c.services.partners.create({ id: 'test' }, { slug: 'acme-media', name: 'Acme' });
  partnerKey = (
    await t.c.services.partners.issueKey(
      { id: 'test' },
      { partnerSlug: 'acme-media', name: 'outage', scopes: ['events.read', 'results.read'], rateLimitPerMinute: 100_000 },
    )
  ).token;
  await buildTvWorld(t.c);
});
afterAll(async () => {
  proxy?.restore();
  await t?.close();
  await proxy?.stop();
  await drop?.();
});

/** One request per door: partner REST, TV public and channel, TV write, GraphQL with and without a session, readiness. */
const calls: [string, () => request.Test][] = [
  ['GET /api/v1/events', () => request(t.app).get('/api/v1/events').set('Authorization', `Bearer ${partnerKey}`)],
  ['GET /api/v1/results?since=2020-01-01', () => request(t.app).get('/api/v1/results?since=2020-01-01').set('Authorization', `Bearer ${partnerKey}`)],
  ['GET /api/tv/channels', () => request(t.app).get('/api/tv/channels')],
  ['GET /api/tv/me', () => request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${CK.rw}`)],
  ['POST /api/tv/broadcasts', () => request(t.app).post('/api/tv/broadcasts').set('Authorization', `Bearer ${CK.rw}`).send(aBroadcast())],
  [
    'POST /graphql login',
    () => request(t.app).post('/graphql').send({ query: 'mutation { login(email: "a@b.example", password: "wrong-password") { token } }' }),
  ],
  [
    'POST /graphql session',
    () =>
      request(t.app)
        .post('/graphql')
        .set('Authorization', `Bearer st_${'x'.repeat(40)}`)
        .send({ query: '{ me { email } }' }),
  ],
  ['GET /readyz', () => request(t.app).get('/readyz')],
];

it('answers 503 unavailable with Retry-After on every door while PostgreSQL is away, and recovers by itself', async () => {
  for (const [name, call] of calls) {
    const res = await call();
    expect([name, res.status < 500]).toEqual([name, true]);
  }

  proxy.cut();
  for (const [name, call] of calls) {
    const res = await call();
    const code = res.body.error ?? res.body.errors?.[0]?.extensions?.code;
    const expected = name === 'GET /readyz' ? 'not_ready' : 'unavailable';
    expect([name, res.status, code, res.headers['retry-after']]).toEqual([name, 503, expected, '5']);
    expect(res.text).not.toMatch(/select|insert|ECONNREFUSED|stack/i);
  }

  proxy.restore();
  // Pools drop the cut connections and open new ones on demand: no restart, no operator.
  for (const [name, call] of calls) {
    let res = await call();
    for (let i = 0; i < 20 && res.status >= 500; i++) res = await call();
    expect([name, res.status < 500]).toEqual([name, true]);
  }
});
