/**
 * `npm run bench:live`: the studio's live health, end to end. A real server (HTTP + graphql-ws on
 * one port, its change feed LISTENing) and BENCH_SUBSCRIPTIONS open subscriptions to one ingest
 * broadcast's health, held by a second process (BENCH_SOCKETS sockets), as browsers would be.
 * Prints:
 * - from the media server's health callback (POST /internal/ingest/metrics, timed from before the
 *   request) to the event at each subscriber: p50 / p99 over every (report, subscriber) pair,
 *   BENCH_REPORTS reports, each sent once every subscriber has the previous one;
 * - the server's memory per idle subscription: RSS and heap (after a GC) with all of them open, minus
 *   with half of them open (the first half warms the code), divided by the second half's number.
 * A benchmark, never a timed test; the load average is printed beside the figures.
 *
 * Runs on DATABASE_URL when set (its own channel, user and broadcast, named bench-live-<time>),
 * else on a throw-away embedded database. Environment: BENCH_SUBSCRIPTIONS (200), BENCH_SOCKETS
 * (10), BENCH_REPORTS (100), DATABASE_URL.
 */
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createHttpHandler } from '../app';
import { openBenchDatabase } from './bench-database';
import { createContainer } from '../container';
import { createChangeFeed } from '../db/listen-change-feed';
import { operator } from '../domain/channels/channel-access';
import { attachSubscriptions } from '../graphql/subscriptions/ws-server';
import { createLogger } from '../lib/logger';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 200);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10);
const REPORTS = Number(process.env.BENCH_REPORTS ?? 100);
const INGEST_SECRET = 'bench-live-ingest-secret';

type FromClients = { type: 'ready' } | { type: 'event'; bitrate: number; at: number; sub: number } | { type: 'error'; message: string };

