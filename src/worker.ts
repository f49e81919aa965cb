import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { createContainer } from './container';
import { openDatabase } from './db/database';
import { createChangeFeed } from './db/listen-change-feed';
import { createLogger } from './lib/logger';
import { createDeliveryWorker } from './webhooks/worker.factory';
import { startMetricsServer } from './ops/ops.router';
import { entities } from './entities';

/**
 * `npm run worker`: a webhook delivery worker on its own. Run any number against the same
 * database (DATABASE_URL, or the running server's embedded database).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config, { entities, joinRunningServer: true });
  const changes = await createChangeFeed(db, logger);
  const container = createContainer(config, db.orm, { logger, changes });
  const delivery = await createDeliveryWorker(container, db);
  delivery.worker.start();
  // Its attempt counters and outbox depth, and what compose's healthcheck asks: an answer means the process is up.
  const metrics = config.metricsPort === null ? null : await startMetricsServer(container.metrics, config.metricsPort, config.host);
  logger.info({ pid: process.pid, metrics_port: config.metricsPort }, 'webhook worker started');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    logger.info('webhook worker stopping: finishing attempts in flight');
    metrics?.close();
    await delivery.close();
    await container.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err) => {
  process.stderr.write(err instanceof ConfigError ? `${err.message}\n` : `worker failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
