import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { createHttpHandler } from './app';
import { ConfigError, loadConfig } from './config/config';
import { createContainer } from './container';
import { openDatabase } from './db/database';
import { findDemoFixtures, formatDemoFixtures } from './demo/demo.fixtures';
import { DEMO_CHANNEL_KEYS, DEMO_KEYS, seedDemoIfEmpty } from './demo/demo.seed';
import { removeServerInfo, writeServerInfo } from './db/server-info';
import { handleClientErrors } from './http/client-error';
import { createLogger } from './http/logger';
import { createDeliveryWorker } from './webhooks/worker.factory';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config);
  logger.info({ database: db.embedded ? `embedded PGlite in ${config.dataDir}` : 'DATABASE_URL' }, 'database ready, migrations applied');
  const container = createContainer(config, db.orm, { logger });
  if (config.seedDemo) {
    logger.info('seeding the demo data if the database is empty (about a minute the first time on the embedded database)');
    const seeded = await db.runExclusive(() => seedDemoIfEmpty(container));
    if (seeded) logger.info(seeded, 'demo data seeded');
  }
  const handler = createHttpHandler(container);
  const delivery = config.webhooks.worker ? await createDeliveryWorker(container, db) : null;
  delivery?.worker.start();
  if (db.embedded) writeServerInfo(config.dataDir, { port: db.embedded.port, pid: process.pid });
  const server: Server = createServer(handler);
  handleClientErrors(server, logger);
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle time-outs
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const base = config.publicUrl;
  const fixtures = config.seedDemo ? formatDemoFixtures(await findDemoFixtures(container)) : [];
  const lines = [
    '',
    `Ranking partner and broadcast service listening on ${base}`,
    `  partner API   ${base}/api/v1   (OpenAPI: ${base}/api/v1/openapi.json)`,
    `  TV API        ${base}/api/tv   (OpenAPI: ${base}/api/tv/openapi.json)`,
    `  studio        ${base}/graphql  (sign in with login(email, password): owner@demo.tv / demo-owner-pass)`,
    `  health        ${base}/healthz  ${base}/readyz`,
    `  webhooks      ${delivery ? 'delivered by this process' : 'not delivered here (WEBHOOK_WORKER=off): run npm run worker'}`,
    '',
    'Demo keys (send as "Authorization: Bearer <key>" or "X-API-Key: <key>"):',
    ...DEMO_KEYS.map((k) => `  ${k.token.padEnd(20)} ${k.description}`),
    '',
    'Demo channel keys for /api/tv (send as "Authorization: Bearer <key>"):',
    ...DEMO_CHANNEL_KEYS.map((k) => `  ${k.token.padEnd(20)} ${k.description}`),
    ...(fixtures.length ? ['', 'Demo fixtures:', ...fixtures] : []),
    '',
    `Try: curl -H "Authorization: Bearer pk_demo_full" "${base}/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg"`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.on('close', () => resolve()));
    await delivery?.close();
    if (db.embedded) removeServerInfo(config.dataDir);
    await container.close();
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`failed to start: ${(err as Error).stack ?? err}\n`);
  }
  process.exit(1);
});
