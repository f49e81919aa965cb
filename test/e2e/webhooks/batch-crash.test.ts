import type { ChildProcess } from 'node:child_process';
import type { EntityManager } from '@mikro-orm/postgresql';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { deliveriesOf, exited, header, registerEndpoint, sanctionEvent, seedBasics, spawnWorkerProcess, waitUntil, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * A worker killed with SIGKILL in the middle of batches (claimed attempts in flight, outcomes not
 * yet recorded, changes being expanded) loses nothing and sends nothing twice beyond
 * at-least-once: every event arrives; an attempt recorded before the kill is never sent again;
 * an attempt sent again carries the same delivery id and attempt number.
 */

const N = 200;
let t: TestApp;
const receiver = new WebhookReceiver();
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedBasics(t.c);
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }
  await receiver.stop();
  await t?.close();
});

/**
 * `leaseMs`: each worker's leases outlast what it does with them, so no worker takes back and
 * re-sends its own attempts (on a loaded machine a 1 s lease ran out under the first worker's
 * hanging requests, or before the second recorded an answer, and one attempt was sent three
 * times). The second worker still takes over the first's leases when they run out, 5 s after
 * their claim: how long a lease lasts is written with the claim.
 */
function worker(leaseMs: number) {
  const child = spawnWorkerProcess(t.db.url, { WEBHOOK_BATCH: '40', WEBHOOK_ENDPOINT_CONCURRENCY: '32', WEBHOOK_LEASE_MS: String(leaseMs) });
  children.push(child);
  return child;
}

it('delivers every event after a worker dies mid-batch, re-sending only attempts whose outcome was not recorded', async () => {
  const ep = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [ep.secret];
  const code = await sanctionEvent(t.c, 'Batch Night');
  // The first 60 requests are answered; then the receiver stops answering until the kill.
  let answering = true;
  receiver.reply = (_r, i) => (answering && i < 60 ? { status: 200 } : answering ? { status: 200, delayMs: 60_000 } : { status: 200 });
  const [{ id: eventId }] = await t.c.orm.em.getConnection().execute<{ id: string }[]>('select id from event where code = ?', [code]);
  // N changes in one transaction, as one bulk operator change writes them.
  await t.c.orm.em.fork().transactional((em) =>
    t.c.outbox.publish(
      em as EntityManager,
      Array.from({ length: N }, () => ({ type: 'event.sanctioned' as const, eventId })),
    ),
  );

  const first = worker(5_000);
  await receiver.waitFor(70, 120_000).catch((err) => {
    throw new Error(`${(err as Error).message}; worker output: ${first.output()}`);
  });
  first.kill('SIGKILL');
  await exited(first);
  answering = false;
  const recorded = new Set((await deliveriesOf(t.c, ep.id)).filter((d) => d.status === 'succeeded').map((d) => d.id));
  const before = receiver.received.length;
  expect(recorded.size).toBeGreaterThan(0);
  expect(recorded.size).toBeLessThan(before);

  const second = worker(60_000);
  await waitUntil(
    'every delivery succeeded',
    async () => {
      const all = await deliveriesOf(t.c, ep.id);
      return all.length === N + 1 && all.every((d) => d.status === 'succeeded');
    },
    180_000,
  ).catch((err) => {
    throw new Error(`${(err as Error).message}; worker output: ${second.output()}`);
  });

  const byDelivery = new Map<string, { ids: Set<string>; attempts: string[] }>();
  for (const r of receiver.received) {
    const d = header(r, 'X-SVC-Delivery')!;
    const entry = byDelivery.get(d) ?? { ids: new Set(), attempts: [] };
    entry.ids.add(r.json.id);
    entry.attempts.push(header(r, 'X-SVC-Attempt')!);
    byDelivery.set(d, entry);
  }
  // Nothing lost: every delivery (the sanction's own, and N from the bulk change) arrived.
  expect(byDelivery.size).toBe(N + 1);
  expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(N + 1);
  for (const [delivery, entry] of byDelivery) {
    expect(entry.ids.size).toBe(1);
    expect(new Set(entry.attempts)).toEqual(new Set(['1']));
    // Recorded before the kill: never sent again. Otherwise at most once more.
    expect(entry.attempts.length).toBeLessThanOrEqual(recorded.has(delivery) ? 1 : 2);
  }
  expect(receiver.received.every((r) => r.validSignature && r.validStandardSignature)).toBe(true);
  second.kill('SIGTERM');
  await exited(second);
}, 400_000);
