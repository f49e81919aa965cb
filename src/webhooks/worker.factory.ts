import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config';
import type { Database } from '../db/database';
import type { Logger } from '../lib/logger';
import type { WebhookMetrics } from '../ops/metrics';
import { coalescedAnnouncer } from '../db/announce-change';
import type { Clock } from '../domain/clock';
import type { Outbox } from './outbox';
import { DeliveryWorker } from './delivery.worker';
import { createWakeSource } from './wake';
import { WebhookSender } from './webhook.sender';

/** What a worker needs of the running service (the container has it all). */
export interface DeliveryWorkerDeps {
  config: Pick<Config, 'webhooks'>;
  orm: MikroORM;
  logger: Logger;
  metrics: { webhooks: WebhookMetrics };
  outbox: Outbox;
  clock: Clock;
}

/** A delivery worker on the service's database, woken by NOTIFY, polling as a safety net. */
export async function createDeliveryWorker(
  c: DeliveryWorkerDeps,
  db: Pick<Database, 'url' | 'embedded'>,
): Promise<{ worker: DeliveryWorker; close(): Promise<void> }> {
  const w = c.config.webhooks;
  const sender = new WebhookSender({ allowInsecure: w.allowInsecure, allowPrivate: w.allowPrivate }, w.timeoutMs);
  const wake = await createWakeSource({ url: db.url, embedded: db.embedded, logger: c.logger }).catch((err) => {
    c.logger.warn({ err: (err as Error).message }, 'no NOTIFY wake-up for the webhook worker; polling only');
    return null;
  });
  const worker = new DeliveryWorker(
    () => c.orm.em.getConnection('write'),
    sender,
    {
      schedule: w.schedule,
      leaseMs: w.leaseMs,
      batchSize: w.batchSize,
      pollMs: w.pollMs,
      maxInFlight: w.maxInFlight,
      endpointConcurrency: w.endpointConcurrency,
      expandBatch: w.expandBatch,
    },
    c.logger,
    wake,
    c.metrics.webhooks,
    coalescedAnnouncer(c.orm.em, 'studio', (err) =>
      c.logger.warn({ err: (err as Error).message }, 'could not announce a delivery change; other instances see it with the next one'),
    ),
    { expand: (limit) => c.outbox.expand(c.orm.em as never, limit) },
    () => c.clock.now(),
  );
  return {
    worker,
    async close() {
      await worker.stop();
      await sender.close();
    },
  };
}
