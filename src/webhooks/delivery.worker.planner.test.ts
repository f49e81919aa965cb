import type { Connection } from '@mikro-orm/core';
import type { Logger } from '../lib/logger';
import { DeliveryWorker, QUEUE_PLANNER } from './delivery.worker';
import type { WebhookSender } from './webhook.sender';

/**
 * The claim runs with QUEUE_PLANNER set LOCAL in the message of each execution, so PostgreSQL plans
 * it without bitmap scans whenever it plans it (docs/adr/0015-webhook-fan-out.md, sixth pass).
 */
it('executes its claim with the queue planner settings, in the same message', async () => {
  const sent: string[] = [];
  const client = { query: async (text: string) => (sent.push(text), text.startsWith('prepare') ? { rows: [] } : [{ rows: [] }, { rows: [] }]) };
  const connection = {
    execute: async () => [],
    getKnex: () => ({ client: { acquireConnection: async () => client, releaseConnection: async () => undefined } }),
  } as unknown as Connection;
  const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
  const options = { schedule: [60_000], leaseMs: 60_000, batchSize: 32, pollMs: 1_000, maxInFlight: 64, endpointConcurrency: 32, expandBatch: 100 };
  const worker = new DeliveryWorker(() => connection, {} as WebhookSender, options, logger);
  expect(await worker.tick()).toBe(0);
  const [prepare, execute] = sent;
  expect(prepare).toMatch(/^prepare (s_\w+) as with .*for update of d skip locked/s);
  const name = /^prepare (s_\w+)/.exec(prepare)![1];
  expect(QUEUE_PLANNER).toEqual({ enable_bitmapscan: 'off' });
  expect(execute).toBe(`set local enable_bitmapscan = off; execute ${name}('${worker.id}', 32, 32, 32, 60000)`);
});
