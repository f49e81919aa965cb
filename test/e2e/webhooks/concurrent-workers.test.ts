import { loadConfig } from '../../../src/config/config';
import { createContainer, type Container } from '../../../src/container';
import { openDatabase, type Database } from '../../../src/db/database';
import { createDeliveryWorker } from '../../../src/webhooks/worker.factory';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, header, registerEndpoint, seedBasics, sleep, waitUntil, WEBHOOK_ENV } from '../../helpers/webhooks';
import { entities } from '../../../src/entities';

/**
 * Any number of workers deliver each attempt once (docs/decisions.md#outbox): two workers, each on its own container
 * and ORM (its own connections), race for 200 deliveries of two attempts each. Every
 * (delivery id, attempt) pair must arrive exactly once, and both workers must have taken a share.
 */

const DELIVERIES = 200;
const ENV = { ...WEBHOOK_ENV, WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms', WEBHOOK_BATCH: '7' };
let t: TestApp;
let db2: Database;
let c2: Container;
const receiver = new WebhookReceiver();
let endpoints: { id: string; secret: string }[];

beforeAll(async () => {
  t = await startTestApp({ env: ENV });
  await seedBasics(t.c);
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.db.url, LOG_LEVEL: 'silent', DB_POOL_MAX: process.env.TEST_EMBEDDED_URL ? '1' : '4', ...ENV });
  db2 = await openDatabase(config, { entities, migrate: false });
  c2 = createContainer(config, db2.orm);
  const url = await receiver.start();
  // Four endpoints of one receiver x 50 events = 200 deliveries.
  endpoints = [];
  for (let i = 0; i < 4; i++) endpoints.push(await registerEndpoint(t.c, `${url}?endpoint=${i}`, ['event.sanctioned']));
  receiver.secrets = endpoints.map((e) => e.secret);
});
afterAll(async () => {
  await receiver.stop();
  await c2?.close();
  await db2?.close();
  await t?.close();
});

it('sends every (delivery id, attempt) pair exactly once between two workers', async () => {
  // Every delivery fails its first attempt and succeeds its second: 400 requests in all.
  const seen = new Set<string>();
  receiver.reply = (r) => {
    const id = header(r, 'X-SVC-Delivery')!;
    if (seen.has(id)) return { status: 200 };
    seen.add(id);
    return { status: 500 };
  };
  // All 200 deliveries committed at once, before either worker starts.
  await t.c.orm.em.fork().transactional(async (em) => {
    for (let i = 0; i < DELIVERIES / endpoints.length; i++) {
      const e = await t.c.services.events.create(actor, { name: `Race ${i}`, countrySlug: 'germany', date: '2026-07-01' }, em);
      await t.c.services.events.sanction(actor, e.code, em);
    }
  });
  // The transaction wrote what changed (one row per event) and nothing per endpoint: the
  // workers make the 200 deliveries after the commit (outbox.ts).
  const [{ changes, deliveries }] = await t.c.orm.em
    .getConnection()
    .execute<{ changes: number; deliveries: number }[]>(
      `select (select count(*)::int from webhook_change) as changes, (select count(*)::int from webhook_delivery) as deliveries`,
    );
  expect({ changes, deliveries }).toEqual({ changes: DELIVERIES / endpoints.length, deliveries: 0 });

  const w1 = await createDeliveryWorker(t.c, t.db);
  const w2 = await createDeliveryWorker(c2, db2);
  // Each worker's loop, as worker.start() runs it, counting what each one claims.
  let running = true;
  const claimed = [0, 0];
  const loop = async (w: typeof w1, i: number) => {
    while (running) {
      const got = await w.worker.tick();
      claimed[i] += got;
      if (got === 0) await sleep(20);
    }
  };
  const loops = [loop(w1, 0), loop(w2, 1)];
  try {
    await receiver.waitFor(2 * DELIVERIES, 60_000);
    await sleep(500); // anything sent twice would arrive by now
  } finally {
    running = false;
    await Promise.all(loops);
    await w1.close();
    await w2.close();
  }

  const pairs = new Map<string, number>();
  for (const r of receiver.received) {
    const key = `${header(r, 'X-SVC-Delivery')}#${header(r, 'X-SVC-Attempt')}`;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  const twice = [...pairs].filter(([, count]) => count > 1);
  expect(twice).toEqual([]);
  expect(receiver.received).toHaveLength(2 * DELIVERIES);
  expect(pairs.size).toBe(2 * DELIVERIES);
  const byDelivery = new Map<string, string[]>();
  for (const key of pairs.keys()) {
    const [id, attempt] = key.split('#');
    byDelivery.set(id, [...(byDelivery.get(id) ?? []), attempt].sort());
  }
  expect(byDelivery.size).toBe(DELIVERIES);
  expect([...byDelivery.values()].every((a) => a.join() === '1,2')).toBe(true);
  expect(receiver.received.every((r) => r.validSignature)).toBe(true);
  // Both workers did part of the work.
  expect(claimed[0] + claimed[1]).toBe(2 * DELIVERIES);
  expect(claimed[0]).toBeGreaterThan(0);
  expect(claimed[1]).toBeGreaterThan(0);

  const rows = await waitUntil('every delivery succeeded', async () => {
    const r = await t.c.orm.em
      .getConnection()
      .execute<{ status: string; attempt: number; n: number }[]>(`select status, attempt, count(*)::int as n from webhook_delivery group by status, attempt`);
    return r.length === 1 && r[0].status === 'succeeded' ? r : null;
  });
  expect(rows).toEqual([{ status: 'succeeded', attempt: 2, n: DELIVERIES }]);
  const [log] = await t.c.orm.em
    .getConnection()
    .execute<{ n: number; pairs: number }[]>(`select count(*)::int as n, count(distinct (delivery_id, attempt_no))::int as pairs from webhook_attempt`);
  expect(log).toEqual({ n: 2 * DELIVERIES, pairs: 2 * DELIVERIES });
}, 90_000);
