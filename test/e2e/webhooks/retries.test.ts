import type { TestApp } from '../../helpers/test-app';
import type { Received } from '../../helpers/webhook-receiver';
import { deliveriesOf, header, registerEndpoint, sanctionEvent, signedWith, sleep, useWebhookApp, UUID, waitSettled } from '../../helpers/webhooks';

/**
 * Retries (docs/decisions.md#retries) on a compressed schedule: the first delay is
 * over a second so that the re-signing of each attempt shows in X-SVC-Timestamp, the others short.
 */

const SCHEDULE = [1100, 300, 300, 300];
const app = useWebhookApp({ WEBHOOK_RETRY_SCHEDULE: SCHEDULE.map((ms) => `${ms}ms`).join(',') });
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

/** A receiver and an endpoint of its own for one test; disabled again when the test ends. */
async function endpointAnswering(responses: number[]) {
  const receiver = app.receiver();
  receiver.responses = responses;
  const endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [endpoint.secret];
  return { receiver, endpoint };
}

const attemptsOf = (rs: Received[]) => rs.map((r) => Number(header(r, 'X-SVC-Attempt')));

it('retries a failing delivery after each delay of the schedule: attempts 1 to 5, then silence', async () => {
  const { receiver, endpoint } = await endpointAnswering([500, 503, 502, 504, 500]);
  await sanctionEvent(t.c);
  await receiver.waitFor(5, 20_000);
  // Past the longest delay, and then some: no sixth attempt ever comes.
  await sleep(Math.max(...SCHEDULE) * 2);
  const got = receiver.received;
  expect(attemptsOf(got)).toEqual([1, 2, 3, 4, 5]);

  // One attempt series: one delivery id, one payload, one event.
  const delivery = header(got[0], 'X-SVC-Delivery');
  expect(delivery).toMatch(UUID);
  for (const r of got) {
    expect(header(r, 'X-SVC-Delivery')).toBe(delivery);
    expect(r.json).toEqual(got[0].json);
    expect(r.body).toBe(got[0].body);
    expect(header(r, 'X-SVC-Event')).toBe('event.sanctioned');
    expect(header(r, 'X-SVC-Replay-Of')).toBeUndefined();
  }

  // Each attempt signed anew when it is sent, with its own timestamp.
  for (const r of got) {
    expect(r.validSignature).toBe(true);
    expect(signedWith(r, endpoint.secret)).toBe(true);
    expect(Math.abs(Number(header(r, 'X-SVC-Timestamp')) - r.at / 1000)).toBeLessThan(2);
  }
  expect(Number(header(got[1], 'X-SVC-Timestamp'))).toBeGreaterThan(Number(header(got[0], 'X-SVC-Timestamp')));
  expect(header(got[1], 'X-SVC-Signature-Timestamped')).not.toBe(header(got[0], 'X-SVC-Signature-Timestamped'));
  // The raw-body signature does not depend on the time.
  expect(new Set(got.map((r) => header(r, 'X-SVC-Signature'))).size).toBe(1);

  // Each retry waits its delay: 1.1 s before attempt 2, 300 ms before the next ones.
  for (let i = 1; i < got.length; i++) {
    const gap = got[i].at - got[i - 1].at;
    expect([i, gap >= SCHEDULE[i - 1] - 30]).toEqual([i, true]);
    expect([i, gap < SCHEDULE[i - 1] + 1500]).toEqual([i, true]);
  }

  const [row] = await deliveriesOf(t.c, endpoint.id);
  expect(row).toMatchObject({ id: delivery, status: 'failed', attempt: 5, last_status_code: 500 });
  expect(row.completed_at).toBeInstanceOf(Date);
  const log = await t.c.services.deliveries.attempts([row.id]);
  expect(log.map((a) => [a.attempt_no, a.status_code])).toEqual([
    [1, 500],
    [2, 503],
    [3, 502],
    [4, 504],
    [5, 500],
  ]);
});

it('stops the series at the first 2xx: success on attempt 3 means no attempt 4', async () => {
  const { receiver, endpoint } = await endpointAnswering([500, 429, 204]);
  await sanctionEvent(t.c);
  await receiver.waitFor(3, 10_000);
  await sleep(Math.max(...SCHEDULE) * 2);
  expect(attemptsOf(receiver.received)).toEqual([1, 2, 3]);
  expect(new Set(receiver.received.map((r) => header(r, 'X-SVC-Delivery'))).size).toBe(1);
  const [row] = await waitSettled(t.c, endpoint.id, 1);
  expect(row).toMatchObject({ status: 'succeeded', attempt: 3, last_status_code: 204, last_error: null });
});

it('counts any 2xx as success and anything else as failure', async () => {
  const { receiver, endpoint } = await endpointAnswering([201]);
  const second = await endpointAnswering([400, 299]);
  await sanctionEvent(t.c);
  await receiver.waitFor(1);
  await second.receiver.waitFor(2, 10_000);
  await sleep(400);
  expect(attemptsOf(receiver.received)).toEqual([1]);
  expect(attemptsOf(second.receiver.received)).toEqual([1, 2]);
  expect((await waitSettled(t.c, endpoint.id, 1))[0]).toMatchObject({ status: 'succeeded', attempt: 1, last_status_code: 201 });
  expect((await waitSettled(t.c, second.endpoint.id, 1))[0]).toMatchObject({ status: 'succeeded', attempt: 2, last_status_code: 299 });
  const [failed] = await t.c.services.deliveries.attempts([(await deliveriesOf(t.c, second.endpoint.id))[0].id]);
  expect(failed).toMatchObject({ attempt_no: 1, status_code: 400, error: expect.stringContaining('400') });
});
