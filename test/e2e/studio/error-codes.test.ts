import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * One error-code vocabulary on /graphql (docs/studio-graphql.md#errors): every error, whoever
 * raises it (the door's authentication and limits, body parsing, Apollo Server, graphql-js, the
 * domain), is a GraphQL response whose extensions.code is a lower snake case code of the domain's
 * vocabulary, with the HTTP status the docs' table gives it.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  await seedTvDemo(t.c);
  token = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
});
afterAll(() => t?.close());

const J = 'application/json';
const signedIn = () => request(t.app).post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', J);
const paged = 'query($f: Int!) { channel(slug: "demo-tv") { broadcasts(first: $f) { edges { cursor } } } }';

const CASES: [string, () => request.Test, number, string][] = [
  ['a syntax error', () => signedIn().send({ query: '{ viewer { ' }), 400, 'invalid_query'],
  ['an unknown field', () => signedIn().send({ query: '{ nope }' }), 400, 'invalid_query'],
  [
    'an enum value written in the old lower case',
    () => signedIn().send({ query: '{ channel(slug: "demo-tv") { broadcasts(state: live) { edges { cursor } } } }' }),
    400,
    'invalid_query',
  ],
  ['a variable of the wrong type', () => signedIn().send({ query: paged, variables: { f: 'x' } }), 400, 'invalid_variables'],
  ['a required variable missing', () => signedIn().send({ query: paged }), 400, 'invalid_variables'],
  ['an operationName the document lacks', () => signedIn().send({ query: 'query A { viewer { email } }', operationName: 'B' }), 400, 'invalid_operation_name'],
  ['a body without a query', () => signedIn().send({}), 400, 'bad_request'],
  ['a simple cross-site request (CSRF prevention)', () => request(t.app).get('/graphql?query=%7Bviewer%7Bemail%7D%7D'), 400, 'bad_request'],
  [
    'a persisted query hash the server does not know',
    () => signedIn().send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }),
    200,
    'persisted_query_not_found',
  ],
  [
    'a mutation over GET',
    () => request(t.app).get('/graphql?query=mutation%7Blogout%7D').set('Authorization', `Bearer ${token}`).set('apollo-require-preflight', '1'),
    405,
    'method_not_allowed',
  ],
  ['an Accept header without JSON', () => signedIn().set('Accept', 'application/xml').send({ query: '{ viewer { email } }' }), 406, 'not_acceptable'],
  ['a body that is not JSON', () => signedIn().send('{"query": '), 400, 'invalid_json'],
  [
    'a body over 256 KiB',
    () => signedIn().send(JSON.stringify({ query: '{ viewer { email } }', variables: { x: 'y'.repeat(300_000) } })),
    413,
    'payload_too_large',
  ],
  ['a batched array', () => signedIn().send([{ query: '{ viewer { email } }' }]), 400, 'batching_not_supported'],
  [
    'an unknown session',
    () => request(t.app).post('/graphql').set('Authorization', 'Bearer st_nope').set('Content-Type', J).send({ query: '{ viewer { email } }' }),
    401,
    'invalid_key',
  ],
  [
    'an Authorization header that is not Bearer',
    () => request(t.app).post('/graphql').set('Authorization', 'Basic eA==').set('Content-Type', J).send({ query: '{ viewer { email } }' }),
    401,
    'unauthenticated',
  ],
  [
    'no session where one is needed',
    () => request(t.app).post('/graphql').set('Content-Type', J).send({ query: '{ viewer { email } }' }),
    200,
    'unauthenticated',
  ],
  ['a channel the user holds no role on', () => signedIn().send({ query: '{ channel(slug: "garage-fights") { name } }' }), 200, 'not_found'],
  [
    'a bad value judged by the domain',
    () => signedIn().send({ query: '{ channel(slug: "demo-tv") { broadcasts(first: 0) { edges { cursor } } } }' }),
    200,
    'invalid_first',
  ],
];

/** The rows of the docs' error table: code -> the HTTP status cell. */
function documentedCodes(): Map<string, string> {
  const doc = readFileSync(join(__dirname, '../../../docs/studio-graphql.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Errors'));
  const rows = [...section.matchAll(/^\| (`[a-z_<>]+`(?:, `[a-z_<>]+`)*) \| ([^|]+) \|/gm)];
  return new Map(rows.flatMap((m) => m[1].split(', ').map((code) => [code.slice(1, -1), m[2]] as [string, string])));
}

describe('one error-code vocabulary on /graphql', () => {
  it.each(CASES)('%s: a GraphQL error response with the documented status and code', async (_what, send, status, code) => {
    const res = await send();
    expect([res.status, res.headers['content-type']]).toEqual([status, expect.stringMatching(/^application\/json/)]);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code }) })]);
    expect(Object.keys(res.body).filter((k) => k !== 'errors' && k !== 'data')).toEqual([]);
    const documented = documentedCodes().get(
      code.startsWith('invalid_') &&
        !['invalid_query', 'invalid_variables', 'invalid_operation_name', 'invalid_json', 'invalid_key', 'invalid_string'].includes(code)
        ? 'invalid_<field>'
        : code,
    );
    expect(documented).toContain(String(status));
  });

  it('keeps the persisted-query message that clients of automatic persisted queries look for', async () => {
    const res = await signedIn().send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'b'.repeat(64) } } });
    expect(res.body.errors[0]).toEqual({ message: 'PersistedQueryNotFound', extensions: { code: 'persisted_query_not_found' } });
  });

  it('answers a session over its rate limit with a GraphQL 429 rate_limited and Retry-After', async () => {
    const small = await startTestApp({ env: { STUDIO_SESSION_PER_MINUTE: '2' } });
    try {
      await seedTvDemo(small.c);
      const session = (await small.c.services.studioAuth.login('viewer@demo.tv', 'demo-viewer-pass')).token;
      const ask = () =>
        request(small.app).post('/graphql').set('Authorization', `Bearer ${session}`).set('Content-Type', J).send({ query: '{ viewer { email } }' });
      await ask();
      await ask();
      const over = await ask();
      expect([over.status, over.body.errors[0].extensions.code]).toEqual([429, 'rate_limited']);
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(documentedCodes().get('rate_limited')).toContain('429');
    } finally {
      await small.close();
    }
  });
});
