import type { TestApp } from '../../helpers/test-app';
import type { WebhookReceiver } from '../../helpers/webhook-receiver';
import { deliveriesOf, registerEndpoint, sanctionEvent, useWebhookApp } from '../../helpers/webhooks';

/**
 * Fairness per endpoint (docs/decisions.md#fairness): a receiver that hangs holds at most its
 * endpoint's slots (WEBHOOK_ENDPOINT_CONCURRENCY, across workers) and nobody else's. Nine healthy
 * endpoints get every delivery while the hanging one's first attempts are still waiting for their
 * time-out: no outcome of the hanging endpoint is recorded before the healthy ones are all served.
 * (A worker that waited for a whole claimed batch, as before, records the hanging attempt's
 * time-out first.)
 */

const app = useWebhookApp({ WEBHOOK_TIMEOUT_MS: '9500', WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_BATCH: '8', WEBHOOK_RETRY_SCHEDULE: '30s,30s,30s,30s' });
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

it('serves nine healthy endpoints completely while one that hangs 10 s still waits, and never sends it more than its cap at once', async () => {
  const hanging = app.receiver();
  hanging.delayMs = 10_000;
  const slow = await registerEndpoint(t.c, await hanging.start(), ['event.sanctioned']);
  const healthy: { r: WebhookReceiver; id: string }[] = [];
  for (let i = 0; i < 9; i++) {
    const r = app.receiver();
    const ep = await registerEndpoint(t.c, await r.start(), ['event.sanctioned']);
    r.secrets = [ep.secret];
    healthy.push({ r, id: ep.id });
  }
  const EVENTS = 4;
  for (let i = 0; i < EVENTS; i++) await sanctionEvent(t.c, `Fair Night ${i}`);

  await Promise.all(healthy.map(({ r }) => r.waitFor(EVENTS, 60_000)));
  // Every healthy delivery arrived, signed; the hanging endpoint's first attempts are still out.
  const slowDeliveries = await deliveriesOf(t.c, slow.id);
  expect(slowDeliveries).toHaveLength(EVENTS);
  const attempts = await t.c.services.deliveries.attempts(slowDeliveries.map((d) => d.id));
  expect(attempts).toEqual([]);
  expect(slowDeliveries.every((d) => d.status === 'sending' || d.status === 'pending')).toBe(true);
  expect(hanging.received.length).toBeLessThanOrEqual(2);
  for (const { r, id } of healthy) {
    expect(r.received.every((x) => x.validSignature)).toBe(true);
    await expectSettledSucceeded(id, EVENTS);
  }
}, 120_000);

async function expectSettledSucceeded(endpointId: string, n: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const rows = await deliveriesOf(t.c, endpointId);
    if (rows.length === n && rows.every((d) => d.status === 'succeeded')) return;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error(`endpoint ${endpointId}: not all ${n} deliveries succeeded`);
}
