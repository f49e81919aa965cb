import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, deliveriesOf, header, registerEndpoint, runWorker, sanctionEvent, seedBasics, sleep, waitSettled, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * Bulk recovery (docs/decisions.md#gone): re-sends every failed delivery of an endpoint created between two times,
 * and nothing else (not the ones outside the window, not the succeeded ones, not another
 * endpoint's).
 */

let t: TestApp;
let worker: Awaited<ReturnType<typeof runWorker>>;
const receiver = new WebhookReceiver();
const bystander = new WebhookReceiver();
let endpoint: { id: string; secret: string };
let otherEndpoint: { id: string; secret: string };

beforeAll(async () => {
  t = await startTestApp({ env: { ...WEBHOOK_ENV, WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms,50ms' } });
  await seedBasics(t.c);
  endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  otherEndpoint = await registerEndpoint(t.c, await bystander.start(), ['event.sanctioned']);
  receiver.secrets = [endpoint.secret];
  bystander.secrets = [otherEndpoint.secret];
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await bystander.stop();
  await t?.close();
});

const nameOf = (data: Record<string, unknown>) => data.name as string;

it('re-sends the failed deliveries created within [since, until) only', async () => {
  // "OK ..." events succeed; every other one fails all five attempts (the bystander always fails).
  let recovering = false;
  receiver.reply = (r) => ({ status: recovering || nameOf(r.json.data).startsWith('OK') ? 200 : 500 });
  bystander.responses = [500];
  await sanctionEvent(t.c, 'Before 1');
  await sleep(30);
  await sanctionEvent(t.c, 'Inside 1');
  await sanctionEvent(t.c, 'OK Inside');
  await sanctionEvent(t.c, 'Inside 2');
  await sleep(30);
  await sanctionEvent(t.c, 'After 1');
  const rows = await waitSettled(t.c, endpoint.id, 5);
  await waitSettled(t.c, otherEndpoint.id, 5);
  const byName = new Map<string, (typeof rows)[number]>();
  for (const d of rows) {
    const r = receiver.received.find((x) => header(x, 'X-SVC-Delivery') === d.id)!;
    byName.set(nameOf(r.json.data), d);
  }
  expect([...byName].map(([name, d]) => [name, d.status, d.attempt]).sort()).toEqual([
    ['After 1', 'failed', 5],
    ['Before 1', 'failed', 5],
    ['Inside 1', 'failed', 5],
    ['Inside 2', 'failed', 5],
    ['OK Inside', 'succeeded', 1],
  ]);

  recovering = true;
  const sentBefore = receiver.received.length;
  const bystanderBefore = bystander.received.length;
  const since = byName.get('Inside 1')!.created_at;
  const until = byName.get('After 1')!.created_at;
  const recovered = await t.c.services.deliveries.recover(actor, { endpointId: endpoint.id, since, until });
  expect(recovered.map((d) => d.replay_of).sort()).toEqual([byName.get('Inside 1')!.id, byName.get('Inside 2')!.id].sort());
  expect(recovered.every((d) => d.status === 'pending' && d.attempt === 0 && d.endpoint_id === endpoint.id)).toBe(true);

  await receiver.waitFor(sentBefore + 2);
  await sleep(500);
  const resent = receiver.received.slice(sentBefore);
  expect(resent.map((r) => nameOf(r.json.data)).sort()).toEqual(['Inside 1', 'Inside 2']);
  for (const r of resent) {
    const original = byName.get(nameOf(r.json.data))!;
    const firstTime = receiver.received.find((x) => header(x, 'X-SVC-Delivery') === original.id)!;
    expect(header(r, 'X-SVC-Attempt')).toBe('1');
    expect(header(r, 'X-SVC-Replay-Of')).toBe(original.id);
    expect(header(r, 'X-SVC-Delivery')).not.toBe(original.id);
    expect(r.json.id).toBe(firstTime.json.id);
    expect(r.validSignature).toBe(true);
  }
  // Another endpoint's failed deliveries are not touched.
  expect(bystander.received).toHaveLength(bystanderBefore);
  const all = await waitSettled(t.c, endpoint.id, 7);
  expect(all.filter((d) => d.replay_of).every((d) => d.status === 'succeeded')).toBe(true);
});

it('without until, recovers every failed delivery since the time given', async () => {
  const rows = await deliveriesOf(t.c, endpoint.id);
  const after = rows.find(
    (d) => d.status === 'failed' && d.created_at.getTime() === Math.max(...rows.filter((x) => !x.replay_of).map((x) => x.created_at.getTime())),
  )!;
  const sentBefore = receiver.received.length;
  const recovered = await t.c.services.deliveries.recover(actor, { endpointId: endpoint.id, since: after.created_at });
  // Only "After 1": the earlier recoveries succeeded, so they are not failed.
  expect(recovered.map((d) => d.replay_of)).toEqual([after.id]);
  await receiver.waitFor(sentBefore + 1);
  await sleep(300);
  expect(receiver.received.slice(sentBefore).map((r) => nameOf(r.json.data))).toEqual(['After 1']);
});

it('recovers nothing from an empty window, and refuses bad input', async () => {
  const future = new Date(Date.now() + 3600_000);
  expect(await t.c.services.deliveries.recover(actor, { endpointId: endpoint.id, since: future })).toEqual([]);
  await expect(t.c.services.deliveries.recover(actor, { endpointId: endpoint.id, since: new Date('nope') })).rejects.toMatchObject({ code: 'invalid_since' });
  await expect(t.c.services.deliveries.recover(actor, { endpointId: '00000000-0000-4000-8000-000000000000', since: new Date(0) })).rejects.toMatchObject({
    code: 'not_found',
  });
});
