import { addDays, addYears } from '../../../src/domain/clock';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver } from '../../helpers/webhook-receiver';
import { actor, deliveriesOf, registerEndpoint, runWorker, sleep, waitExpanded, waitUntil, WEBHOOK_ENV } from '../../helpers/webhooks';
import { buildWorld, TODAY, testClock, type World } from '../../helpers/world';

/** Nothing about a minor is ever sent (docs/decisions.md#minors, docs/decisions.md#payloads); the adult side of a minor's bout is. */

let t: TestApp;
let world: World;
let worker: Awaited<ReturnType<typeof runWorker>>;
const receiver = new WebhookReceiver();
let endpoint: { id: string; secret: string };
const secretsOfMinors: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: WEBHOOK_ENV });
  world = await buildWorld(t.c);
  endpoint = await registerEndpoint(t.c, await receiver.start(), [
    'ranking.published',
    'result.verified',
    'licence.suspended',
    'licence.issued',
    'event.sanctioned',
  ]);
  receiver.secrets = [endpoint.secret];
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await receiver.stop();
  await t?.close();
});

async function slugOf(name: string): Promise<string> {
  const [row] = await t.c.orm.em.getConnection().execute<{ slug: string }[]>(`select slug from fighter where name = ?`, [name]);
  return row.slug;
}

it("sends nothing when a minor's licence is issued, renewed or suspended", async () => {
  const minor = world.slugs.minor;
  const renewed = await t.c.services.fighters.issueLicence(actor, minor, { issuedOn: TODAY, validUntil: addDays(addYears(TODAY, 1), -1) });
  const newcomer = await t.c.services.fighters.register(actor, {
    name: 'Lea Klein',
    countrySlug: 'germany',
    divisionId: 'mma-am-f-57kg',
    dateOfBirth: addYears(TODAY, -15),
    email: 'lea@fighters.example',
    phone: '+00 2',
    address: 'x',
  });
  const first = await t.c.services.fighters.issueLicence(actor, newcomer.slug);
  await t.c.services.fighters.suspendLicence(actor, newcomer.slug);
  secretsOfMinors.push(
    minor,
    newcomer.slug,
    renewed.licence.licenceNo,
    first.licence.licenceNo,
    first.fighter.fighterCode!,
    renewed.fighter.fighterCode!,
    world.numbers.minorLicence,
  );

  // An adult's licence right after: it arrives, so the minors' events had every chance to.
  await t.c.services.fighters.issueLicence(actor, world.slugs.bela, { issuedOn: TODAY, validUntil: addYears(TODAY, 1) });
  await receiver.waitFor(1);
  await sleep(500);
  expect(receiver.received.map((r) => [r.json.event, (r.json.data.fighter as { slug: string }).slug])).toEqual([['licence.issued', world.slugs.bela]]);
  expect(await deliveriesOf(t.c, endpoint.id)).toHaveLength(1);
});

it("sends the adult side of a minor's bout, and never the minor's", async () => {
  const olga = await slugOf('Olga Adult');
  const before = receiver.received.length;
  const won = await t.c.services.results.record(actor, {
    eventCode: world.events.minorBout,
    winnerSlug: world.slugs.minor,
    loserSlug: olga,
    method: 'SD',
    round: 3,
  });
  await t.c.services.results.verify(actor, won.id);
  await receiver.waitFor(before + 1);
  await sleep(500);
  expect(receiver.received).toHaveLength(before + 1);
  const r = receiver.received[before];
  expect(r.json.event).toBe('result.verified');
  expect(r.validSignature).toBe(true);
  expect(r.json.data).toMatchObject({
    fighter: { slug: olga, name: 'Olga Adult' },
    opponent: '(withheld)',
    result: 'L',
    method: 'SD',
    event: { code: world.events.minorBout },
  });
  expect(r.body).not.toContain('Mia Jung');
});

it('never names a minor in a ranking.published, and no stored event mentions one', async () => {
  const before = receiver.received.length;
  await t.c.services.rankings.publish(actor, addDays(TODAY, 1));
  await waitExpanded(t.c);
  await waitUntil('the ranking deliveries to settle', async () => {
    const rows = await deliveriesOf(t.c, endpoint.id);
    return rows.length > 0 && rows.every((d) => d.status === 'succeeded') && receiver.received.length === rows.length ? rows : null;
  });
  const published = receiver.received.slice(before);
  expect(published.length).toBeGreaterThan(0); // Olga lost: her points changed
  expect(published.every((r) => r.json.event === 'ranking.published')).toBe(true);

  for (const r of receiver.received) for (const s of secretsOfMinors) expect([s, r.body.includes(s)]).toEqual([s, false]);
  const stored = await t.c.orm.em.getConnection().execute<{ payload: string }[]>(`select payload::text as payload from webhook_event`);
  expect(stored.length).toBe(receiver.received.length);
  for (const { payload } of stored) for (const s of secretsOfMinors) expect([s, payload.includes(s)]).toEqual([s, false]);
});
