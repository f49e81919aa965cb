import { preparedStatement } from '../../../src/db/prepared-statement';
import { QUEUE_PLANNER } from '../../../src/webhooks/delivery.worker';
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

it('records outcomes through the primary key, not a scan of the whole table, once the log holds 5,000 deliveries', async () => {
  // The delivery log keeps every finished delivery: the record statement's generic plan must
  // find a group's rows by id. It once joined the outcomes (estimated at 100 rows) by hash over a
  // sequential scan of webhook_delivery, 3 to 9 ms a statement at 20,000 rows in the bench, growing with
  // the log (docs/adr/0015-webhook-fan-out.md).
  const connection = t.c.orm.em.getConnection();
  const [endpoint] = await connection.execute<{ id: string }[]>(`select id from webhook_endpoint where enabled limit 1`);
  await connection.execute(
    `insert into webhook_event (id, type, payload, created_at) select 'plan-' || g, 'event.sanctioned', '{}', now() from generate_series(1, 5000) g`,
  );
  await connection.execute(
    `insert into webhook_delivery (id, event_id, endpoint_id, status, attempt, next_attempt_at, created_at, completed_at)
     select gen_random_uuid(), 'plan-' || g, ?, 'succeeded', 1, now(), now(), now() from generate_series(1, 5000) g`,
    [endpoint.id],
  );
  await connection.execute(`analyze webhook_delivery`);
  const [record] = await connection.execute<{ name: string }[]>(
    `select name from pg_prepared_statements where statement like '%insert into webhook_attempt%' and statement like '%skip locked%'`,
  );
  expect(record).toBeDefined();
  await connection.execute(`select set_config('plan_cache_mode', 'force_generic_plan', false)`);
  try {
    const plan = await connection.execute<{ 'QUERY PLAN': string }[]>(`explain execute ${record.name}(false, '[]', gen_random_uuid(), 32, 10, 10, 60000)`);
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Update on webhook_delivery d\b/);
    expect(text).not.toMatch(/Seq Scan on webhook_delivery/);
  } finally {
    await connection.execute(`select set_config('plan_cache_mode', 'auto', false)`);
  }
});

it('prepares a statement again on the real database when its plan is old, and keeps answering', async () => {
  let clock = 0;
  const run = preparedStatement<{ n: number }>('select ?::int + 1 as n', { replanAfterMs: 1000, now: () => clock });
  const connection = t.c.orm.em.getConnection();
  const prepared = () => connection.execute<{ name: string }[]>(`select name from pg_prepared_statements where statement like '% as select $1::int + 1 as n'`);
  expect(await run(connection, [1])).toEqual([{ n: 2 }]);
  const [first] = await prepared();
  expect(first).toBeDefined();
  clock += 1000;
  // Deallocated and prepared again under the same name (pg parses it anew): one statement, still answering.
  expect(await run(connection, [2])).toEqual([{ n: 3 }]);
  expect(await prepared()).toEqual([first]);
  clock += 1000;
  expect(await run(connection, [3])).toEqual([{ n: 4 }]);
});

it('passes its parameters to the database as they are', async () => {
  const run = preparedStatement<{ v: string | null; n: number; b: boolean }>('select ?::text as v, ?::int as n, ?::boolean as b');
  const connection = t.c.orm.em.getConnection();
  for (const v of [`it's`, 'a\\b', `\\'; select 1; --`, 'é ✓ 💥', 'line\nbreak\ttab', '', null]) {
    expect(await run(connection, [v, -3, true])).toEqual([{ v, n: -3, b: true }]);
  }
});

it("sets a statement's planner settings for its own execution only", async () => {
  const run = preparedStatement<{ v: string; n: number }>(`select current_setting('enable_bitmapscan') as v, ?::int as n`, { planner: QUEUE_PLANNER });
  const connection = t.c.orm.em.getConnection();
  expect(await run(connection, [1])).toEqual([{ v: 'off', n: 1 }]);
  // LOCAL to the execution's own transaction: the session (every connection's, on the embedded database) keeps its setting.
  expect(await connection.execute(`select current_setting('enable_bitmapscan') as v`)).toEqual([{ v: 'on' }]);
  expect(await run(connection, [2])).toEqual([{ v: 'off', n: 2 }]);
});
