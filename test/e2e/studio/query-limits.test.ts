import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { QUERY_LIMITS } from '../../../src/graphql/query-limits';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { DASHBOARD } from '../../helpers/studio-queries';

let dev: TestApp;
let prod: TestApp;
let token: string;
beforeAll(async () => {
  dev = await startTestApp();
  prod = await startTestApp({ env: { NODE_ENV: 'production' } });
  await seedTvDemo(dev.c);
  token = (await dev.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
});
afterAll(async () => {
  await dev?.close();
  await prod?.close();
});

function post(app: TestApp, body: unknown, session?: string) {
  let req = request(app.app).post('/graphql').set('Content-Type', 'application/json');
  if (session) req = req.set('Authorization', `Bearer ${session}`);
  return req.send(body as object);
}

/** 856 bytes: `fragment F0 on Viewer { ...F1 ...F1 }` 20 levels down, 2^20 paths. */
const FAN_OUT = `{ viewer { ...F0 } } ${Array.from({ length: 20 }, (_, i) => `fragment F${i} on Viewer { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F20 on Viewer { email }`;
/** 3,200 of them fit under the 256 kB body limit (261,303 bytes of JSON). */
const ALIASES = (n: number) =>
  `{${Array.from({ length: n }, (_, i) => `a${i}:channel(slug:"demo-tv"){broadcasts(first:1){edges{node{health{signal}}}}}`).join(' ')}}`;

function expectRefused(res: request.Response, code: string) {
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/json/);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toContain(code);
  for (const e of res.body.errors) expect(JSON.stringify(e)).not.toMatch(/stacktrace|\.ts:\d+|\.js:\d+/);
}

describe('studio GraphQL query limits', () => {
  it('refuses the fragment fan-out, anonymous or signed in, with query_too_costly and the limit in the message', async () => {
    for (const session of [undefined, token]) {
      const res = await post(dev, { query: FAN_OUT }, session);
      expectRefused(res, 'query_too_costly');
      expect(res.body.errors[0].message).toContain(`at most ${QUERY_LIMITS.cost}`);
    }
  });

  it('answers /healthz while fragment fan-outs are in flight', async () => {
    const [attacks, health] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => post(dev, { query: FAN_OUT }, token))),
      request(dev.app).get('/healthz'),
    ]);
    for (const res of attacks) expectRefused(res, 'query_too_costly');
    expect(health.status).toBe(200);
  });

  it('refuses the 3,200-alias query before parsing it (too_many_tokens) and 16 aliases with too_many_aliases', async () => {
    const [big, health] = await Promise.all([post(dev, { query: ALIASES(3_200) }, token), request(dev.app).get('/healthz')]);
    expectRefused(big, 'too_many_tokens');
    expect(big.body.errors[0].message).toContain(`at most ${QUERY_LIMITS.tokens}`);
    expect(health.status).toBe(200);
    const small = await post(dev, { query: ALIASES(QUERY_LIMITS.aliases + 1) }, token);
    expectRefused(small, 'too_many_aliases');
    expect(small.body.errors[0].message).toBe(`the query uses ${QUERY_LIMITS.aliases + 1} aliases; at most ${QUERY_LIMITS.aliases} are allowed`);
    const ok = await post(dev, { query: ALIASES(3) }, token);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.a2.broadcasts.edges).toHaveLength(1);
  });

  it('refuses too deep, too many directives and too many tokens on a GET too', async () => {
    const deep = await post(
      dev,
      {
        query: `{ viewer { channels { webhookEndpoints { deliveries { attempts { attemptNo } } } broadcasts { edges { node { health { warnings { code message } } } } } } } }`,
      },
      token,
    );
    expect(deep.body.errors).toBeUndefined();
    const directives = await post(
      dev,
      { query: `{ viewer { ${Array.from({ length: QUERY_LIMITS.directives + 1 }, () => 'email @include(if: true)').join(' ')} } }` },
      token,
    );
    expectRefused(directives, 'too_many_directives');
    const get = await request(dev.app)
      .get('/graphql')
      .set('apollo-require-preflight', 'true')
      .set('Authorization', `Bearer ${token}`)
      .query({ query: ALIASES(100) });
    expectRefused(get, 'too_many_tokens');
  });

  it('refuses a batched array with a 400 JSON error, anonymous or signed in', async () => {
    for (const session of [undefined, token]) {
      const res = await post(dev, [{ query: '{ viewer { email } }' }, { query: '{ viewer { id } }' }], session);
      expectRefused(res, 'batching_not_supported');
      expect(res.body.errors[0].message).toMatch(/one operation per request/);
    }
  });

  it('refuses a NUL character in a string (literal or variable) with a 400, found by fuzzing (it was a 500 from PostgreSQL)', async () => {
    expectRefused(await post(dev, { query: '{ channel(slug: "demo\\u0000tv") { plan } }' }, token), 'invalid_string');
    expectRefused(await post(dev, { query: 'query($s: String!) { channel(slug: $s) { plan } }', variables: { s: 'demo\u0000tv' } }, token), 'invalid_string');
  });

  it('still answers the dashboard query, with its 50 broadcasts page', async () => {
    const res = await post(dev, { query: DASHBOARD, variables: { slug: 'demo-tv' } }, token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.channel.slug).toBe('demo-tv');
    expect(res.body.data.channel.broadcasts.edges.length).toBeGreaterThan(0);
  });

  it('lets the standard introspection query through outside production and refuses it in production', async () => {
    const on = await post(dev, { query: getIntrospectionQuery() });
    expect(on.status).toBe(200);
    expect(on.body.errors).toBeUndefined();
    expect(on.body.data.__schema.queryType.name).toBe('Query');
    const off = await post(prod, { query: getIntrospectionQuery() });
    expect(off.status).toBe(400);
    expect(off.body.data).toBeUndefined();
    expect(off.body.errors.some((e: { message: string }) => /introspection/i.test(e.message))).toBe(true);
  });

  it('hides field suggestions in production only', async () => {
    const prodRes = await post(prod, { query: '{ viewer { emial } }' });
    expect(prodRes.status).toBe(400);
    expect(JSON.stringify(prodRes.body)).not.toMatch(/Did you mean/);
    const devRes = await post(dev, { query: '{ viewer { emial } }' });
    expect(devRes.body.errors[0].message).toMatch(/Did you mean "email"/);
  });
});
