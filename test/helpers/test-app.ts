import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpHandler, type HttpHandler } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createContainer, type Container } from '../../src/container';
import { openDatabase, type Database } from '../../src/db/database';
import { createChangeFeed } from '../../src/db/listen-change-feed';
import { attachSubscriptions, type LiveServer } from '../../src/graphql/subscriptions/ws-server';
import type { Clock } from '../../src/domain/clock';
import type { HostResolver } from '../../src/webhooks/ssrf-guard';
import { createLogger } from '../../src/lib/logger';
import type { Logger } from '../../src/lib/logger';
import { provisionTestDatabase } from './test-database';
import { entities } from '../../src/entities';

/**
 * The rate limiter's clock in tests: it stands still unless a test moves it, so no test depends
 * on where in a minute (or how slowly) it runs.
 */
export class LimiterClock {
  constructor(private ms: number) {}
  /** Unix milliseconds. */
  readonly now = (): number => this.ms;
  /** Unix seconds, as in X-RateLimit-Reset. */
  seconds(): number {
    return Math.floor(this.ms / 1000);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

export interface TestApp {
  /** The server's handler: the partner and TV fast paths, then express. */
  app: HttpHandler;
  /** The database URL, for a second instance on the same database. */
  url: string;
  c: Container;
  /** Time as the rate limiter sees it (starts at the real time the app started). */
  limiterClock: LimiterClock;
  db: Database;
  /**
   * Listens on a real port of 127.0.0.1, with the GraphQL subscriptions' WebSocket on /graphql
   * (as main.ts does); once per app. `close` stops it.
   */
  listen(): Promise<{ url: string; wsUrl: string; server: Server; live: LiveServer }>;
  close(): Promise<void>;
}

/**
 * The real app on this file's own database, with caches off (unless `env` sets
 * AUTH_CACHE_TTL_MS), a private rate-limit namespace and a change feed that LISTENs.
 * The rate limiter runs on a clock of the test's own (`limiterClock`).
 * `sharing` starts a second instance on another app's database (closing it leaves the database).
 */
export async function startTestApp(
  options: {
    clock?: Clock;
    env?: Record<string, string | undefined>;
    sharing?: TestApp;
    limiterStartMs?: number;
    logger?: Logger;
    resolveHost?: HostResolver;
  } = {},
): Promise<TestApp> {
  const database = options.sharing ? { url: options.sharing.db.url, drop: async () => undefined } : await provisionTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    AUTH_CACHE_TTL_MS: '0',
    PUBLIC_URL: 'https://svc.test',
    RATE_LIMIT_PREFIX: `t${randomBytes(6).toString('hex')}`,
    DB_POOL_MAX: process.env.TEST_EMBEDDED_URL ? '1' : '4',
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...options.env,
  });
  const db = await openDatabase(config, { entities, migrate: false });
  const limiterClock = new LimiterClock(options.limiterStartMs ?? Date.now());
  const changes = await createChangeFeed(db, createLogger('silent'), { minBackoffMs: 20, maxBackoffMs: 200 });
  const c = createContainer(config, db.orm, {
    clock: options.clock,
    changes,
    limiterNow: limiterClock.now,
    logger: options.logger,
    resolveHost: options.resolveHost,
  });
  const app = createHttpHandler(c);
  let listening: { url: string; wsUrl: string; server: Server; live: LiveServer } | null = null;
  return {
    app,
    url: database.url,
    c,
    limiterClock,
    db,
    async listen() {
      if (listening) return listening;
      const server = createServer(app);
      const live = attachSubscriptions(server, c, { metrics: c.metrics.registry });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      listening = { url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/graphql`, server, live };
      return listening;
    },
    async close() {
      if (listening) {
        await listening.live.close();
        listening.server.closeAllConnections();
        await new Promise<void>((resolve) => listening!.server.close(() => resolve()));
      }
      await c.close();
      await db.close();
      await database.drop();
    },
  };
}
