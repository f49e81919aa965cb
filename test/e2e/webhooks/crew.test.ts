import type { Logger } from '../../../src/lib/logger';
import { DeliveryWorker, type WorkerOptions } from '../../../src/webhooks/delivery.worker';
import type { SendResult, WebhookSender } from '../../../src/webhooks/webhook.sender';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { registerEndpoint, sanctionEvent, seedBasics, sleep, waitUntil, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * The crew (src/webhooks/delivery-crew.ts): while two workers run, each endpoint is served by one
 * of them, and each worker serves some; a worker that stops hands its share over at once; one
 * that dies hands it over when its row runs out.
 */

let t: TestApp;
const urls = ['http://127.0.0.1:9/crew-a', 'http://127.0.0.1:9/crew-b'];
const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Logger;
const started: DeliveryWorker[] = [];

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedBasics(t.c);
  for (const url of urls) await registerEndpoint(t.c, url, ['event.sanctioned']);
});
afterAll(async () => {
  for (const w of started) await w.stop();
  await t?.close();
});

/** A worker on the test app's database whose sender answers 200 and notes which URLs it sent to. */
function worker(leaseMs: number) {
  const sentTo = new Set<string>();
  const sender = {
    async send(url: string): Promise<SendResult> {
      sentTo.add(url);
      return { statusCode: 200, error: null, durationMs: 1, excerpt: null };
    },
  } as unknown as WebhookSender;
  const options: WorkerOptions = { schedule: [300], leaseMs, batchSize: 8, pollMs: 50, maxInFlight: 16, endpointConcurrency: 4, expandBatch: 100 };
  const w = new DeliveryWorker(() => t.c.orm.em.getConnection('write'), sender, options, logger, null, null, null, {
    expand: (limit) => t.c.outbox.expand(t.c.orm.em as never, limit),
  });
  started.push(w);
  return { w, sentTo };
}

/** Waits until every change is expanded and every delivery sent (the running workers do it). */
async function allSent(): Promise<void> {
  await waitUntil('every delivery sent', async () => {
    const [{ n }] = await t.c.orm.em
      .getConnection()
      .execute<{ n: number }[]>(
        `select (select count(*)::int from webhook_delivery where status <> 'succeeded') + (select count(*)::int from webhook_change) as n`,
      );
    return n === 0 ? true : null;
  });
}

async function publish(events: number): Promise<void> {
  for (let i = 0; i < events; i++) await sanctionEvent(t.c);
}

it('serves each endpoint from one worker while two run, and hands a share over when a worker stops or dies', async () => {
  const one = worker(60_000);
  const two = worker(60_000);
  // Both join the crew (their first tick), then the deliveries come.
  one.w.start();
  two.w.start();
  await sleep(200);
  await publish(12);
  await allSent();
  // Each endpoint went to one worker, and each worker served one endpoint.
  expect([...one.sentTo, ...two.sentTo].sort()).toEqual(urls);
  expect(one.sentTo.size).toBe(1);
  expect(two.sentTo.size).toBe(1);

  // `two` stops: `one` serves both at its next claim.
  await two.w.stop();
  one.sentTo.clear();
  await publish(4);
  await allSent();
  expect([...one.sentTo].sort()).toEqual(urls);

  // A worker that dies (joins, then never runs again) keeps its share until its row runs out: 3 s
  // for a 3 s lease (long enough that the look below, half a second after the events, comes
  // before it on a loaded machine). Meanwhile `one` serves only its own share.
  const dead = worker(3_000);
  await dead.w.tick();
  one.sentTo.clear();
  await publish(4);
  await sleep(500);
  expect(one.sentTo.size).toBe(1);
  await allSent();
  expect([...one.sentTo].sort()).toEqual(urls);
  expect(dead.sentTo.size).toBe(0);
  await one.w.stop();
  const [{ n }] = await t.c.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from webhook_worker where alive_until >= now()`);
  expect(n).toBe(0);
});

it('leaves a worker with no endpoint of its own idle, and gives it a share when another stops', async () => {
  const workers = [worker(60_000), worker(60_000), worker(60_000)];
  for (const { w } of workers) w.start();
  await sleep(200);
  await publish(12);
  await allSent();
  // Three workers, two endpoints: one worker's share is empty, and it sent nothing.
  const idle = workers.filter((x) => x.sentTo.size === 0);
  expect(idle).toHaveLength(1);
  expect(workers.filter((x) => x.sentTo.size === 1)).toHaveLength(2);

  const serving = workers.find((x) => x.sentTo.size === 1)!;
  await serving.w.stop();
  for (const x of workers) x.sentTo.clear();
  await publish(4);
  await allSent();
  expect(idle[0].sentTo.size).toBe(1);
  expect(serving.sentTo.size).toBe(0);
  for (const { w } of workers) await w.stop();
});
