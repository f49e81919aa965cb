import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, deliveriesOf, registerEndpoint, runWorker, sanctionEvent, seedBasics, sleep, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * Events are written in the transaction of the change that causes them (docs/decisions.md#outbox): a change that
 * rolls back sends nothing, one that commits is sent; an endpoint gets the events that happen
 * while it is registered and enabled, not earlier ones.
 */

let t: TestApp;
let worker: Awaited<ReturnType<typeof runWorker>>;
const receiver = new WebhookReceiver();
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedBasics(t.c);
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await t?.close();
});

const names = () => receiver.received.map((r) => (r.json.data as { name: string }).name);
const count = async (table: string) => (await t.c.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from ${table}`))[0].n;

it('does not send events that happened before the endpoint was registered', async () => {
  await sanctionEvent(t.c, 'Too Early');
  endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [endpoint.secret];
  await sanctionEvent(t.c, 'Just In Time');
  await receiver.waitFor(1);
  await sleep(300);
  expect(names()).toEqual(['Just In Time']);
});

it('sends nothing for a change that rolls back, and sends the same change once committed', async () => {
  const events = await count('webhook_event');
  const deliveries = await count('webhook_delivery');
  const created = await t.c.services.events.create(actor, { name: 'Rolled Back', countrySlug: 'germany', date: '2026-07-01' });
  await expect(
    t.c.orm.em.fork().transactional(async (em) => {
      await t.c.services.events.sanction(actor, created.code, em);
      throw new Error("the operator's command failed after the change");
    }),
  ).rejects.toThrow('failed after the change');
  expect(await count('webhook_event')).toBe(events);
  expect(await count('webhook_delivery')).toBe(deliveries);

  // The same change, committed this time.
  await t.c.services.events.sanction(actor, created.code);
  await receiver.waitFor(2);
  await sleep(300);
  expect(names()).toEqual(['Just In Time', 'Rolled Back']);
  expect(await count('webhook_event')).toBe(events + 1);
});

it('writes nothing for a disabled endpoint, and resumes for new events once it is enabled again', async () => {
  await t.c.services.webhooks.setEnabled(actor, endpoint.id, false, 'maintenance');
  await sanctionEvent(t.c, 'While Disabled');
  await sleep(400);
  expect(names()).not.toContain('While Disabled');
  expect(await deliveriesOf(t.c, endpoint.id)).toHaveLength(2);
  await t.c.services.webhooks.setEnabled(actor, endpoint.id, true, null);
  await sanctionEvent(t.c, 'Enabled Again');
  await receiver.waitFor(3);
  await sleep(300);
  expect(names()).toEqual(['Just In Time', 'Rolled Back', 'Enabled Again']);
});
