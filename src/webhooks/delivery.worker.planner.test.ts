import type { Connection } from '@mikro-orm/core';
import type { Logger } from '../lib/logger';
import type { Announcer } from '../db/announce-change';
import { ANNOUNCE_EVERY_MS, DeliveryWorker, QUEUE_PLANNER } from './delivery.worker';
import type { WebhookSender } from './webhook.sender';

/** A connection whose statements claim nothing; `sent` holds every message its pg client got. */
function fakeDatabase() {
  const sent: string[] = [];
  const client = { query: async (text: string) => (sent.push(text), text.startsWith('prepare') ? { rows: [] } : [{ rows: [] }, { rows: [] }]) };
  const connection = {
    execute: async () => [],
    getKnex: () => ({ client: { acquireConnection: async () => client, releaseConnection: async () => undefined } }),
  } as unknown as Connection;
  return { sent, connection };
}

const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
const options = { schedule: [60_000], leaseMs: 60_000, batchSize: 32, pollMs: 1_000, maxInFlight: 64, endpointConcurrency: 32, expandBatch: 100 };

/**
 * The claim runs with QUEUE_PLANNER set LOCAL in the message of each execution, so PostgreSQL plans
 * it without bitmap scans whenever it plans it (docs/adr/0015-webhook-fan-out.md, sixth pass).
 */
it('executes its claim with the queue planner settings, in the same message', async () => {
  const { sent, connection } = fakeDatabase();
  const worker = new DeliveryWorker(() => connection, {} as WebhookSender, options, logger);
  expect(await worker.tick()).toBe(0);
  const [prepare, execute] = sent;
  expect(prepare).toMatch(/^prepare (s_\w+) as with .*for update of d skip locked/s);
  const name = /^prepare (s_\w+)/.exec(prepare)![1];
  expect(QUEUE_PLANNER).toEqual({ enable_bitmapscan: 'off' });
  expect(execute).toBe(`set local enable_bitmapscan = off; execute ${name}('${worker.id}', 32, 32, 32, 60000, false)`);
});

/**
 * The studio's NOTIFY rides on at most one of the worker's statements every ANNOUNCE_EVERY_MS;
 * a statement that leaves it out is told by one NOTIFY of its own after it, at the end of the
 * interval (each process listening to the change feed receives every NOTIFY).
 */
it('carries the studio NOTIFY on at most one statement an interval, and sends the one left out after it', async () => {
  const { sent, connection } = fakeDatabase();
  let changed = 0;
  const announcer: Announcer = {
    notifySql: `select pg_notify('svc_changes', 'studio')`,
    changed: () => void changed++,
    notified: () => undefined,
    settled: async () => undefined,
  };
  const worker = new DeliveryWorker(() => connection, {} as WebhookSender, options, logger, null, null, announcer);
  const carried = () => sent.filter((m) => m.startsWith('set local')).map((m) => m.endsWith(', true)'));
  await worker.tick();
  await worker.tick();
  expect(carried()).toEqual([true, false]);
  expect(sent[0]).toMatch(/announced as \(select count\(\*\) as n from \(select pg_notify\('svc_changes', 'studio'\) where \$6::boolean\) x having exists/);
  expect(changed).toBe(0);
  // The NOTIFY the second claim left out goes once, at the end of the interval.
  const deadline = Date.now() + 5_000;
  while (changed === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(changed).toBe(1);
  // A statement after a full interval carries it again.
  await new Promise((r) => setTimeout(r, ANNOUNCE_EVERY_MS + 20));
  await worker.tick();
  expect(carried()).toEqual([true, false, true]);
  expect(changed).toBe(1);
  await worker.stop();
  expect(changed).toBe(1);
});
