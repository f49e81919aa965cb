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
  UUID,
  waitSettled,
  waitUntil,
  WEBHOOK_ENV,
} from '../../helpers/webhooks';

/**
 * Replay (docs/decisions.md#replay): a new delivery with a new id, X-SVC-Replay-Of = the replayed delivery's id, the
 * same payload `id` (receivers de-duplicate on it), attempts from 1.
 */

let t: TestApp;
let worker: Awaited<ReturnType<typeof runWorker>>;
const receiver = new WebhookReceiver();
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  t = await startTestApp({ env: { ...WEBHOOK_ENV, WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms' } });
  await seedBasics(t.c);
  endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [endpoint.secret];
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await t?.close();
});

it('replays a delivered event: new delivery id, X-SVC-Replay-Of, same payload, attempt 1', async () => {
  await sanctionEvent(t.c, 'Replayed Gala');
  await receiver.waitFor(1);
  const [original] = await waitSettled(t.c, endpoint.id, 1);
  expect(original.status).toBe('succeeded');

  const replay = await t.c.services.deliveries.replay(actor, original.id);
  expect(replay).toMatchObject({ replay_of: original.id, event_id: original.event_id, endpoint_id: endpoint.id, attempt: 0 });
  expect(replay.id).not.toBe(original.id);
  await receiver.waitFor(2);
  const [first, again] = receiver.received;

  expect(header(again, 'X-SVC-Replay-Of')).toBe(original.id);
  expect(header(again, 'X-SVC-Delivery')).toBe(replay.id);
  expect(header(again, 'X-SVC-Delivery')).toMatch(UUID);
  expect(header(again, 'X-SVC-Delivery')).not.toBe(header(first, 'X-SVC-Delivery'));
  expect(header(again, 'X-SVC-Attempt')).toBe('1');
  expect(header(again, 'X-SVC-Event')).toBe('event.sanctioned');
  // The same event: the same payload id, the same body, signed again.
  expect(again.json.id).toBe(first.json.id);
  expect(again.json).toEqual(first.json);
  expect(again.body).toBe(first.body);
  expect(again.validSignature).toBe(true);
  expect(header(first, 'X-SVC-Replay-Of')).toBeUndefined();
  const rows = await waitSettled(t.c, endpoint.id, 2);
  expect(rows.find((d) => d.id === replay.id)).toMatchObject({ status: 'succeeded', attempt: 1, replay_of: original.id });
});

it('replays a failed delivery with a fresh series of five attempts', async () => {
  receiver.received.length = 0;
  receiver.responses = [500];
  await sanctionEvent(t.c, 'Failed Gala');
  await receiver.waitFor(5);
  const failed = await waitUntil('the failed delivery', async () => (await deliveriesOf(t.c, endpoint.id)).find((d) => d.status === 'failed'));
  expect(failed.attempt).toBe(5);

  receiver.responses = [500, 500, 200];
  receiver.received.length = 0;
  const replay = await t.c.services.deliveries.replay(actor, failed.id);
  await receiver.waitFor(3);
  expect(receiver.received.map((r) => [header(r, 'X-SVC-Attempt'), header(r, 'X-SVC-Delivery'), header(r, 'X-SVC-Replay-Of')])).toEqual([
    ['1', replay.id, failed.id],
    ['2', replay.id, failed.id],
    ['3', replay.id, failed.id],
  ]);
  const done = await waitUntil('the replay to succeed', async () =>
    (await deliveriesOf(t.c, endpoint.id)).find((d) => d.id === replay.id && d.status === 'succeeded'),
  );
  expect(done.attempt).toBe(3);
  // The original stays as it was.
  expect((await deliveriesOf(t.c, endpoint.id)).find((d) => d.id === failed.id)).toMatchObject({ status: 'failed', attempt: 5 });
});

it('names the replayed delivery in X-SVC-Replay-Of when a replay is replayed', async () => {
  const [latest] = await deliveriesOf(t.c, endpoint.id); // the replay of the failed delivery
  expect(latest.replay_of).not.toBeNull();
  receiver.responses = [200];
  receiver.received.length = 0;
  const again = await t.c.services.deliveries.replay(actor, latest.id);
  await receiver.waitFor(1);
  expect(header(receiver.received[0], 'X-SVC-Replay-Of')).toBe(latest.id);
  expect(header(receiver.received[0], 'X-SVC-Delivery')).toBe(again.id);
});

it('refuses an unknown or malformed delivery id', async () => {
  await expect(t.c.services.deliveries.replay(actor, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
  await expect(t.c.services.deliveries.replay(actor, 'evt_nope')).rejects.toMatchObject({ code: 'invalid_id' });
});
