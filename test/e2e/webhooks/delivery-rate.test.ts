import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { createDeliveryWorker } from '../../../src/webhooks/worker.factory';
import { admin, adminJson } from '../../helpers/cli';
import { deliveriesOf, expandAll, registerEndpoint, runWorker, sanctionEvent, seedBasics, waitSettled, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * The per-endpoint delivery rate set by the operator (docs/decisions.md#delivery-rate): at most N
 * attempts started per second over every worker, a burst of up to max(1, N) after a quiet spell;
 * deliveries held back wait pending, spending no attempt and failing nothing; other endpoints are
 * not held back. The bucket's state is in the database (`rate_refilled_at`), which the claim-level
 * test moves instead of waiting for a clock.
 */

let t: TestApp;
const receivers: WebhookReceiver[] = [];
const receiver = async () => {
  const r = new WebhookReceiver();
  receivers.push(r);
  return { r, url: await r.start() };
};
const sql = <T>(text: string, params: unknown[] = []) => t.c.orm.em.getConnection().execute<T[]>(text, params);
type Listed = { endpoints: { id: string; rate_per_second: number | null }[] };

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedBasics(t.c);
});
afterAll(async () => {
  for (const r of receivers) await r.stop();
  await t?.close();
});

describe('webhooks:set-rate', () => {
  it('sets and clears the rate, shown by webhooks:list, and documents itself in --help', async () => {
    const { url } = await receiver();
    const ep = await registerEndpoint(t.c, url, ['event.sanctioned']);
    const set = await adminJson<{ endpoint: { id: string; rate_per_second: number } }>(t.c, 'webhooks:set-rate', ep.id, '--per-second', '2.5');
    expect(set.endpoint).toMatchObject({ id: ep.id, rate_per_second: 2.5 });
    const listed = await adminJson<Listed>(t.c, 'webhooks:list');
    expect(listed.endpoints.find((e) => e.id === ep.id)?.rate_per_second).toBe(2.5);
    const text = await admin(t.c, 'webhooks:list');
    expect(text.stdout.split('\n')[0]).toContain('rate_per_second');
    expect(text.stdout.split('\n').find((l) => l.startsWith(ep.id))).toMatch(/\s2\.5\s/);

    await adminJson(t.c, 'webhooks:set-rate', ep.id, '--per-second', 'none');
    expect((await adminJson<Listed>(t.c, 'webhooks:list')).endpoints.find((e) => e.id === ep.id)?.rate_per_second).toBeNull();

    const help = await admin(t.c, 'webhooks:set-rate', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--per-second <N>');
    expect(help.stdout).toContain('from 0.01 to 1000');
    expect(help.stdout).toContain('none');
    expect(help.stdout).toContain('webhooks:set-rate 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d --per-second 5');
    await t.c.services.webhooks.setEnabled({ id: 'test' }, ep.id, false, 'test over');
  });

  it('rejects bad values with a clear message and changes nothing', async () => {
    const { url } = await receiver();
    const ep = await registerEndpoint(t.c, url, ['event.sanctioned']);
    await adminJson(t.c, 'webhooks:set-rate', ep.id, '--per-second', '7');
    for (const bad of ['0', '-1', '0.001', '1001', 'fast', '1e3', '5/s', '']) {
      const out = await admin(t.c, 'webhooks:set-rate', ep.id, '--per-second', bad);
      if (bad === '') {
        expect(out).toMatchObject({ code: 2, stderr: expect.stringContaining('--per-second is required') });
      } else {
        expect(out).toMatchObject({
          code: 1,
          stderr: 'error: invalid_rate: the rate must be a number of deliveries per second from 0.01 to 1000, or none for no limit\n',
        });
      }
    }
    expect(await admin(t.c, 'webhooks:set-rate', ep.id)).toMatchObject({ code: 2, stderr: expect.stringContaining('--per-second is required') });
    expect(await admin(t.c, 'webhooks:set-rate', '--per-second', '5')).toMatchObject({ code: 2, stderr: expect.stringContaining('expected ID') });
    expect(await admin(t.c, 'webhooks:set-rate', 'not-an-id', '--per-second', '5')).toMatchObject({ code: 1, stderr: expect.stringContaining('invalid_id') });
    expect(await admin(t.c, 'webhooks:set-rate', '3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', '--per-second', '5')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('not_found'),
    });
    expect((await adminJson<Listed>(t.c, 'webhooks:list')).endpoints.find((e) => e.id === ep.id)?.rate_per_second).toBe(7);
    await t.c.services.webhooks.setEnabled({ id: 'test' }, ep.id, false, 'test over');
  });
});

