import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Container } from '../../src/container';
import type { Database } from '../../src/db/database';
import type { Actor } from '../../src/domain/audit/audit.log';
import { verifySignature } from '../../src/webhooks/signer';
import { createDeliveryWorker } from '../../src/webhooks/worker.factory';
import type { DeliveryView } from '../../src/webhooks/delivery-log.service';
import { startTestApp, type TestApp } from './test-app';
import { WebhookReceiver, type Received } from './webhook-receiver';

/** Helpers for the webhook end-to-end tests (test/e2e/webhooks). */

export const actor: Actor = { id: 'test' };

/** Loopback http receivers, a short poll and a compressed retry schedule. */
export const WEBHOOK_ENV = {
  WEBHOOKS_ALLOW_INSECURE: '1',
  WEBHOOKS_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms',
  WEBHOOK_POLL_MS: '50',
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
/** ISO 8601 date-time with an explicit offset (Z or ±hh:mm). */
export const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `fn` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function waitUntil<T>(what: string, fn: () => Promise<T> | T, timeoutMs = 15_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await fn();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await sleep(everyMs);
  }
}

/** A request header as the receiver saw it. */
export const header = (r: Received, name: string): string | undefined => {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** Whether `secret` produced both signatures of a received delivery (as a partner checks them). */
export const signedWith = (r: Received, secret: string): boolean =>
  verifySignature(secret, r.body, {
    timestamp: header(r, 'X-SVC-Timestamp'),
    signature: header(r, 'X-SVC-Signature'),
    timestamped: header(r, 'X-SVC-Signature-Timestamped'),
  });

/** An in-process delivery worker on the container's database, running its loop. */
export async function runWorker(c: Container, db: Pick<Database, 'url' | 'embedded'>) {
  const w = await createDeliveryWorker(c, db);
  w.worker.start();
  return w;
}

/** One country, one division and one active partner: enough to emit and receive events. */
export async function seedBasics(c: Container, partner = 'acme-media'): Promise<void> {
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
  await c.services.partners.create(actor, { slug: partner, name: 'Acme Media' });
}

let eventCounter = 0;
/** Creates and sanctions an event (emits event.sanctioned); returns its code. */
export async function sanctionEvent(c: Container, name = `Gala ${++eventCounter}`): Promise<string> {
  const e = await c.services.events.create(actor, { name, city: 'Berlin', countrySlug: 'germany', date: '2026-07-01', level: 'national', status: 'scheduled' });
  await c.services.events.sanction(actor, e.code);
  return e.code;
}

export async function registerEndpoint(c: Container, url: string, events: string[], partnerSlug = 'acme-media'): Promise<{ id: string; secret: string }> {
  const { endpoint, secret } = await c.services.webhooks.register(actor, { partnerSlug, url, events });
  return { id: endpoint.id, secret };
}

export async function deliveriesOf(c: Container, endpointId: string): Promise<DeliveryView[]> {
  return c.services.deliveries.list({ endpointId, limit: 1000 });
}

export async function deliveryById(c: Container, id: string): Promise<DeliveryView> {
  const [d] = await c.orm.em.getConnection().execute<DeliveryView[]>(
    `select d.id, d.status, d.attempt, d.replay_of, d.last_status_code, d.last_error, d.completed_at, d.endpoint_id, d.event_id
       from webhook_delivery d where d.id = ?`,
    [id],
  );
  return d;
}

/** Waits until the workers have turned every committed change into deliveries (outbox.ts expands after the commit). */
/**
 * Expands every recorded change into its events and deliveries at once, as a worker does after the
 * commit (the fan-out): for tests that run no worker and read what was stored.
 */
export async function expandAll(c: Container): Promise<void> {
  while ((await c.outbox.expand(c.orm.em, 100)) > 0);
}

export async function waitExpanded(c: Container, timeoutMs = 15_000): Promise<void> {
  await waitUntil(
    'every change expanded into deliveries',
    async () => {
      const [{ n }] = await c.orm.em.getConnection().execute<{ n: number }[]>('select count(*)::int as n from webhook_change');
      return n === 0;
    },
    timeoutMs,
  );
}

/** Waits until every delivery of the endpoint has ended (succeeded or failed). */
export async function waitSettled(c: Container, endpointId: string, expected: number, timeoutMs = 15_000): Promise<DeliveryView[]> {
  return waitUntil(
    `${expected} settled deliveries of ${endpointId}`,
    async () => {
      const rows = await deliveriesOf(c, endpointId);
      return rows.length === expected && rows.every((d) => d.status === 'succeeded' || d.status === 'failed') ? rows : null;
    },
    timeoutMs,
  );
}

/**
 * `src/worker.ts` as its own process (as `npm run worker` runs it) on the test database. On the
 * embedded database every connection shares one session, so the process gets a pool of one, as
 * a worker that joins the running server's embedded database does.
 */
export function spawnWorkerProcess(databaseUrl: string, env: Record<string, string> = {}): ChildProcess & { output(): string } {
  const root = join(__dirname, '..', '..');
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'src', 'worker.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      WEBHOOK_LEASE_MS: '1000',
      WEBHOOKS_ALLOW_INSECURE: '1',
      WEBHOOKS_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '50',
      ...(process.env.TEST_EMBEDDED_URL ? { DB_POOL_MAX: '1' } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return Object.assign(child, { output: () => output });
}

/** Resolves when the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * The set-up every delivery test file shares: one test app (webhook env plus `env`), the basic
 * data, a running worker; each test's endpoints are disabled when it ends, and receivers made
 * through `receiver()` are stopped with the app.
 */
export function useWebhookApp(env: Record<string, string> = {}): { readonly t: TestApp; receiver(): WebhookReceiver } {
  let t: TestApp;
  let worker: Awaited<ReturnType<typeof runWorker>> | undefined;
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { ...WEBHOOK_ENV, ...env } });
    await seedBasics(t.c);
    worker = await runWorker(t.c, t.db);
  });
  afterAll(async () => {
    await worker?.close();
    for (const r of receivers) await r.stop();
    await t?.close();
  });
  afterEach(async () => {
    for (const e of await t.c.services.webhooks.list()) if (e.enabled) await t.c.services.webhooks.setEnabled(actor, e.id, false, 'test over');
  });
  return {
    get t() {
      return t;
    },
    receiver() {
      const r = new WebhookReceiver();
      receivers.push(r);
      return r;
    },
  };
}
