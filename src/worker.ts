import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { createContainer } from './container';
import { openDatabase } from './db/database';
import { createChangeFeed } from './db/listen-change-feed';
import { createLogger } from './lib/logger';
import { createDeliveryWorker } from './webhooks/worker.factory';

/**
 * `npm run worker`: a webhook delivery worker on its own. Run any number against the same
 * database (DATABASE_URL, or the running server's embedded database).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config, { joinRunningServer: true });
  const changes = await createChangeFeed(db, logger);
  const container = createContainer(config, db.orm, { logger, changes });
  const delivery = await createDeliveryWorker(container, db);
  delivery.worker.start();
  logger.info({ pid: process.pid }, 'webhook worker started');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    logger.info('webhook worker stopping: finishing attempts in flight');
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
