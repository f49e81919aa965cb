import type { TestApp } from '../../helpers/test-app';
import { disableFailingEndpoints, endpointState } from '../../../src/webhooks/endpoint-health';
import { actor, deliveriesOf, registerEndpoint, sanctionEvent, sleep, useWebhookApp, waitSettled } from '../../helpers/webhooks';
import { adminJson } from '../../helpers/cli';

/**
 * Endpoint health like Svix (docs/decisions.md#endpoint-health): an endpoint whose every delivery
 * has failed (out of attempts) for 5 days is disabled with a reason; the operator sees failing and
 * disabled endpoints in webhooks:list, /metrics counts them, and re-enabling resumes deliveries.
 * The 5 days are read on a clock given to the check (the worker passes the service's clock).
 */

const app = useWebhookApp();
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

const DAY = 24 * 3600_000;
const metric = (text: string, state: string) => Number(new RegExp(`^webhook_endpoints\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
const endpointById = async (id: string) => (await t.c.services.webhooks.list()).find((e) => e.id === id)!;

it('marks an endpoint failing when its deliveries run out of attempts, disables it 5 days later, and resumes once re-enabled', async () => {
  const down = app.receiver();
  down.responses = [500];
  const up = app.receiver();
  const bad = await registerEndpoint(t.c, await down.start(), ['event.sanctioned']);
  const good = await registerEndpoint(t.c, await up.start(), ['event.sanctioned']);
  await sanctionEvent(t.c, 'Down Night');
  await waitSettled(t.c, bad.id, 1);
  await waitSettled(t.c, good.id, 1);
  expect((await deliveriesOf(t.c, bad.id))[0]).toMatchObject({ status: 'failed', attempt: 5 });

  const failing = await endpointById(bad.id);
  expect(failing.failingSince).toBeInstanceOf(Date);
  expect(endpointState(failing)).toBe('failing');
  expect(endpointState(await endpointById(good.id))).toBe('healthy');
  const listed = await adminJson<{ endpoints: { id: string; state: string; failing_since: string }[] }>(t.c, 'webhooks:list', '--state', 'failing');
  expect(listed.endpoints.map((e) => [e.id, e.state])).toEqual([[bad.id, 'failing']]);
  const metricsBefore = await t.c.metrics.render();
  expect(metric(metricsBefore, 'failing')).toBe(1);

  // Four days on, nothing happens; five days and a minute on, the failing endpoint is disabled.
  const since = failing.failingSince!.getTime();
  expect(await disableFailingEndpoints(t.c.orm.em.getConnection(), new Date(since + 4 * DAY))).toEqual([]);
  expect(await disableFailingEndpoints(t.c.orm.em.getConnection(), new Date(since + 5 * DAY + 60_000))).toEqual([bad.id]);
  const disabled = await endpointById(bad.id);
  expect(disabled.enabled).toBe(false);
  expect(disabled.disabledReason).toMatch(/^every delivery failed since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(5 days\)/);
  expect(endpointState(disabled)).toBe('disabled');
  expect(endpointState(await endpointById(good.id))).toBe('healthy');
  const metricsAfter = await t.c.metrics.render();
  expect(metric(metricsAfter, 'failing')).toBe(0);
  expect(metric(metricsAfter, 'disabled')).toBe(metric(metricsBefore, 'disabled') + 1);
  const shown = await adminJson<{ endpoints: { id: string; disabled_reason: string }[] }>(t.c, 'webhooks:list', '--state', 'disabled');
  expect(shown.endpoints.find((e) => e.id === bad.id)?.disabled_reason).toBe(disabled.disabledReason);

  // Disabled: a new event is not sent to it.
  await sanctionEvent(t.c, 'While Disabled');
  await waitSettled(t.c, good.id, 2);
  await sleep(300);
  expect(down.received).toHaveLength(5);

  // Re-enabled (the receiver fixed): healthy again, and new events are delivered.
  down.responses = [200];
  await t.c.services.webhooks.setEnabled(actor, bad.id, true, null);
  const again = await endpointById(bad.id);
  expect([again.enabled, again.failingSince, again.disabledReason, endpointState(again)]).toEqual([true, null, null, 'healthy']);
  await sanctionEvent(t.c, 'Back Night');
  await down.waitFor(6);
  await waitSettled(t.c, bad.id, 2);
  expect((await deliveriesOf(t.c, bad.id)).map((d) => d.status).sort()).toEqual(['failed', 'succeeded']);
});

it('clears failing_since at the first success', async () => {
  const flaky = app.receiver();
  flaky.responses = [500, 500, 500, 500, 500, 200];
  const ep = await registerEndpoint(t.c, await flaky.start(), ['event.sanctioned']);
  await sanctionEvent(t.c);
  await waitSettled(t.c, ep.id, 1);
  expect(endpointState(await endpointById(ep.id))).toBe('failing');
  await sanctionEvent(t.c);
  await waitSettled(t.c, ep.id, 2);
  expect(endpointState(await endpointById(ep.id))).toBe('healthy');
});
