import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import {
  actor,
  deliveriesOf,
  header,
  registerEndpoint,
  runWorker,
  sanctionEvent,
  seedBasics,
  sleep,
  waitSettled,
  waitUntil,
  WEBHOOK_ENV,
} from '../../helpers/webhooks';

/**
 * While a partner account is suspended its webhooks pause (docs/decisions.md#outbox):
 * deliveries wait without spending attempts and resume on reinstatement.
 */

const SCHEDULE_MS = 1000;
let t: TestApp;
let worker: Awaited<ReturnType<typeof runWorker>>;
const receiver = new WebhookReceiver();
const other = new WebhookReceiver();
let endpoint: { id: string; secret: string };
let otherEndpoint: { id: string; secret: string };

beforeAll(async () => {
  t = await startTestApp({ env: { ...WEBHOOK_ENV, WEBHOOK_RETRY_SCHEDULE: `${SCHEDULE_MS}ms,${SCHEDULE_MS}ms,${SCHEDULE_MS}ms,${SCHEDULE_MS}ms` } });
  await seedBasics(t.c);
  await t.c.services.partners.create(actor, { slug: 'other-partner', name: 'Other Partner' });
  endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  otherEndpoint = await registerEndpoint(t.c, await other.start(), ['event.sanctioned'], 'other-partner');
  receiver.secrets = [endpoint.secret];
  other.secrets = [otherEndpoint.secret];
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await other.stop();
  await t?.close();
});

it('holds a new delivery at attempt 0 while the partner is suspended, and sends it as attempt 1 on reinstatement', async () => {
  await t.c.services.partners.setStatus(actor, 'acme-media', 'suspended');
  await sanctionEvent(t.c, 'Paused Gala');
  // Another partner's endpoint is not held up: its delivery proves the worker is running.
  await other.waitFor(1);
  await sleep(1000); // many polls
  expect(receiver.received).toEqual([]);
  const [held] = await deliveriesOf(t.c, endpoint.id);
  expect(held).toMatchObject({ status: 'pending', attempt: 0 });
  expect(await t.c.services.deliveries.attempts([held.id])).toEqual([]);

  await t.c.services.partners.setStatus(actor, 'acme-media', 'active');
  await receiver.waitFor(1);
  const [r] = receiver.received;
  expect(header(r, 'X-SVC-Attempt')).toBe('1');
  expect(header(r, 'X-SVC-Delivery')).toBe(held.id);
  expect(r.validSignature).toBe(true);
  // Signed when sent, not when written.
  expect(Math.abs(Number(header(r, 'X-SVC-Timestamp')) - r.at / 1000)).toBeLessThan(2);
  expect((r.json.data as { name: string }).name).toBe('Paused Gala');
  expect((await waitSettled(t.c, endpoint.id, 1))[0]).toMatchObject({ status: 'succeeded', attempt: 1 });
});

it('pauses a retry series in the middle without spending its attempts', async () => {
  receiver.responses = [500, 200];
  receiver.received.length = 0;
  await sanctionEvent(t.c, 'Interrupted Gala');
  await receiver.waitFor(1);
  expect(header(receiver.received[0], 'X-SVC-Attempt')).toBe('1');
  // Suspended before the retry is due (one second after the first attempt).
  await t.c.services.partners.setStatus(actor, 'acme-media', 'suspended');
  const id = header(receiver.received[0], 'X-SVC-Delivery')!;
  await waitUntil('the retry to be due', async () => {
    const [{ due }] = await t.c.orm.em
      .getConnection()
      .execute<{ due: boolean }[]>(`select next_attempt_at <= now() as due from webhook_delivery where id = ?`, [id]);
    return due;
  });
  await sleep(SCHEDULE_MS * 2);
  expect(receiver.received).toHaveLength(1);
  const held = (await deliveriesOf(t.c, endpoint.id)).find((d) => d.id === id)!;
  expect(held).toMatchObject({ status: 'pending', attempt: 1, last_status_code: 500 });

  await t.c.services.partners.setStatus(actor, 'acme-media', 'active');
  await receiver.waitFor(2);
  expect(receiver.received.map((r) => header(r, 'X-SVC-Attempt'))).toEqual(['1', '2']);
  expect(header(receiver.received[1], 'X-SVC-Delivery')).toBe(id);
  const done = await waitUntil('the delivery to succeed', async () =>
    (await deliveriesOf(t.c, endpoint.id)).find((d) => d.id === id && d.status === 'succeeded'),
  );
  expect(done.attempt).toBe(2);
});
