/**
 * `npm run bench:outage`: a PostgreSQL restart under load, as clients see it
 * (docs/decisions.md#unavailable). The service runs in this process against a scratch database
 * created on DATABASE_URL's server, reached through a TCP proxy (src/bench/tcp-proxy.ts); client
 * loops hammer a partner read, a TV public read and a TV write; after OUTAGE_AFTER_S the proxy
 * cuts every connection and refuses new ones for OUTAGE_S seconds (a restart), then lets them
 * through again. Printed: answers by status before, during and after, the 500s (goal 0), the
 * 503s, and how long after the database came back the first success and the last failure were.
 *
 *   DATABASE_URL=postgres://root@127.0.0.1:5432/postgres npm run bench:outage
 *   (OUTAGE_CLIENTS=16 OUTAGE_AFTER_S=3 OUTAGE_S=5 OUTAGE_TOTAL_S=15)
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { createHttpHandler } from '../app';
import { loadConfig } from '../config/config';
import { createContainer } from '../container';
import { openDatabase } from '../db/database';
import { entities } from '../entities';
import { intEnv } from './bench.setup';
import { TcpProxy } from './tcp-proxy';

const actor = { id: 'bench' };

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a PostgreSQL server this script may create a scratch database on) is required');
  const clients = intEnv('OUTAGE_CLIENTS', 16);
  const afterS = intEnv('OUTAGE_AFTER_S', 3);
  const outageS = intEnv('OUTAGE_S', 5);
  const totalS = intEnv('OUTAGE_TOTAL_S', afterS + outageS + 7);

  const name = `svc_outage_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const proxy = new TcpProxy(dbUrl.hostname, Number(dbUrl.port || 5432));
  await proxy.start();
  // The rate limiter in memory (no Redis): the outage measured is the database's alone.
  const { REDIS_URL: _redis, ...env } = process.env;
  const config = loadConfig({ ...env, NODE_ENV: 'development', DATABASE_URL: proxy.proxied(dbUrl.toString()), LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off' });
  const db = await openDatabase(config, { entities });
  const c = createContainer(config, db.orm);
  await c.services.reference.upsert(actor, {
    continents: [{ slug: 'europe', name: 'Europe' }],
    countries: [{ slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' }],
    divisions: [
      {
        id: 'kickboxing-pro-f-60kg',
        discipline: 'kickboxing',
        category: 'pro',
        gender: 'f',
        weightClass: '60kg',
        label: 'Kickboxing, Pro, Women, 60 kg',
        sortOrder: 60,
      },
    ],
  });
  await c.services.partners.create(actor, { slug: 'bench', name: 'Bench' });
  const key = (await c.services.partners.issueKey(actor, { partnerSlug: 'bench', name: 'outage', scopes: ['events.read'], rateLimitPerMinute: 10_000_000 }))
    .token;
  const server = createServer(createHttpHandler(c));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  type Phase = 'before' | 'during' | 'after';
  const counts: Record<Phase, Record<string, number>> = { before: {}, during: {}, after: {} };
  let phase: Phase = 'before';
  let restoredAt = 0;
  let firstOkAfter: number | null = null;
  let lastFailAfter: number | null = null;
  let retryAfter = new Set<string>();
  const started = Date.now();
  const requests = [
    () => fetch(`${base}/api/v1/events?per_page=5&page=${1 + Math.floor(Math.random() * 1000)}`, { headers: { authorization: `Bearer ${key}` } }),
    () => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } }),
  ];
  const loop = async (i: number) => {
    while (Date.now() - started < totalS * 1000) {
      let status: string;
      let retry: string | null = null;
      try {
        const res = await requests[i % requests.length]();
        await res.arrayBuffer();
        status = String(res.status);
        retry = res.headers.get('retry-after');
      } catch {
        status = 'socket error';
      }
      const p = phase;
      counts[p][status] = (counts[p][status] ?? 0) + 1;
      if (status === '503' && retry) retryAfter.add(retry);
      if (p === 'after') {
        const at = Date.now() - restoredAt;
        if (status === '200' && firstOkAfter === null) firstOkAfter = at;
        if (status !== '200') lastFailAfter = at;
      }
    }
  };
  const cut = setTimeout(() => {
    phase = 'during';
    proxy.cut();
  }, afterS * 1000);
  const back = setTimeout(
    () => {
      proxy.restore();
      restoredAt = Date.now();
      phase = 'after';
    },
    (afterS + outageS) * 1000,
  );
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  clearTimeout(cut);
  clearTimeout(back);

  const sum = (o: Record<string, number>, k?: (s: string) => boolean) =>
    Object.entries(o)
      .filter(([s]) => !k || k(s))
      .reduce((a, [, n]) => a + n, 0);
  const all = { ...counts.before };
  for (const p of ['during', 'after'] as const) for (const [s, n] of Object.entries(counts[p])) all[s] = (all[s] ?? 0) + n;
  console.log(
    `PostgreSQL restart under load: ${clients} clients, outage ${outageS}s after ${afterS}s, ${totalS}s in all; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const p of ['before', 'during', 'after'] as const) console.log(`  ${p.padEnd(6)} ${JSON.stringify(counts[p])}`);
  console.log(
    `  500s: ${all['500'] ?? 0} (goal 0); 503s: ${all['503'] ?? 0} (Retry-After: ${[...retryAfter].join(',') || '-'}); other non-2xx: ${sum(all, (s) => s !== '200' && s !== '500' && s !== '503')}`,
  );
  console.log(`  recovery after the database came back: first 200 after ${firstOkAfter ?? '-'} ms, last failure ${lastFailAfter ?? 'none'} ms`);
  retryAfter = new Set();

  server.close();
  await c.close();
  await db.close();
  await proxy.stop();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