describe('the delivery worker', () => {
  it('claims at most the room in the bucket of a rated endpoint, holds the rest back without spending attempts, and serves other endpoints fully', async () => {
    const rated = await receiver();
    const free = await receiver();
    const a = await registerEndpoint(t.c, rated.url, ['event.sanctioned']);
    const b = await registerEndpoint(t.c, free.url, ['event.sanctioned']);
    await adminJson(t.c, 'webhooks:set-rate', a.id, '--per-second', '3');
    for (let i = 0; i < 10; i++) await sanctionEvent(t.c, `Paced Night ${i}`);
    await expandAll(t.c);

    // Not started: its claims run only when the test ticks it.
    const w = await createDeliveryWorker(t.c, t.db);
    try {
      // A full bucket: 3 at once for the rated endpoint, all 10 for the other one.
      expect(await w.worker.tick()).toBe(13);
      await w.worker.drain();
      expect(rated.r.received).toHaveLength(3);
      expect(free.r.received).toHaveLength(10);
      const held = (await deliveriesOf(t.c, a.id)).filter((d) => d.status === 'pending');
      expect(held).toHaveLength(7);
      // Held back: no attempt spent, nothing in the log, and the endpoint is healthy.
      expect(held.every((d) => d.attempt === 0)).toBe(true);
      expect(await t.c.services.deliveries.attempts(held.map((d) => d.id))).toEqual([]);
      const [state] = await sql<{ failing_since: Date | null; enabled: boolean; ahead_ms: number }>(
        `select failing_since, enabled, extract(epoch from rate_refilled_at - now()) * 1000 as ahead_ms from webhook_endpoint where id = ?`,
        [a.id],
      );
      expect(state).toMatchObject({ failing_since: null, enabled: true });
      // Three deliveries at 3 a second: the bucket is full again at most a second after the claim.
      expect(Number(state.ahead_ms)).toBeLessThanOrEqual(1000);

      // An empty bucket (as right after a burst): nothing for the rated endpoint.
      await sql(`update webhook_endpoint set rate_refilled_at = now() + interval '1 hour' where id = ?`, [a.id]);
      expect(await w.worker.tick()).toBe(0);
      expect((await deliveriesOf(t.c, a.id)).filter((d) => d.status === 'pending')).toHaveLength(7);

      // After a quiet hour the bucket holds max(1, floor(3)) = 3, not an hour's worth.
      await sql(`update webhook_endpoint set rate_refilled_at = now() - interval '1 hour' where id = ?`, [a.id]);
      expect(await w.worker.tick()).toBe(3);
      await w.worker.drain();
      expect(rated.r.received).toHaveLength(6);

      // Cleared: no limit any more, the rest go at once.
      await adminJson(t.c, 'webhooks:set-rate', a.id, '--per-second', 'none');
      await sql(`update webhook_endpoint set rate_refilled_at = now() + interval '1 hour' where id = ?`, [a.id]);
      expect(await w.worker.tick()).toBe(4);
      await w.worker.drain();
      const settled = await waitSettled(t.c, a.id, 10);
      expect(settled.every((d) => d.status === 'succeeded' && d.attempt === 1)).toBe(true);
      expect(rated.r.received.every((x) => x.headers['x-svc-attempt'] === '1')).toBe(true);
    } finally {
      await w.close();
      for (const id of [a.id, b.id]) await t.c.services.webhooks.setEnabled({ id: 'test' }, id, false, 'test over');
    }
  });

  it('keeps two workers together under the rate: at most rate + burst attempts in any second, every delivery once', async () => {
    const rated = await receiver();
    const free = await receiver();
    const a = await registerEndpoint(t.c, rated.url, ['event.sanctioned']);
    const b = await registerEndpoint(t.c, free.url, ['event.sanctioned']);
    rated.r.secrets = [a.secret];
    await adminJson(t.c, 'webhooks:set-rate', a.id, '--per-second', '5');
    const N = 25;
    await t.c.orm.em.fork().transactional(async (em) => {
      for (let i = 0; i < N; i++) {
        const e = await t.c.services.events.create({ id: 'test' }, { name: `Rated Race ${i}`, countrySlug: 'germany', date: '2026-07-01' }, em);
        await t.c.services.events.sanction({ id: 'test' }, e.code, em);
      }
    });
    const workers = [await runWorker(t.c, t.db), await runWorker(t.c, t.db)];
    try {
      await free.r.waitFor(N, 30_000);
      await rated.r.waitFor(N, 30_000);
    } finally {
      for (const w of workers) await w.close();
    }
    const settled = await waitSettled(t.c, a.id, N);
    expect(settled.every((d) => d.status === 'succeeded' && d.attempt === 1)).toBe(true);
    expect(new Set(rated.r.received.map((x) => x.headers['x-svc-delivery'])).size).toBe(N);
    expect(rated.r.received.every((x) => x.validSignature)).toBe(true);

    // GCRA at 5/s with a burst of 5: at most 5 + 5 claims in any closed second; 2 more allowed
    // for the spread between a claim and its request reaching the receiver. Unlimited, all 25
    // arrive within one second.
    const times = rated.r.received.map((x) => x.at).sort((x, y) => x - y);
    const busiest = Math.max(...times.map((from) => times.filter((at) => at >= from && at <= from + 1000).length));
    expect(busiest).toBeLessThanOrEqual(12);
    // And the 25 took at least (25 - 5) / 5 = 4 s from the first claim to the last, less 0.5 s
    // for the first request's own way to the receiver.
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(3500);
    // The other endpoint was not held back: its last delivery arrived before the rated one's.
    expect(Math.max(...free.r.received.map((x) => x.at))).toBeLessThan(times[times.length - 1]);
    for (const id of [a.id, b.id]) await t.c.services.webhooks.setEnabled({ id: 'test' }, id, false, 'test over');
  }, 60_000);
});
