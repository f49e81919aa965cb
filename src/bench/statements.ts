import 'reflect-metadata';
import { Client } from 'pg';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpHandler } from '../app';
import { loadConfig } from '../config/config';
import { createContainer } from '../container';
import { openDatabase } from '../db/database';
import { entities } from '../entities';

export interface CountedRequest {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Use the demo studio owner's session (GraphQL). */
  session?: boolean;
}

export interface StatementCount {
  /** Statements of the first request (caches empty). */
  cold: number;
  /** Mean statements of the next `warm` requests. */
  warm: number;
}

const WARM_REQUESTS = 5;

/**
 * Counts SQL statements per request, in this process, against the benchmark's database
 * (DATABASE_URL, or the running service's embedded database), with the service's caches on as
 * in production: every pg query of the app is counted, sign-in and key checks included.
 */
export async function countStatements(opts: {
  databaseUrl?: string;
  dataDir: string;
  requests: readonly CountedRequest[];
}): Promise<Map<string, StatementCount>> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    STUDIO_SESSION_PER_MINUTE: '1000000',
    AUTH_CACHE_TTL_MS: '60000',
  });
  const db = await openDatabase(config, { entities, migrate: false, joinRunningServer: true });
  const c = createContainer(config, db.orm);
  const server = createServer(createHttpHandler(c));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proto = Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...a: unknown[]) {
    n++;
    return original.apply(this, a);
  };
  const out = new Map<string, StatementCount>();
  try {
    const login = await call(base, {
      name: 'login',
      path: '/graphql',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' }),
    });
    const token = (JSON.parse(login) as { data: { login: { token: string } } }).data.login.token;
    for (const r of opts.requests) {
      const auth: Record<string, string> = r.session ? { authorization: `Bearer ${token}` } : {};
      // Flush pending request counts first, so that a key's counter write is not charged to a target.
      await c.keys.flush();
      n = 0;
      await call(base, { ...r, headers: { ...r.headers, ...auth } });
      await c.keys.flush();
      const cold = n;
      n = 0;
      for (let i = 0; i < WARM_REQUESTS; i++) await call(base, { ...r, headers: { ...r.headers, ...auth } });
      await c.keys.flush();
      out.set(r.name, { cold, warm: n / WARM_REQUESTS });
    }
    return out;
  } finally {
    proto.query = original;
    await new Promise<void>((r) => server.close(() => r()));
    await c.close();
    await db.close();
  }
}

async function call(base: string, r: CountedRequest): Promise<string> {
  const res = await fetch(base + r.path, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${r.name}: ${res.status} ${text.slice(0, 200)}`);
  if (r.session && (JSON.parse(text) as { errors?: unknown }).errors) throw new Error(`${r.name}: ${text.slice(0, 200)}`);
  return text;
}