const now = () => performance.timeOrigin + performance.now();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The subscribers: another process, so the server's memory and CPU are its own. Opens subscriptions when told to. */
async function clientMode(): Promise<void> {
  const [url, token, sockets, broadcastId] = process.argv.slice(3);
  const { createClient } = await import('graphql-ws');
  const { default: WebSocket } = await import('ws');
  const send = (m: FromClients) => process.send!(m);
  const query = `subscription($id: ID!) { broadcastHealthChanged(broadcastId: $id) { id health { signal bitrateKbps viewers warnings { code } } } }`;
  const clients = Array.from({ length: Number(sockets) }, () =>
    createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams: { token },
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: (e) => send({ type: 'error', message: String(e) }),
    }),
  );
  let opened = 0;
  process.on('message', (m: { open: number }) => {
    for (let i = 0; i < m.open; i++, opened++) {
      const sub = opened;
      // round robin over the sockets, so each holds the same share
      clients[sub % clients.length].subscribe<{ broadcastHealthChanged: { health: { bitrateKbps: number | null } } }>(
        { query, variables: { id: broadcastId } },
        {
          next: (r) => {
            const bitrate = r.data?.broadcastHealthChanged.health.bitrateKbps;
            if (typeof bitrate === 'number') send({ type: 'event', bitrate, at: now(), sub });
            else if (r.errors) send({ type: 'error', message: JSON.stringify(r.errors) });
          },
          error: (e) => send({ type: 'error', message: JSON.stringify(e) }),
          complete: () => undefined,
        },
      );
    }
    send({ type: 'ready' });
  });
  send({ type: 'ready' });
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const bench = await openBenchDatabase('live', {
    PORT: '0',
    INGEST_SECRET,
    SUBSCRIPTION_SOCKETS_PER_SESSION: String(SOCKETS),
    SUBSCRIPTIONS_PER_SOCKET: String(Math.ceil(SUBSCRIPTIONS / SOCKETS)),
  });
  const { config, db } = bench;
  const changes = await createChangeFeed(db, createLogger('warn'));
  const c = createContainer(config, db.orm, { changes });
  const server = createServer(createHttpHandler(c));
  const live = attachSubscriptions(server, c);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let clients: ChildProcess | null = null;
  try {
    // a channel of its own, its owner, and a live ingest broadcast
    const op = operator({ id: 'bench' });
    const tag = `bench-live-${Date.now()}`;
    const channel = await c.services.channels.create(op, { slug: tag, name: 'Live bench', plan: 'broadcaster', billing: 'active' });
    await c.services.channels.approve(op, tag);
    await c.services.studioUsers.create(op, { email: `${tag}@bench.test`, password: 'bench-live-pass' });
    await c.services.studioUsers.grant(op, { email: `${tag}@bench.test`, channelSlug: tag, role: 'owner' });
    const made = await c.services.broadcasts.create(op, channel.id, { title: 'Live bench', source: 'ingest', scheduledAt: new Date(Date.now() + 60_000) });
    await c.services.broadcasts.goLive(op, made.broadcast.id);
    const { token } = await c.services.studioAuth.login(`${tag}@bench.test`, 'bench-live-pass');
    const streamKey = made.streamKey!;
    const report = (bitrate: number) =>
      fetch(`${base}/internal/ingest/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ingest-secret': INGEST_SECRET },
        body: JSON.stringify({ name: streamKey, bitrate_kbps: bitrate, resolution: '1920x1080', fps: 50, viewers: 10 }),
      }).then((r) => {
        if (r.status !== 200) throw new Error(`the health callback answered ${r.status}`);
      });
    await report(1); // warm the path (statements, the LISTEN connection)

    const gc = () => (globalThis as { gc?: () => void }).gc?.();
    const arrivals = new Map<number, number[]>();
    let waiting: { bitrate: number; done: () => void } | null = null;
    let ready: () => void = () => undefined;
    let readyP = new Promise<void>((ok) => (ready = ok));
    const child = fork(__filename, ['--clients', `ws${base.slice(4)}/graphql`, token, String(SOCKETS), made.broadcast.id], { stdio: 'inherit' });
    clients = child;
    /** Opens `n` more subscriptions and waits until the server runs them all, then collects garbage. */
    const open = async (n: number) => {
      readyP = new Promise<void>((ok) => (ready = ok));
      child.send({ open: n });
      await readyP;
      const target = live.subscriptions + n;
      while (live.subscriptions < target) await new Promise((ok) => setTimeout(ok, 20));
      await new Promise((ok) => setTimeout(ok, 300));
      gc();
      gc();
      return process.memoryUsage();
    };
    child.on('message', (m: FromClients) => {
      if (m.type === 'ready') ready();
      else if (m.type === 'error') console.error(`subscriber error: ${m.message}`);
      else {
        const list = arrivals.get(m.bitrate) ?? [];
        list.push(m.at);
        arrivals.set(m.bitrate, list);
        if (waiting && m.bitrate === waiting.bitrate && list.length >= SUBSCRIPTIONS) waiting.done();
      }
    });
    await readyP; // the sockets are open
    // the first half warms the code paths; the second half is what an idle subscription costs
    const half = Math.floor(SUBSCRIPTIONS / 2);
    const before = await open(half);
    const after = await open(SUBSCRIPTIONS - half);

    const sent = new Map<number, number>();
    const started = now();
    for (let i = 0; i < REPORTS; i++) {
      const bitrate = 2000 + i;
      const done = new Promise<void>((ok) => (waiting = { bitrate, done: ok }));
      sent.set(bitrate, now());
      await report(bitrate);
      await Promise.race([done, new Promise((ok) => setTimeout(ok, 10_000))]);
    }
    const elapsed = (now() - started) / 1000;
    const samples: number[] = [];
    let missing = 0;
    for (const [bitrate, at] of sent) {
      const got = arrivals.get(bitrate) ?? [];
      missing += Math.max(0, SUBSCRIPTIONS - got.length);
      for (const t of got) samples.push(t - at);
    }
    samples.sort((a, b) => a - b);
    console.log(`database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}; load average ${load()} (1, 5, 15 min)`);
    console.log(`${SUBSCRIPTIONS} subscriptions on ${SOCKETS} sockets, one broadcast's health; ${REPORTS} reports in ${elapsed.toFixed(1)} s`);
    console.log(
      `health callback to event at the subscriber: p50 ${pct(samples, 50).toFixed(1)} ms, p99 ${pct(samples, 99).toFixed(1)} ms, max ${samples[samples.length - 1]?.toFixed(1)} ms (${samples.length} events, ${missing} missing)`,
    );
    const per = (a: number, b: number) => ((a - b) / (SUBSCRIPTIONS - half) / 1024).toFixed(1);
    console.log(
      `server memory per idle subscription: RSS ${per(after.rss, before.rss)} KiB, heap ${per(after.heapUsed, before.heapUsed)} KiB${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: figures include garbage)'}`,
    );
    console.log(
      `goal: p99 under 500 ms with ${SUBSCRIPTIONS} subscriptions ${pct(samples, 99) < 500 && missing === 0 ? 'met' : 'NOT met'}; load average now ${load()}`,
    );
  } finally {
    clients?.kill('SIGTERM');
    await live.close();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
    await c.close();
    await bench.close();
  }
}

if (process.argv[2] === '--clients') {
  clientMode().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main()
    .then(() => process.exit(0))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
