import 'reflect-metadata';
import type { Server } from 'node:http';
import { createHttpHandler } from './app';
import { ConfigError, loadConfig } from './config/config';
import { createContainer } from './container';
import { openDatabase } from './db/database';
import { createChangeFeed } from './db/listen-change-feed';
import { findDemoFixtures, formatDemoFixtures } from './demo/demo.fixtures';
import { DEMO_CHANNEL_KEYS, DEMO_KEYS, DEMO_STUDIO_USERS } from './demo/demo.seed';
import { removeServerInfo, writeServerInfo } from './db/server-info';
import { attachSubscriptions } from './graphql/subscriptions/ws-server';
import { handleClientErrors } from './http/client-error';
import { createHttpServer } from './http/http-server';
import { createLogger } from './lib/logger';
import { seedDemoOnStart } from './startup/seed-on-start';
import { StartupState } from './startup/startup-state';
import { createDeliveryWorker } from './webhooks/worker.factory';
import { announce } from './ops/banner';
import { startMetricsServer } from './ops/ops.router';
import { entities } from './entities';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config, { entities });
  logger.info({ database: db.embedded ? `embedded PGlite in ${config.dataDir}` : 'DATABASE_URL' }, 'database ready, migrations applied');
  const changes = await createChangeFeed(db, logger);
  const container = createContainer(config, db.orm, { logger, changes });
  // Listen first: /healthz shows the seed's progress, everything else answers 503 until it is done.
  const startup = new StartupState(config.seedDemo);
  const server: Server = createHttpServer(createHttpHandler(container, { startup }), config.http);
  handleClientErrors(server, logger);
  // GraphQL subscriptions: WebSocket upgrades of /graphql on the same port (graphql-ws)
  const live = attachSubscriptions(server, container, { accepting: () => startup.ready, metrics: container.metrics.registry });
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  if (config.seedDemo) {
    logger.info({ url: `${config.publicUrl}/healthz` }, 'listening; seeding the demo data if the database is empty (progress on /healthz)');
    await seedDemoOnStart(container, db, startup, logger);
  }
  const delivery = config.webhooks.worker ? await createDeliveryWorker(container, db) : null;
  delivery?.worker.start();
  // Only now may the operator's CLI join the embedded database: the seed no longer holds it.
  if (db.embedded) writeServerInfo(config.dataDir, { port: db.embedded.port, pid: process.pid });
  const metricsServer = config.metricsPort === null ? null : await startMetricsServer(container.metrics, config.metricsPort, config.host);
  const base = config.publicUrl;
  const fixtures = config.seedDemo ? formatDemoFixtures(await findDemoFixtures(container)) : [];
  const lines = [
    '',
    `Ranking partner and broadcast service listening on ${base}`,
    `  partner API   ${base}/api/v1   (OpenAPI: ${base}/api/v1/openapi.json)`,
    `  TV API        ${base}/api/tv   (OpenAPI: ${base}/api/tv/openapi.json)`,
    `  studio        ${base}/studio   (the web app; its GraphQL API: ${base}/graphql, live over graphql-ws)`,
    `  live          ${base.replace(/^http/, 'ws')}/graphql  (subscriptions, graphql-ws: connection_init { token })`,
    `  docs          ${base}/docs     (both OpenAPI documents, browsable)`,
    `  health        ${base}/healthz  ${base}/readyz`,
    `  webhooks      ${delivery ? 'delivered by this process' : 'not delivered here (WEBHOOK_WORKER=off): run npm run worker'}`,
    '',
    'Demo keys (send as "Authorization: Bearer <key>" or "X-API-Key: <key>"):',
    ...DEMO_KEYS.map((k) => `  ${k.token.padEnd(20)} ${k.description}`),
    '',
    'Demo channel keys for /api/tv (send as "Authorization: Bearer <key>"):',
    ...DEMO_CHANNEL_KEYS.map((k) => `  ${k.token.padEnd(20)} ${k.description}`),
    ...(config.seedDemo
      ? [
          '',
          `Demo studio users (sign in at ${base}/studio; roles on channel demo-tv):`,
          ...DEMO_STUDIO_USERS.map((u) => `  ${u.email.padEnd(20)} ${u.password.padEnd(20)} ${u.role}`),
        ]
      : []),
    ...(fixtures.length ? ['', 'Demo fixtures:', ...fixtures] : []),
    '',
    `Try: curl -H "Authorization: Bearer pk_demo_full" "${base}/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg"`,
    '',
  ];
  announce(logger, lines, {
    url: base,
    docs: `${base}/docs`,
    studio: `${base}/studio`,
    metrics_port: config.metricsPort ?? config.port,
    webhooks_here: !!delivery,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await live.close();
    server.close();
    server.closeIdleConnections();
    metricsServer?.close();
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
