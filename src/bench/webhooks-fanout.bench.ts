/**
 * `npm run bench:webhooks -- --fanout` (see webhooks.bench.ts): a ranking publication at scale
 * with and without subscribed endpoints, then the time until every delivery is received and its
 * signature checked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openBenchDatabase } from './bench-database';
import { createContainer, type Container } from '../container';
import { verifySignature } from '../webhooks/signer';
import { loadAverage, startWorker, stopWorkers } from './worker-process';
import { median } from './median';

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 20);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
/** How many publications without endpoints and with them, alternating (their medians are compared). */
const PUBLICATIONS = Number(process.env.BENCH_PUBLICATIONS ?? 3);
const actor = { id: 'bench' };

interface FanoutReceiver {
  url: string;
  secrets: string[];
  /** `endpoint#payload id` of every delivery received with a valid signature. */
  received: Set<string>;
  invalid: number;
  lastAt: number;
  server: Server;
  onArrival?: () => void;
}

async function startReceiver(): Promise<FanoutReceiver> {
  const r: FanoutReceiver = { url: '', secrets: [], received: new Set(), invalid: 0, lastAt: 0, server: null as unknown as Server };
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const endpoint = Number(/\/hooks\/(\d+)/.exec(req.url ?? '')?.[1]);
      const h = (n: string) => req.headers[n] as string | undefined;
      if (
        !verifySignature(r.secrets[endpoint], body, {
          timestamp: h('x-svc-timestamp'),
          signature: h('x-svc-signature'),
          timestamped: h('x-svc-signature-timestamped'),
        })
      )
        r.invalid++;
      else r.received.add(`${endpoint}#${h('webhook-id')}`);
      r.lastAt = performance.now();
      res.writeHead(204).end();
      r.onArrival?.();
    });
  });
  r.server.keepAliveTimeout = 30_000;
  await new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks`;
  return r;
}

async function latestAsOf(c: Container): Promise<string> {
  const [row] = await c.orm.em.getConnection().execute<{ as_of: string | null }[]>(`select max(as_of)::text as as_of from ranking_run`);
  if (!row?.as_of) throw new Error('no published ranking run: seed the scale data set first (npm run admin -- demo:seed --fighters 100000)');
  return row.as_of;
}

/** Destructive: the database's ranking runs are replaced by one run. Run it on a scratch copy of the scale data set. */
export async function fanout(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('--fanout needs DATABASE_URL: a PostgreSQL database holding the scale data set');
  const bench = await openBenchDatabase('fanout', {
    WEBHOOKS_ALLOW_INSECURE: '1',
    WEBHOOKS_ALLOW_PRIVATE: '1',
  });
  const { config, db } = bench;
  const c = createContainer(config, db.orm);
  const conn = c.orm.em.getConnection();
  const receiver = await startReceiver();
  const slug = `bench-fanout-${Date.now()}`;
  try {
    const [{ n: subscribed }] = await conn.execute<{ n: number }[]>(
      `select count(*)::int as n from webhook_endpoint where enabled and 'ranking.published' = any(events)`,
    );
    if (subscribed > 0)
      throw new Error(`${subscribed} enabled endpoints already subscribe to ranking.published: the "no endpoint" publication would not be one`);
    const [{ fighters }] = await conn.execute<{ fighters: number }[]>(`select count(*)::int as fighters from fighter`);
    console.log(`fan-out bench: ${fighters} fighters, ${ENDPOINTS} endpoints, ${WORKERS} worker(s); load average ${loadAverage()}`);

    // The same publication, each time the first one (every ranked fighter is new, so each one
    // changes them all), its run deleted before the next: PUBLICATIONS times without endpoints and
    // with them, alternating (a checkpoint or another process can slow one run by a second or
    // more), the medians compared. The change rows of all but the last are deleted unexpanded.
    await latestAsOf(c);
    const asOf = c.clock.today();
    await c.services.partners.create(actor, { slug, name: 'Webhook fan-out bench' });
    const endpointIds: string[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const reg = await c.services.webhooks.register(actor, { partnerSlug: slug, url: `${receiver.url}/${i}`, events: ['ranking.published'] });
      receiver.secrets[i] = reg.secret;
      endpointIds.push(reg.endpoint.id);
    }
    const subscribe = (on: boolean) => conn.execute(`update webhook_endpoint set enabled = ? where id = any(?::uuid[])`, [on, `{${endpointIds.join(',')}}`]);
    const without: number[] = [];
    const withEndpoints: number[] = [];
    let ranked = 0;
    for (let round = 0; round < PUBLICATIONS; round++) {
      await subscribe(false);
      await conn.execute(`delete from ranking_run`);
      const a = await c.services.rankings.publish(actor, asOf);
      without.push(a.figures.seconds);
      [{ ranked }] = await conn.execute<{ ranked: number }[]>(`select count(*)::int as ranked from ranking_entry where run_id = ? and scope = 'world'`, [
        a.run.id,
      ]);
      await subscribe(true);
      await conn.execute(`delete from ranking_run`);
      await conn.execute(`delete from webhook_change where type = 'ranking.published'`);
      const b = await c.services.rankings.publish(actor, asOf);
      withEndpoints.push(b.figures.seconds);
      console.log(
        `publication ${round + 1} of ${PUBLICATIONS}: ${a.figures.seconds.toFixed(2)} s without endpoints, ${b.figures.seconds.toFixed(2)} s with ${ENDPOINTS}; load average ${loadAverage()}`,
      );
    }
    const committed = performance.now();
    const [{ changes }] = await conn.execute<{ changes: number }[]>(
      `select coalesce(sum(jsonb_array_length(subject->'changes')), 0)::int as changes from webhook_change where type = 'ranking.published'`,
    );
    const expected = changes * ENDPOINTS;
    const none = median(without);
    const some = median(withEndpoints);
    console.log(
      `publication ${asOf} (${ranked} fighters ranked, all new), median of ${PUBLICATIONS}: ${none.toFixed(2)} s with no endpoint subscribed, ` +
        `${some.toFixed(2)} s with ${ENDPOINTS} (${((some / none - 1) * 100).toFixed(1)}%; goal within 20%: ${some <= none * 1.2 ? 'met' : 'NOT met'}); ` +
        `${changes} fighters changed, ${expected} deliveries to make; load average ${loadAverage()}`,
    );

    const workers = Array.from({ length: WORKERS }, () => startWorker(db.url));
    try {
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`only ${receiver.received.size} of ${expected} deliveries arrived in 30 minutes`)), 30 * 60_000);
        let lastReport = performance.now();
        const check = () => {
          if (performance.now() - lastReport > 30_000) {
            lastReport = performance.now();
            console.log(
              `  ... ${receiver.received.size} of ${expected} after ${((lastReport - committed) / 1000).toFixed(0)} s; load average ${loadAverage()}`,
            );
          }
          if (receiver.received.size >= expected) {
            clearTimeout(timer);
            ok();
          }
        };
        receiver.onArrival = check;
        check();
      });
    } finally {
      await stopWorkers(workers);
    }
    const seconds = (receiver.lastAt - committed) / 1000;
    console.log(
      `every delivery received and signature-checked ${seconds.toFixed(1)} s after the commit (${(expected / seconds).toFixed(0)} deliveries/s; goal under 600 s: ${seconds < 600 ? 'met' : 'NOT met'}); ` +
        `invalid signatures: ${receiver.invalid}; load average ${loadAverage()}`,
    );
  } finally {
    await conn.execute(
      `delete from webhook_attempt where delivery_id in (select d.id from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id join partner p on p.id = e.partner_id where p.slug = ?)`,
      [slug],
    );
    // The event rows stay (about a kilobyte each): deleting them checks each one's deliveries by
    // its foreign key, and webhook_delivery has no index on event_id (nothing else needs one).
    await conn.execute(
      `delete from webhook_delivery where endpoint_id in (select e.id from webhook_endpoint e join partner p on p.id = e.partner_id where p.slug = ?)`,
      [slug],
    );
    await conn.execute(`update webhook_endpoint set enabled = false where partner_id = (select id from partner where slug = ?)`, [slug]);
    receiver.server.close();
    await c.close();
    await bench.close();
  }
}
