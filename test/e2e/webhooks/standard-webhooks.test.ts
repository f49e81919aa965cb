import { Webhook } from 'standardwebhooks';
import type { TestApp } from '../../helpers/test-app';
import { standardVerified } from '../../helpers/webhook-receiver';
import { actor, header, registerEndpoint, sanctionEvent, useWebhookApp } from '../../helpers/webhooks';

/**
 * The Standard Webhooks headers (docs/webhooks.md#standard-webhooks) beside the X-SVC ones: the
 * `standardwebhooks` npm library, given the secret exactly as the operator printed it, verifies
 * real deliveries; during a rotation both secrets sign `webhook-signature`.
 */

const app = useWebhookApp();
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

it('sends webhook-id (the payload id), webhook-timestamp and a webhook-signature the library verifies with the printed secret', async () => {
  const receiver = app.receiver();
  const ep = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [ep.secret];
  expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
  await sanctionEvent(t.c, 'Standard Night');
  await receiver.waitFor(1);
  const [r] = receiver.received;
  expect(header(r, 'webhook-id')).toBe(r.json.id);
  expect(header(r, 'webhook-timestamp')).toBe(header(r, 'X-SVC-Timestamp'));
  expect(header(r, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  // What a receiver using the library does, with the secret as printed.
  const verified = new Webhook(ep.secret).verify(r.body, r.headers as Record<string, string>) as { id: string; data: { name: string } };
  expect(verified.id).toBe(r.json.id);
  expect(verified.data.name).toBe('Standard Night');
  expect(r.validStandardSignature).toBe(true);
  expect(r.validSignature).toBe(true);
  // Another secret, or a changed body, is refused.
  const other = await registerEndpoint(t.c, 'http://127.0.0.1:9/unused', ['licence.issued']);
  expect(standardVerified(other.secret, r.body, r.headers)).toBe(false);
  expect(standardVerified(ep.secret, r.body.replace('Standard Night', 'Standard Nite'), r.headers)).toBe(false);
});

it('signs with both secrets while a rotation waits for its switch, so a receiver holding either verifies', async () => {
  const receiver = app.receiver();
  const ep = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  const rotated = await t.c.services.webhooks.rotateSecret(actor, ep.id, new Date(Date.now() + 3600_000));
  receiver.secrets = [ep.secret];
  await sanctionEvent(t.c);
  await receiver.waitFor(1);
  const [r] = receiver.received;
  expect(header(r, 'webhook-signature')!.split(' ')).toHaveLength(2);
  expect(standardVerified(ep.secret, r.body, r.headers)).toBe(true);
  expect(standardVerified(rotated.secret, r.body, r.headers)).toBe(true);
  // The X-SVC signature keeps one value, the old secret's, until the switch.
  expect(r.validSignature).toBe(true);
});

it('verifies deliveries to an endpoint registered before secrets avoided `-` and `_`, once the secret is read as base64url', async () => {
  const receiver = app.receiver();
  const ep = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  const legacy = `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`;
  expect(legacy).toMatch(/[-_]/);
  await t.c.orm.em.getConnection().execute('update webhook_endpoint set secret = ? where id = ?', [legacy, ep.id]);
  await sanctionEvent(t.c);
  await receiver.waitFor(1);
  const [r] = receiver.received;
  const standard = `whsec_${legacy.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/')}`;
  expect(standardVerified(standard, r.body, r.headers)).toBe(true);
});
