import type { TestApp } from '../../helpers/test-app';
import type { Received, WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, header, registerEndpoint, sanctionEvent, signedWith, sleep, useWebhookApp } from '../../helpers/webhooks';

/**
 * Secret rotation without downtime (docs/decisions.md#rotation): the new secret is issued at once, the old one keeps
 * signing until the switch time (24 h by default), then the new one signs. The signature headers
 * keep one value. This file runs on the real clock, as the worker signs with it.
 */

const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
const app = useWebhookApp({ WEBHOOK_RETRY_SCHEDULE: '2s,2s,2s,2s' });
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

async function endpoint() {
  const receiver = app.receiver();
  const ep = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  return { receiver, ep };
}

/** Sends one event and returns what this receiver got for it. */
async function deliverOne(receiver: WebhookReceiver): Promise<Received> {
  const n = receiver.received.length;
  await sanctionEvent(t.c);
  await receiver.waitFor(n + 1);
  return receiver.received[n];
}

function expectOneSignature(r: Received): void {
  expect(header(r, 'X-SVC-Signature')).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(header(r, 'X-SVC-Signature-Timestamped')).toMatch(/^sha256=[0-9a-f]{64}$/);
}

it('issues a new secret at once and keeps signing with the old one until the default switch, 24 h later', async () => {
  const { receiver, ep } = await endpoint();
  expect(ep.secret).toMatch(SECRET);
  const before = Date.now();
  const rotated = await t.c.services.webhooks.rotateSecret(actor, ep.id);
  expect(rotated.secret).toMatch(SECRET);
  expect(rotated.secret).not.toBe(ep.secret);
  expect(Math.abs(rotated.switchAt.getTime() - (before + 24 * 3600_000))).toBeLessThan(60_000);
  const r = await deliverOne(receiver);
  expectOneSignature(r);
  expect(signedWith(r, ep.secret)).toBe(true);
  expect(signedWith(r, rotated.secret)).toBe(false);
});

it('signs with the old secret before the switch time and with the new one after it, attempt by attempt', async () => {
  const { receiver, ep } = await endpoint();
  const switchAt = new Date(Date.now() + 1500);
  const rotated = await t.c.services.webhooks.rotateSecret(actor, ep.id, switchAt);
  expect(rotated.switchAt.toISOString()).toBe(switchAt.toISOString());
  // Attempt 1 goes out before the switch and fails; attempt 2 goes out two seconds later, after it.
  receiver.responses = [500, 200];
  const first = await deliverOne(receiver);
  expect(first.at).toBeLessThan(switchAt.getTime());
  expect(signedWith(first, ep.secret)).toBe(true);
  expect(signedWith(first, rotated.secret)).toBe(false);
  await receiver.waitFor(2, 10_000);
  const retry = receiver.received[1];
  expect(header(retry, 'X-SVC-Attempt')).toBe('2');
  expect(header(retry, 'X-SVC-Delivery')).toBe(header(first, 'X-SVC-Delivery'));
  expect(retry.at).toBeGreaterThan(switchAt.getTime());
  expectOneSignature(retry);
  expect(signedWith(retry, rotated.secret)).toBe(true);
  expect(signedWith(retry, ep.secret)).toBe(false);

  // A new event after the switch: the new secret only.
  const later = await deliverOne(receiver);
  expect(signedWith(later, rotated.secret)).toBe(true);
  expect(signedWith(later, ep.secret)).toBe(false);

  // A receiver that accepts both secrets during the overlap accepts every one of them.
  receiver.secrets = [ep.secret, rotated.secret];
  const overlap = await deliverOne(receiver);
  expect(overlap.validSignature).toBe(true);
});

it('makes a rotation that took effect the base secret of the next rotation', async () => {
  const { receiver, ep } = await endpoint();
  const second = await t.c.services.webhooks.rotateSecret(actor, ep.id, new Date(Date.now() + 300));
  await sleep(400);
  const third = await t.c.services.webhooks.rotateSecret(actor, ep.id, new Date(Date.now() + 3600_000));
  expect(new Set([ep.secret, second.secret, third.secret]).size).toBe(3);
  const r = await deliverOne(receiver);
  expect([signedWith(r, ep.secret), signedWith(r, second.secret), signedWith(r, third.secret)]).toEqual([false, true, false]);
});

it('refuses an invalid switch time and an unknown endpoint', async () => {
  const { ep } = await endpoint();
  await expect(t.c.services.webhooks.rotateSecret(actor, ep.id, new Date('soon'))).rejects.toMatchObject({ code: 'invalid_switch_at' });
  await expect(t.c.services.webhooks.rotateSecret(actor, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
});
