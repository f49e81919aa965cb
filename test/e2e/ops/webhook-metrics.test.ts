import type { TestApp } from '../../helpers/test-app';
import { registerEndpoint, sanctionEvent, useWebhookApp, waitSettled } from '../../helpers/webhooks';

/** The delivery worker counts its attempts by outcome and times them; the outbox depth is read on scrape. */

const app = useWebhookApp({ WEBHOOK_RETRY_SCHEDULE: '100ms' });
let t: TestApp;
beforeAll(() => {
  t = app.t;
});

/** The value of a series with exactly these labels in an exposition text (0 when absent). */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

it('counts a success, a retry and a failure, and the outbox is empty once they settle', async () => {
  const before = await t.c.metrics.render();
  const ok = app.receiver();
  ok.responses = [200];
  const failing = app.receiver();
  failing.responses = [500, 500];
  const good = await registerEndpoint(t.c, await ok.start(), ['event.sanctioned']);
  const bad = await registerEndpoint(t.c, await failing.start(), ['event.sanctioned']);
  await sanctionEvent(t.c);
  await waitSettled(t.c, good.id, 1);
  await waitSettled(t.c, bad.id, 1);

  const after = await t.c.metrics.render();
  const delta = (series: string) => value(after, series) - value(before, series);
  expect(delta('webhook_attempts_total{outcome="succeeded"}')).toBe(1);
  expect(delta('webhook_attempts_total{outcome="retry"}')).toBe(1);
  expect(delta('webhook_attempts_total{outcome="failed"}')).toBe(1);
  expect(delta('webhook_attempt_duration_seconds_count{outcome="succeeded"}')).toBe(1);
  expect(value(after, 'webhook_outbox_deliveries{state="pending"}')).toBe(0);
  expect(value(after, 'webhook_outbox_deliveries{state="sending"}')).toBe(0);
});
