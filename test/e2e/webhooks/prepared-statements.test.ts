import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { registerEndpoint, runWorker, sanctionEvent, seedBasics, waitSettled, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * The worker's claim and record statements are prepared on the connection (docs/adr/0015-webhook-fan-out.md):
 * PostgreSQL parses and plans them once per connection, not once per execution. A pool of one
 * connection, so this test's own query sees the worker's session (on the embedded database every
 * connection shares one session anyway).
 */

let t: TestApp;
let worker: Awaited<ReturnType<typeof runWorker>>;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  t = await startTestApp({ env: { ...WEBHOOK_ENV, DB_POOL_MAX: '1' } });
  await seedBasics(t.c);
});
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await t?.close();
});

it('claims and records deliveries with prepared statements, executed again without a new statement', async () => {
  const endpoint = await registerEndpoint(t.c, await receiver.start(), ['event.sanctioned']);
  receiver.secrets = [endpoint.secret];
  worker = await runWorker(t.c, t.db);
  for (let i = 0; i < 3; i++) {
    await sanctionEvent(t.c);
    await waitSettled(t.c, endpoint.id, i + 1);
  }
  const prepared = await t.c.orm.em
    .getConnection()
    .execute<{ statement: string; runs: number }[]>(`select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements`);
  const claims = prepared.filter((p) => p.statement.includes('webhook_delivery') && p.statement.includes('skip locked'));
  expect(claims.length).toBeGreaterThan(0);
  // Three events one after the other: the same prepared statements ran more than once.
  expect(claims.reduce((sum, p) => sum + p.runs, 0)).toBeGreaterThan(claims.length);
  expect(receiver.received).toHaveLength(3);
});
