import 'reflect-metadata';
import { Client } from 'pg';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpHandler } from '../app';
import { loadConfig } from '../config/config';
import { createContainer } from '../container';
import { openDatabase } from '../db/database';

/**
 * Counts the SQL statements of one studio dashboard query, in this process, against the
 * benchmark's database (DATABASE_URL, or the running service's embedded database): the figure
 * D9.5 asks about, which must not grow with the number of broadcasts.
 */
export async function countDashboardStatements(opts: { databaseUrl?: string; dataDir: string; query: string }): Promise<number> {
  const config = loadConfig({ ...process.env, DATABASE_URL: opts.databaseUrl, DATA_DIR: opts.dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0', AUTH_CACHE_TTL_MS: '0', STUDIO_SESSION_PER_MINUTE: '1000000' });
  const db = await openDatabase(config, { migrate: false, joinRunningServer: true });
  const c = createContainer(config, db.orm);
  const server = createServer(createHttpHandler(c));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  const call = async (body: object, token?: string): Promise<{ data?: any; errors?: unknown }> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    return (await res.json()) as { data?: any; errors?: unknown };
  };
  try {
    const login = await call({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' });
    const token = login.data.login.token as string;
    const proto = Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    let n = 0;
    proto.query = function (this: unknown, ...a: unknown[]) { n++; return original.apply(this, a); };
    try {
      const res = await call({ query: opts.query, variables: { slug: 'demo-tv' } }, token);
      if (res.errors) throw new Error(`dashboard query failed: ${JSON.stringify(res.errors)}`);
    } finally {
      proto.query = original;
    }
    return n;
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
    await c.close();
    await db.close();
  }
}
