import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../../helpers/test-app';
import type { WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, deliveriesOf, header, registerEndpoint, sanctionEvent, sleep, useWebhookApp, waitSettled, waitUntil } from '../../helpers/webhooks';

/**
 * Answers that are not a success (docs/decisions.md#delivery, docs/decisions.md#gone): a redirect is a failure and is not followed, a
 * time-out is a failure logged with its error, a 410 Gone disables the endpoint, and a receiver
 * that is down is a failure like any other.
 */

// Long enough that a loaded machine's prompt answer (the redirects below) is not taken for a
// time-out, short enough against the slow receivers of the time-out tests (2-3 s).
const TIMEOUT_MS = 1000;
const app = useWebhookApp({ WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

async function receiver(): Promise<{ receiver: WebhookReceiver; url: string }> {
  const r = app.receiver();
  return { receiver: r, url: await r.start() };
}

async function endpointFor(r: WebhookReceiver, url: string) {
  const endpoint = await registerEndpoint(t.c, url, ['event.sanctioned']);
  r.secrets = [endpoint.secret];
  return endpoint;
}

describe('redirects', () => {
  it.each([302, 307, 301, 308])('treats a %i as a failure, does not follow it, and retries', async (status) => {
    const target = await receiver();
    const { receiver: r, url } = await receiver();
    const endpoint = await endpointFor(r, url);
    r.reply = (_req, i) => (i === 0 ? { status, headers: { location: target.url } } : { status: 200 });
    await sanctionEvent(t.c);
    const [row] = await waitSettled(t.c, endpoint.id, 1);
    await sleep(200);
    // Nothing ever reached the place the redirect pointed at.
    expect(target.receiver.received).toEqual([]);
    expect(r.received.map((x) => header(x, 'X-SVC-Attempt'))).toEqual(['1', '2']);
    expect(row).toMatchObject({ status: 'succeeded', attempt: 2 });
    const log = await t.c.services.deliveries.attempts([row.id]);
    expect(log.map((a) => [a.attempt_no, a.status_code])).toEqual([
      [1, status],
      [2, 200],
    ]);
    expect(log[0].error).toMatch(/redirect/i);
    expect(log[1].error).toBeNull();
  });
});

describe('time-outs', () => {
  it('gives up on a receiver slower than WEBHOOK_TIMEOUT_MS, logs the time-out as the error, and retries', async () => {
    const { receiver: r, url } = await receiver();
    const endpoint = await endpointFor(r, url);
    r.reply = (_req, i) => (i === 0 ? { status: 200, delayMs: 3000 } : { status: 200 });
    await sanctionEvent(t.c);
    const [row] = await waitSettled(t.c, endpoint.id, 1, 10_000);
    expect(row).toMatchObject({ status: 'succeeded', attempt: 2 });
    // Attempt 2 came while attempt 1's answer was still on its way: the worker did not wait for it.
    expect(r.received[1].at - r.received[0].at).toBeLessThan(2500);
    const log = await t.c.services.deliveries.attempts([row.id]);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ attempt_no: 1, status_code: null, response_excerpt: null });
    expect(log[0].error).toMatch(/timed out/i);
    expect(log[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(log[0].duration_ms).toBeLessThan(TIMEOUT_MS + 1500);
    expect(log[1]).toMatchObject({ attempt_no: 2, status_code: 200, error: null });
  });

  it('fails the whole series when every attempt times out', async () => {
    const { receiver: r, url } = await receiver();
    const endpoint = await endpointFor(r, url);
    r.delayMs = 2000;
    await sanctionEvent(t.c);
    const [row] = await waitSettled(t.c, endpoint.id, 1, 15_000);
    expect(row).toMatchObject({ status: 'failed', attempt: 5, last_status_code: null, last_error: expect.stringMatching(/timed out/i) });
    expect(r.received.map((x) => header(x, 'X-SVC-Attempt'))).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('410 Gone', () => {
  it('disables the endpoint with the reason, and nothing more is sent to it', async () => {
    const { receiver: r, url } = await receiver();
    const endpoint = await endpointFor(r, url);
    r.responses = [410, 200];
    await sanctionEvent(t.c);
    const [row] = await waitSettled(t.c, endpoint.id, 1);
    expect(row).toMatchObject({ status: 'failed', attempt: 1, last_status_code: 410 });
    const ep = (await t.c.services.webhooks.list()).find((e) => e.id === endpoint.id)!;
    expect(ep.enabled).toBe(false);
    expect(ep.disabledReason).toMatch(/410/);
    // No retry of that delivery, and later events are not sent either.
    await sanctionEvent(t.c);
    await sleep(1200);
    expect(r.received).toHaveLength(1);
    expect(await deliveriesOf(t.c, endpoint.id)).toHaveLength(1);
  });

  it('leaves the other deliveries of a disabled endpoint unsent (no further attempts)', async () => {
    const { receiver: r, url } = await receiver();
    const endpoint = await endpointFor(r, url);
    r.responses = [410, 200];
    // Two events in one transaction: two deliveries, due together.
    await t.c.orm.em.fork().transactional(async (em) => {
      for (const name of ['Twin A', 'Twin B']) {
        const e = await t.c.services.events.create(actor, { name, countrySlug: 'germany', date: '2026-07-01' }, em);
        await t.c.services.events.sanction(actor, e.code, em);
      }
    });
    await waitUntil('the 410', () => r.received.length >= 1);
    await sleep(1200);
    const rows = await deliveriesOf(t.c, endpoint.id);
    expect(rows).toHaveLength(2);
    // Either both went out in one batch before the 410 was known, or the second never went.
    const sent = r.received.length;
    expect(rows.reduce((n, d) => n + d.attempt, 0)).toBe(sent);
    await sleep(600);
    expect(r.received).toHaveLength(sent);
  });
});

describe('a receiver that is down', () => {
  it('is a failure with the connection error logged, retried on schedule', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const endpoint = await registerEndpoint(t.c, `http://127.0.0.1:${port}/hooks`, ['event.sanctioned']);
    await sanctionEvent(t.c);
    const [row] = await waitSettled(t.c, endpoint.id, 1);
    expect(row).toMatchObject({ status: 'failed', attempt: 5, last_status_code: null });
    const log = await t.c.services.deliveries.attempts([row.id]);
    expect(log.map((a) => a.attempt_no)).toEqual([1, 2, 3, 4, 5]);
    for (const a of log) expect(a.error).toMatch(/ECONNREFUSED/);
  });
});
