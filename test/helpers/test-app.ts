import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createHttpHandler, type HttpHandler } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createContainer, type Container } from '../../src/container';
import { openDatabase, type Database } from '../../src/db/database';
import type { Clock } from '../../src/domain/clock';
import { provisionTestDatabase } from './test-database';

export interface TestApp {
  /** The server's handler: the partner and TV fast paths, then express. */
  app: HttpHandler;
  /** The database URL, for a second instance on the same database. */
  url: string;
  c: Container;
  db: Database;
  close(): Promise<void>;
}

/**
 * The real app on this file's own database, with caches off and a private rate-limit namespace.
 * `sharing` starts a second instance on another app's database (it leaves the database alone on close).
 */
export async function startTestApp(options: { clock?: Clock; env?: Record<string, string>; sharing?: TestApp } = {}): Promise<TestApp> {
  const database = options.sharing ? { url: options.sharing.url, drop: async () => undefined } : await provisionTestDatabase();
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
  const db = await openDatabase(config, { migrate: false });
  const c = createContainer(config, db.orm, { clock: options.clock });
  const app = createHttpHandler(c);
  return {
    app,
    url: database.url,
    c,
    db,
    async close() {
      await c.close();
      await db.close();
      await database.drop();
    },
  };
}
