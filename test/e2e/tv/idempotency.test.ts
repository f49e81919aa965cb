import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, MutableClock, TV_ENV, tvSpec } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * Idempotency-Key on the TV API's POSTs (docs/decisions.md#idempotency, Stripe's semantics): a
 * channel's automation that retries after a time-out never creates a broadcast twice.
 */

const clock = new MutableClock('2026-11-26T10:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV, clock });
  await buildTvWorld(t.c);
});
afterAll(() => t?.close());

const post = (path: string, body: object | null, key: string | null, credential = CK.rw) => {
  let r = request(t.app).post(`/api/tv${path}`).set('Authorization', `Bearer ${credential}`);
  if (key !== null) r = r.set('Idempotency-Key', key);
  return body ? r.send(body) : r;
};
const countTitled = async (title: string) =>
  (await t.c.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from broadcast where title = ?`, [title]))[0].n;

it('a repeat with the same key and body answers the first answer again, marked replayed, and creates nothing', async () => {
  const body = aBroadcast();
  const first = await post('/broadcasts', body, 'retry-1');
  expect(first.status).toBe(201);
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  const again = await post('/broadcasts', body, 'retry-1');
  expect(again.status).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.headers.location).toBe(first.headers.location);
  expect(again.body).toEqual(first.body);
  tvSpec.expectValid(again);
  expect(await countTitled(body.title as string)).toBe(1);
  // Without a key every POST is a new one, as before.
  expect((await post('/broadcasts', body, null)).status).toBe(201);
  expect(await countTitled(body.title as string)).toBe(2);
});

it('the same key with another request is 422 idempotency_key_reused; another credential has keys of its own', async () => {
  const first = await post('/broadcasts', aBroadcast(), 'shared-key');
  expect(first.status).toBe(201);
  const other = await post('/broadcasts', aBroadcast(), 'shared-key');
  expect([other.status, other.body.error]).toEqual([422, 'idempotency_key_reused']);
  tvSpec.expectValid(other);
  const goLive = await post(`/broadcasts/${first.body.data.id}/go-live`, null, 'shared-key');
  expect([goLive.status, goLive.body.error]).toEqual([422, 'idempotency_key_reused']);
  // Scoped per credential: the other channel's key may use the same string for its own request.
  const rival = await post('/broadcasts', aBroadcast(), 'shared-key', CK.other);
  expect(rival.status).toBe(201);
  expect(rival.body.data.id).not.toBe(first.body.data.id);
});

it('20 concurrent repeats create exactly one broadcast; every answer is that one or 409 idempotency_key_in_progress', async () => {
  const body = aBroadcast();
  const answers = await Promise.all(Array.from({ length: 20 }, () => post('/broadcasts', body, 'burst-1')));
  expect(await countTitled(body.title as string)).toBe(1);
  const created = answers.filter((a) => a.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  const ids = new Set(created.map((a) => a.body.data.id));
  expect(ids.size).toBe(1);
  for (const a of answers) {
    if (a.status === 201) expect(a.body).toEqual(created[0].body);
    else expect([a.status, a.body.error]).toEqual([409, 'idempotency_key_in_progress']);
    tvSpec.expectValid(a);
  }
  // Once the first has finished, a retry is answered, never refused.
  const later = await post('/broadcasts', body, 'burst-1');
  expect([later.status, later.body.data.id, later.headers['idempotent-replayed']]).toEqual([201, [...ids][0], 'true']);
});

it('transitions too: a repeated go-live answers the first answer instead of 409 invalid_state', async () => {
  const b = (await post('/broadcasts', aBroadcast(), null)).body.data;
  const first = await post(`/broadcasts/${b.id}/go-live`, null, `live-${b.id}`);
  expect(first.status).toBe(200);
  const again = await post(`/broadcasts/${b.id}/go-live`, null, `live-${b.id}`);
  expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first.body]);
  const fresh = await post(`/broadcasts/${b.id}/go-live`, null, `other-${b.id}`);
  expect([fresh.status, fresh.body.error]).toEqual([409, 'invalid_state']);
  // A refusal is not kept: the key is free, and the same request runs again (and is refused again).
  const retried = await post(`/broadcasts/${b.id}/go-live`, null, `other-${b.id}`);
  expect([retried.status, retried.headers['idempotent-replayed']]).toEqual([409, undefined]);
  await post(`/broadcasts/${b.id}/end`, null, null);
});

it("a stream key shown once is shown again to the same key's retry, and is stored encrypted", async () => {
  const body = aBroadcast({ source: 'ingest', source_url: undefined });
  const first = await post('/broadcasts', body, 'ingest-1');
  expect(first.status).toBe(201);
  const streamKey = first.body.data.ingest.stream_key as string;
  expect(streamKey).toBeTruthy();
  const again = await post('/broadcasts', body, 'ingest-1');
  expect(again.body.data.ingest.stream_key).toBe(streamKey);
  const rows = await t.c.orm.em.getConnection().execute<{ answer: string }[]>(`select answer from idempotency_key where key = 'ingest-1'`);
  expect(rows).toHaveLength(1);
  expect(rows[0].answer).not.toContain(streamKey);
  expect(Buffer.from(rows[0].answer, 'base64').toString('latin1')).not.toContain(streamKey);
});

it('keys are 1 to 255 visible characters, else 400 invalid_idempotency_key', async () => {
  for (const bad of ['x'.repeat(256), 'with space', 'tab\tkey']) {
    const res = await post('/broadcasts', aBroadcast(), bad);
    expect([bad.slice(0, 10), res.status, res.body.error]).toEqual([bad.slice(0, 10), 400, 'invalid_idempotency_key']);
    tvSpec.expectValid(res);
  }
  expect((await post('/broadcasts', aBroadcast(), 'k'.repeat(255))).status).toBe(201);
});

it('a key is kept 24 hours: afterwards it is free again, and expired keys are purged', async () => {
  const body = aBroadcast();
  expect((await post('/broadcasts', body, 'day-1')).status).toBe(201);
  clock.advance(23 * 3600_000);
  expect((await post('/broadcasts', body, 'day-1')).headers['idempotent-replayed']).toBe('true');
  clock.advance(2 * 3600_000);
  const after = await post('/broadcasts', body, 'day-1');
  expect([after.status, after.headers['idempotent-replayed']]).toEqual([201, undefined]);
  expect(await countTitled(body.title as string)).toBe(2);
  // The keys of the earlier tests (a day old) were purged on the way, lazily; day-1 holds its new answer.
  const conn = t.c.orm.em.getConnection();
  const keys = async () => (await conn.execute<{ key: string }[]>(`select key from idempotency_key order by key`)).map((r) => r.key);
  expect(await keys()).toEqual(['day-1']);
  clock.advance(25 * 3600_000);
  expect(await t.c.idempotency.purgeExpired()).toBe(1);
  expect(await keys()).toEqual([]);
});
