import type { TestApp } from '../../helpers/test-app';
import { deliveriesOf, registerEndpoint, sanctionEvent, sleep, useWebhookApp, waitSettled } from '../../helpers/webhooks';

/**
 * The delivery log keeps every attempt (docs/decisions.md#delivery-log): its time, the request headers sent, the status code
 * or the error, the duration, and the first 4 KiB of the answer.
 */

const KIB4 = 4096;
const app = useWebhookApp({ WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms', WEBHOOK_LEASE_MS: '1000' });
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

async function endpoint() {
  const r = app.receiver();
  const ep = await registerEndpoint(t.c, await r.start(), ['event.sanctioned']);
  r.secrets = [ep.secret];
  return { r, ep };
}

it('keeps every attempt with its time, request headers, status code or error, duration and answer excerpt', async () => {
  const { r, ep } = await endpoint();
  const long = `${'A'.repeat(1000)}${'0123456789'.repeat(1500)}`; // 16,000 bytes
  r.reply = (_req, i) =>
    [
      { status: 500, body: long },
      { status: 503, body: 'maintenance', delayMs: 150 },
      { status: 200, body: '{"ok":true}' },
    ][i];
  const before = Date.now();
  await sanctionEvent(t.c);
  const [row] = await waitSettled(t.c, ep.id, 1);
  expect(row).toMatchObject({ status: 'succeeded', attempt: 3, last_status_code: 200, last_error: null });
  const log = await t.c.services.deliveries.attempts([row.id]);
  expect(log.map((a) => [a.attempt_no, a.status_code, a.error])).toEqual([
    [1, 500, 'HTTP 500'],
    [2, 503, 'HTTP 503'],
    [3, 200, null],
  ]);

  // The first 4 KiB of the answer, exactly.
  expect(log[0].response_excerpt).toBe(long.slice(0, KIB4));
  expect(log[1].response_excerpt).toBe('maintenance');
  expect(log[2].response_excerpt).toBe('{"ok":true}');

  for (const [i, a] of log.entries()) {
    const got = r.received[i];
    expect(a.delivery_id).toBe(row.id);
    // Time: when the attempt started, close to when it arrived.
    expect(a.started_at).toBeInstanceOf(Date);
    expect(a.started_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(Math.abs(got.at - a.started_at.getTime())).toBeLessThan(1000);
    // The request headers, as the receiver got them.
    const sent = Object.fromEntries(Object.entries(a.request_headers).map(([k, v]) => [k.toLowerCase(), v]));
    for (const name of [
      'x-svc-event',
      'x-svc-delivery',
      'x-svc-timestamp',
      'x-svc-attempt',
      'x-svc-signature',
      'x-svc-signature-timestamped',
      'content-type',
    ]) {
      expect([name, sent[name]]).toEqual([name, got.headers[name]]);
    }
    expect(sent['x-svc-attempt']).toBe(String(i + 1));
    expect(sent['x-svc-replay-of']).toBeUndefined();
    expect(Number.isInteger(a.duration_ms) && a.duration_ms >= 0).toBe(true);
  }
  // The slow answer took its time, and the log says so.
  expect(log[1].duration_ms).toBeGreaterThanOrEqual(140);
  expect(log[1].duration_ms).toBeLessThan(2000);
});

it('cuts the excerpt at 4 KiB of bytes, without splitting a character', async () => {
  const { r, ep } = await endpoint();
  // One ASCII byte, then two-byte characters: byte 4096 falls in the middle of one.
  const body = `x${'é'.repeat(3000)}`;
  r.reply = () => ({ status: 200, body });
  await sanctionEvent(t.c);
  const [row] = await waitSettled(t.c, ep.id, 1);
  const [a] = await t.c.services.deliveries.attempts([row.id]);
  const excerpt = a.response_excerpt!;
  expect(Buffer.byteLength(excerpt, 'utf8')).toBeLessThanOrEqual(KIB4);
  expect(body.startsWith(excerpt)).toBe(true);
  expect(excerpt.length).toBe(1 + 2047);
});

it('records an answer whose body holds bytes PostgreSQL cannot store in text (NUL), and does not send the attempt again', async () => {
  const { r, ep } = await endpoint();
  r.reply = () => ({ status: 200, body: Buffer.from('ok\u0000done', 'utf8') });
  await sanctionEvent(t.c);
  const [row] = await waitSettled(t.c, ep.id, 1, 5000);
  // Past a lease (1 s here): a delivery whose outcome could not be recorded would be taken over and sent again.
  await sleep(1500);
  expect(r.received).toHaveLength(1);
  expect(row).toMatchObject({ status: 'succeeded', attempt: 1, last_status_code: 200 });
  const [a] = await t.c.services.deliveries.attempts([row.id]);
  expect(a.status_code).toBe(200);
  expect(a.response_excerpt).toMatch(/^ok.done$/);
});

it('lists deliveries by endpoint and by status, newest first', async () => {
  const { r, ep } = await endpoint();
  r.responses = [200, 410];
  await sanctionEvent(t.c);
  await waitSettled(t.c, ep.id, 1);
  await sanctionEvent(t.c);
  const rows = await waitSettled(t.c, ep.id, 2);
  expect(rows.map((d) => d.status)).toEqual(['failed', 'succeeded']);
  expect(rows[0].created_at.getTime()).toBeGreaterThanOrEqual(rows[1].created_at.getTime());
  expect(rows.every((d) => d.event === 'event.sanctioned' && d.endpoint_id === ep.id)).toBe(true);
  const failed = await t.c.services.deliveries.list({ endpointId: ep.id, status: 'failed' });
  expect(failed.map((d) => d.id)).toEqual([rows[0].id]);
  expect(failed[0]).toMatchObject({ last_status_code: 410, last_error: 'HTTP 410', attempt: 1 });
  expect(failed[0].completed_at).toBeInstanceOf(Date);
  expect(await deliveriesOf(t.c, ep.id)).toHaveLength(2);
  await expect(t.c.services.deliveries.list({ status: 'lost' })).rejects.toMatchObject({ code: 'invalid_status' });
  await expect(t.c.services.deliveries.list({ endpointId: 'nope' })).rejects.toMatchObject({ code: 'invalid_id' });
});
