import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * Idempotency-Key on the studio's create mutations (docs/decisions.md#idempotency): the same rule
 * as the TV API's POSTs, keyed per session.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STUDIO_SESSION_PER_MINUTE: '1000000' } });
  await seedTvDemo(t.c);
  token = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
});
afterAll(() => t?.close());

const CREATE = `mutation Create($input: BroadcastInput!) { createBroadcast(channel: "demo-tv", input: $input) { id title } }`;
const gql = (query: string, variables: object, key: string | null, session = token) => {
  let r = request(t.app).post('/graphql').set('Authorization', `Bearer ${session}`).set('Content-Type', 'application/json');
  if (key !== null) r = r.set('Idempotency-Key', key);
  return r.send({ query, variables });
};
const input = (title: string) => ({ title, source: 'YOUTUBE', sourceUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduledAt: '2030-06-20T19:00:00Z' });
const countTitled = async (title: string) =>
  (await t.c.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from broadcast where title = ?`, [title]))[0].n;

it('createBroadcast repeated with the same key answers the first broadcast again, replayed, and creates one', async () => {
  const first = await gql(CREATE, { input: input('Studio retry') }, 'studio-1');
  expect([first.status, first.body.errors]).toEqual([200, undefined]);
  const again = await gql(CREATE, { input: input('Studio retry') }, 'studio-1');
  expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first.body]);
  expect(await countTitled('Studio retry')).toBe(1);
  const other = await gql(CREATE, { input: input('Studio other') }, 'studio-1');
  expect([other.status, other.body.errors?.[0]?.extensions?.code]).toEqual([422, 'idempotency_key_reused']);
});

it('20 concurrent createBroadcast repeats create exactly one; every answer is it or 409 idempotency_key_in_progress', async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, () => gql(CREATE, { input: input('Studio burst') }, 'studio-burst')));
  expect(await countTitled('Studio burst')).toBe(1);
  const ok = answers.filter((a) => a.status === 200);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  for (const a of answers) {
    if (a.status === 200) expect(a.body).toEqual(ok[0].body);
    else expect([a.status, a.body.errors?.[0]?.extensions?.code]).toEqual([409, 'idempotency_key_in_progress']);
  }
});

it('createChannelApiKey: the retry gets the same key, shown again, and only one key exists', async () => {
  const q = `mutation { createChannelApiKey(channel: "demo-tv", name: "retry-bot", scopes: [READ]) { secret key { id } } }`;
  const first = await gql(q, {}, 'key-1');
  expect(first.body.errors).toBeUndefined();
  const again = await gql(q, {}, 'key-1');
  expect([again.headers['idempotent-replayed'], again.body]).toEqual(['true', first.body]);
  const n = (await t.c.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from channel_api_key where name = 'retry-bot'`))[0].n;
  expect(n).toBe(1);
  const [row] = await t.c.orm.em.getConnection().execute<{ answer: string }[]>(`select answer from idempotency_key where key = 'key-1'`);
  expect(row.answer).not.toContain(first.body.data.createChannelApiKey.secret);
});

it('a refused create is not kept, queries ignore the header, and a bad key is 400', async () => {
  const bad = await gql(CREATE, { input: { ...input('x'), title: '' } }, 'refused-1');
  expect(bad.body.errors?.[0]?.extensions?.code).toBe('invalid_title');
  const again = await gql(CREATE, { input: { ...input('x'), title: '' } }, 'refused-1');
  expect([again.headers['idempotent-replayed'], again.body.errors?.[0]?.extensions?.code]).toEqual([undefined, 'invalid_title']);
  const query = await gql('{ __typename }', {}, 'x'.repeat(300));
  expect(query.status).toBe(200);
  const tooLong = await gql(CREATE, { input: input('Too long key') }, 'x'.repeat(256));
  expect([tooLong.status, tooLong.body.errors?.[0]?.extensions?.code]).toEqual([400, 'invalid_idempotency_key']);
  expect(await countTitled('Too long key')).toBe(0);
});
