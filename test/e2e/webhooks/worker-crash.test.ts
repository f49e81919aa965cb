import type { ChildProcess } from 'node:child_process';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import {
  deliveriesOf,
  deliveryById,
  exited,
  header,
  registerEndpoint,
  sanctionEvent,
  seedBasics,
  sleep,
  spawnWorkerProcess,
  waitUntil,
  WEBHOOK_ENV,
} from '../../helpers/webhooks';

/**
 * A worker killed with SIGKILL in the middle of a delivery loses nothing (docs/decisions.md#outbox): the claim is a
 * lease, so another worker process takes the same attempt over once the lease ends, and sends it
 * with the same delivery id and attempt number (at-least-once).
 */

let t: TestApp;
const receiver = new WebhookReceiver();
const children: ChildProcess[] = [];
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedBasics(t.c);
  endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [endpoint.secret];
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }
  await receiver.stop();
  await t?.close();
});

function worker() {
  const child = spawnWorkerProcess(t.db.url);
  children.push(child);
  return child;
}

it('sends the interrupted attempt again from a new worker process, and the delivery ends succeeded', async () => {
  // The first request is never answered in time: the worker is killed while it waits.
  receiver.reply = (_r, i) => (i === 0 ? { status: 200, delayMs: 60_000 } : { status: 200 });
  const first = worker();
  await sanctionEvent(t.c, 'Crash Night');
  await receiver.waitFor(1, 30_000).catch((err) => {
    throw new Error(`${(err as Error).message}; worker output: ${first.output()}`);
  });
  const [inFlight] = await deliveriesOf(t.c, endpoint.id);
  expect(inFlight).toMatchObject({ status: 'sending', attempt: 1 });
  first.kill('SIGKILL');
  await exited(first);
  expect(first.signalCode).toBe('SIGKILL');

  // An event written while no worker runs waits in the outbox.
  await sanctionEvent(t.c, 'While Nobody Works');
  await sleep(300);
  expect(receiver.received).toHaveLength(1);

  const second = worker();
  await receiver.waitFor(3, 30_000).catch((err) => {
    throw new Error(`${(err as Error).message}; worker output: ${second.output()}`);
  });
  const rows = await waitUntil('both deliveries succeeded', async () => {
    const all = await deliveriesOf(t.c, endpoint.id);
    return all.length === 2 && all.every((d) => d.status === 'succeeded') ? all : null;
  });

  const [killed, ...after] = receiver.received;
  const again = after.filter((r) => r.json.id === killed.json.id);
  const waited = after.filter((r) => r.json.id !== killed.json.id);
  // The same delivery and the same attempt number, sent again, signed again.
  expect(again).toHaveLength(1);
  expect(header(again[0], 'X-SVC-Delivery')).toBe(header(killed, 'X-SVC-Delivery'));
  expect(header(again[0], 'X-SVC-Attempt')).toBe('1');
  expect(again[0].body).toBe(killed.body);
  expect(again[0].validSignature).toBe(true);
  // The event written while no worker ran arrived too, once.
  expect(waited).toHaveLength(1);
  expect(header(waited[0], 'X-SVC-Attempt')).toBe('1');
  expect((waited[0].json.data as { name: string }).name).toBe('While Nobody Works');

  const interrupted = await deliveryById(t.c, header(killed, 'X-SVC-Delivery')!);
  expect(interrupted).toMatchObject({ status: 'succeeded', attempt: 1, last_status_code: 200 });
  const log = await t.c.services.deliveries.attempts(rows.map((d) => d.id));
  expect(log.map((a) => [a.delivery_id, a.attempt_no, a.status_code]).sort()).toEqual(rows.map((d) => [d.id, 1, 200]).sort());

  // Stopped politely, a worker finishes and exits 0.
  second.kill('SIGTERM');
  await exited(second);
  expect(second.exitCode).toBe(0);
  await sleep(200);
  expect(receiver.received).toHaveLength(3);
}, 90_000);
