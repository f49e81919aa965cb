import { adminJson, adminProcess } from '../../helpers/cli';
import { expandAll } from '../../helpers/webhooks';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, testClock, type World } from '../../helpers/world';

/**
 * `results:verify` with a subscriber builds the result.verified payload inside the verifying
 * transaction, whose one pg client must never be given a second query while one runs (pg warns
 * "Calling client.query() when the client is already executing a query", and pg 9 will refuse).
 */

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: { WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_PRIVATE: '1' } });
  world = await buildWorld(t.c);
});
afterAll(() => t?.close());

test('the real binary verifies a result with no pg deprecation warning', async () => {
  await adminJson(t.c, 'webhooks:register', '--partner', 'acme-media', '--url', 'http://127.0.0.1:9/hook', '--events', 'result.verified');
  const recorded = await adminJson(
    t.c,
    'results:record',
    '--event',
    world.events.world,
    '--winner',
    world.slugs.chiaki,
    '--loser',
    world.slugs.bela,
    '--method',
    'KO',
    '--round',
    '1',
  );
  const out = await adminProcess(t.db.url, ['results:verify', recorded.result.id, '--json']);
  expect(out.stderr).not.toMatch(/DeprecationWarning|already executing a query/);
  expect(out.code).toBe(0);
  expect(JSON.parse(out.stdout)).toMatchObject({ id: recorded.result.id });
  await expandAll(t.c); // payloads are built after the commit, by the workers' fan-out
  const [delivery] = await t.c.orm.em
    .getConnection()
    .execute(`select ev.payload from webhook_delivery d join webhook_event ev on ev.id = d.event_id where ev.type = 'result.verified'`);
  expect(JSON.parse(delivery.payload).data).toBeDefined();
}, 60_000);
