/**
 * `npm run bench:webhooks`: signed deliveries per second from one worker and from two, and the
 * latency from the commit of a change to the first attempt at the receiver (p50 / p99).
 *
 * Runs on DATABASE_URL when set (a scratch table set is used: the bench creates its own partner
 * and endpoint and removes its deliveries afterwards), else on a throw-away embedded database.
 * Workers are real `dist/worker.js` processes; the receiver is a node:http server in this
 * process that checks every signature. A benchmark, never a timed test.
 *
 * Environment: BENCH_DELIVERIES (3000), BENCH_LATENCY_EVENTS (200), DATABASE_URL.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/config';
import { createContainer, type Container } from '../container';
import { openDatabase, type Database } from '../db/database';
import type { Payload } from '../webhooks/event-catalog';
import { verifySignature } from '../webhooks/signer';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 3000);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 200);

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  invalid: number;
  server: Server;
  onArrival?: () => void;
}

async function startReceiver(secret: () => string): Promise<Receiver> {
  const r: Receiver = { url: '', arrivals: new Map(), invalid: 0, server: null as unknown as Server };
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const h = (n: string) => req.headers[n] as string | undefined;
      if (!verifySignature(secret(), body, { timestamp: h('x-svc-timestamp'), signature: h('x-svc-signature'), timestamped: h('x-svc-signature-timestamped') })) r.invalid++;
      const id = (JSON.parse(body) as { id: string }).id;
      if (!r.arrivals.has(id)) r.arrivals.set(id, performance.timeOrigin + performance.now());
      res.writeHead(204).end();
      r.onArrival?.();
    });
  });
  r.server.keepAliveTimeout = 30_000;
  await new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks`;
  return r;
}

function startWorker(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, [resolve(__dirname, '..', 'worker.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '200', WEBHOOK_BATCH: '64' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((c) => new Promise<void>((ok) => {
    if (c.exitCode !== null) return ok();
    c.once('exit', () => ok());
    c.kill('SIGTERM');
  })));
}

/** An `event.sanctioned` payload as the service sends one (the bench writes payloads directly). */
function benchPayload(code: string): Payload {
  return { type: 'event.sanctioned', data: {
    code, name: `Bench ${code}`, city: 'Berlin', country: 'germany', date: '2026-07-01', level: 'national', multiplier: 1,
    is_live: false, status: 'scheduled', url: `https://example.test/api/v1/events/${code}`, sanctioned_at: new Date().toISOString(),
  } };
}

/** Writes `n` events through the outbox in one transaction, as a bulk operator change would. */
async function enqueue(c: Container, n: number, tag: string): Promise<void> {
  await c.orm.em.fork().transactional(async (em) => {
    const payloads = Array.from({ length: n }, (_, i) => benchPayload(`${tag}-${i}`));
    await c.outbox.write(em as never, payloads, { kind: 'partners' });
  });
}

function waitFor(r: Receiver, n: number, timeoutMs: number): Promise<void> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`only ${r.arrivals.size} of ${n} deliveries arrived in ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      if (r.arrivals.size >= n) {
        clearTimeout(timer);
        r.onArrival = undefined;
        ok();
      }
    };
    r.onArrival = check;
    check();
  });
}

async function throughput(c: Container, db: Database, r: Receiver, workers: number): Promise<number> {
  r.arrivals.clear();
  await enqueue(c, DELIVERIES, `throughput-${workers}`);
  const started = performance.now();
  const children = Array.from({ length: workers }, () => startWorker(db.url));
  try {
    await waitFor(r, DELIVERIES, 300_000);
  } finally {
    await stop(children);
  }
  // Worker start-up (about a second) is inside the window: the figure is conservative.
  return DELIVERIES / ((performance.now() - started) / 1000);
}

async function latency(c: Container, db: Database, r: Receiver): Promise<{ p50: number; p99: number }> {
  r.arrivals.clear();
  const child = startWorker(db.url);
  await new Promise((ok) => setTimeout(ok, 2500));
  const committed = new Map<string, number>();
  try {
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const em = c.orm.em.fork();
      let ids: string[] = [];
      await em.transactional(async (tx) => {
        ids = await c.outbox.write(tx as never, [benchPayload(`latency-${i}`)], { kind: 'partners' });
      });
      committed.set(ids[0], performance.timeOrigin + performance.now());
      await new Promise((ok) => setTimeout(ok, 15));
    }
    await waitFor(r, LATENCY_EVENTS, 60_000);
  } finally {
    await stop([child]);
  }
  const samples = [...committed].map(([id, at]) => r.arrivals.get(id)! - at).sort((a, b) => a - b);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))];
  return { p50: pct(50), p99: pct(99) };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-webhooks-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: '0', WEBHOOK_WORKER: 'off', WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_PRIVATE: '1' });
  const db = await openDatabase(config);
  const c = createContainer(config, db.orm);
  let secret = '';
  const receiver = await startReceiver(() => secret);
  const slug = `bench-${Date.now()}`;
  try {
    await c.services.partners.create({ id: 'bench' }, { slug, name: 'Webhook bench' });
    const reg = await c.services.webhooks.register({ id: 'bench' }, { partnerSlug: slug, url: receiver.url, events: ['event.sanctioned'] });
    secret = reg.secret;
    console.log(`database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}; ${DELIVERIES} deliveries per throughput run`);
    const one = await throughput(c, db, receiver, 1);
    console.log(`1 worker:  ${one.toFixed(0)} signed deliveries/s`);
    const two = await throughput(c, db, receiver, 2);
    console.log(`2 workers: ${two.toFixed(0)} signed deliveries/s`);
    const lat = await latency(c, db, receiver);
    console.log(`commit to first attempt (${LATENCY_EVENTS} events, one worker): p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms`);
    console.log(`invalid signatures seen by the receiver: ${receiver.invalid}`);
    console.log(`goals: 1,000 deliveries/s ${Math.max(one, two) >= 1000 ? 'met' : 'NOT met'}; p50 under 100 ms ${lat.p50 < 100 ? 'met' : 'NOT met'}`);
  } finally {
    await c.orm.em.getConnection().execute(
      `delete from webhook_attempt where delivery_id in (select d.id from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id join partner p on p.id = e.partner_id where p.slug = ?)`, [slug]);
    await c.orm.em.getConnection().execute(
      `delete from webhook_delivery where endpoint_id in (select e.id from webhook_endpoint e join partner p on p.id = e.partner_id where p.slug = ?)`, [slug]);
    await c.orm.em.getConnection().execute(`update webhook_endpoint set enabled = false where partner_id = (select id from partner where slug = ?)`, [slug]);
    receiver.server.close();
    await c.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
