import { createHmac } from 'node:crypto';
import { addDays } from '../../../src/domain/clock';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebhookReceiver, type Received } from '../../helpers/webhook-receiver';
import {
  actor,
  deliveriesOf,
  EVENT_ID,
  header,
  ISO_WITH_OFFSET,
  registerEndpoint,
  runWorker,
  sleep,
  UUID,
  waitUntil,
  WEBHOOK_ENV,
} from '../../helpers/webhooks';
import { buildWorld, TODAY, testClock, type World } from '../../helpers/world';

/**
 * The five partner events end to end (docs/decisions.md#event-ids, docs/decisions.md#payloads): from the operator's domain
 * operation, through the outbox and a real worker, to a loopback receiver that checks both
 * signatures. Every payload is compared with what the partner API itself answers.
 */

const NOW_ISO = `${TODAY}T12:00:00.000Z`; // the fixed test clock
const ALL_EVENTS = ['ranking.published', 'result.verified', 'licence.suspended', 'licence.issued', 'event.sanctioned'];

let t: TestApp;
let world: World;
let key: string;
let worker: Awaited<ReturnType<typeof runWorker>>;
const all = new WebhookReceiver();
const suspensionsOnly = new WebhookReceiver();
let allEndpoint: { id: string; secret: string };
let suspensionsEndpoint: { id: string; secret: string };

beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: WEBHOOK_ENV });
  world = await buildWorld(t.c);
  key = (
    await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'webhook tests',
      rateLimitPerMinute: 100_000,
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    })
  ).token;
  allEndpoint = await registerEndpoint(t.c, await all.start(), ALL_EVENTS);
  suspensionsEndpoint = await registerEndpoint(t.c, await suspensionsOnly.start(), ['licence.suspended']);
  all.secrets = [allEndpoint.secret];
  suspensionsOnly.secrets = [suspensionsEndpoint.secret];
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await all.stop();
  await suspensionsOnly.stop();
  await t?.close();
});

async function api(path: string) {
  const res = await getPartner(t.app, path, key);
  expect([path, res.status]).toEqual([path, 200]);
  return res.body;
}

const ofType = (r: WebhookReceiver, type: string) => r.received.filter((x) => x.json.event === type);
async function arrivals(r: WebhookReceiver, type: string, n: number): Promise<Received[]> {
  return waitUntil(`${n} ${type} deliveries`, () => (ofType(r, type).length >= n ? ofType(r, type) : null));
}

/** What every delivery carries, whatever its event (docs/decisions.md#retries, docs/decisions.md#event-ids). */
function expectWellFormed(r: Received, secret: string): void {
  const body = r.body;
  expect(header(r, 'content-type')).toMatch(/^application\/json/);
  expect(header(r, 'X-SVC-Event')).toBe(r.json.event);
  expect(header(r, 'X-SVC-Delivery')).toMatch(UUID);
  expect(header(r, 'X-SVC-Attempt')).toBe('1');
  expect(header(r, 'X-SVC-Replay-Of')).toBeUndefined();
  const ts = Number(header(r, 'X-SVC-Timestamp'));
  expect(Number.isInteger(ts)).toBe(true);
  expect(Math.abs(ts - r.at / 1000)).toBeLessThan(5);
  // Both signatures, computed here with node:crypto, over the raw bytes received.
  expect(header(r, 'X-SVC-Signature')).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  expect(header(r, 'X-SVC-Signature-Timestamped')).toBe(`sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`);
  expect(r.validSignature).toBe(true);
  // The envelope.
  expect(Object.keys(r.json).sort()).toEqual(['created_at', 'data', 'event', 'id']);
  expect(r.json.id).toMatch(EVENT_ID);
  expect(ALL_EVENTS).toContain(r.json.event);
  expect(r.json.created_at).toMatch(ISO_WITH_OFFSET);
  expect(new Date(r.json.created_at).toISOString()).toBe(NOW_ISO);
  expect(typeof r.json.data).toBe('object');
}

describe('licence.issued and licence.suspended', () => {
  let slug: string;
  let issued: Received;

  it('licence.issued carries exactly the fields of the Events table, as the partner API shows them', async () => {
    slug = (
      await t.c.services.fighters.register(actor, {
        name: 'Nora Neumann',
        countrySlug: 'germany',
        divisionId: 'kickboxing-pro-f-60kg',
        dateOfBirth: '1998-04-04',
        email: 'nora@fighters.example',
        phone: '+00 1',
        address: 'somewhere',
      })
    ).slug;
    const { licence, fighter } = await t.c.services.fighters.issueLicence(actor, slug);
    [issued] = await arrivals(all, 'licence.issued', 1);
    expectWellFormed(issued, allEndpoint.secret);
    const profile = (await api(`/fighters/${slug}`)).data;
    expect(issued.json.data).toEqual({
      fighter: { slug, name: 'Nora Neumann', country: 'germany', fighter_code: fighter.fighterCode, licence_no: licence.licenceNo },
      division: { discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '60kg', label: 'Kickboxing, Pro, Women, 60 kg' },
      status: 'licensed',
      licence_status: 'active',
      issued_at: NOW_ISO,
      valid_until: '2027-06-15T23:59:59.000Z',
      url: `https://svc.test/api/v1/fighters/${slug}`,
    });
    expect(issued.json.data.issued_at).toMatch(ISO_WITH_OFFSET);
    expect(issued.json.data.valid_until).toMatch(ISO_WITH_OFFSET);
    expect(profile.fighter_code).toMatch(/^FID-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(issued.json.data).toMatchObject({
      fighter: { fighter_code: profile.fighter_code, name: profile.name, country: profile.country.slug },
      division: profile.division,
      status: profile.status,
      licence_status: profile.licence_status,
    });
    const verify = await api(`/verify/${licence.licenceNo}`);
    expect([verify.valid, verify.status, verify.matched]).toEqual([true, 'ACTIVE', 'licence_no']);
  });

  it('licence.suspended carries the fighter as licence.issued does, the new statuses, suspended_at and url', async () => {
    await t.c.services.fighters.suspendLicence(actor, slug);
    const [suspended] = await arrivals(all, 'licence.suspended', 1);
    expectWellFormed(suspended, allEndpoint.secret);
    const profile = (await api(`/fighters/${slug}`)).data;
    expect(suspended.json.data).toEqual({
      fighter: issued.json.data.fighter,
      status: 'suspended',
      licence_status: 'suspended',
      suspended_at: NOW_ISO,
      url: `https://svc.test/api/v1/fighters/${slug}`,
    });
    expect([profile.status, profile.licence_status]).toEqual(['suspended', 'suspended']);
    expect(suspended.json.id).not.toBe(issued.json.id);
  });
});

describe('event.sanctioned', () => {
  it('is the Event exactly as GET /events/{code} answers it, plus sanctioned_at', async () => {
    const e = await t.c.services.events.create(actor, {
      name: 'Summer Open',
      city: 'Hamburg',
      countrySlug: 'germany',
      date: addDays(TODAY, 10),
      level: 'continental',
      status: 'scheduled',
    });
    // Not sanctioned yet: nothing is sent, and the partner API does not serve it.
    await sleep(300);
    expect(ofType(all, 'event.sanctioned')).toEqual([]);
    await t.c.services.events.sanction(actor, e.code);
    const [got] = await arrivals(all, 'event.sanctioned', 1);
    expectWellFormed(got, allEndpoint.secret);
    const served = (await api(`/events/${e.code}`)).data;
    expect(got.json.data).toEqual({ ...served, sanctioned_at: NOW_ISO });
    expect(got.json.data).toMatchObject({
      code: e.code,
      name: 'Summer Open',
      city: 'Hamburg',
      country: 'germany',
      level: 'continental',
      multiplier: 2,
      is_live: false,
      status: 'scheduled',
      url: `https://svc.test/api/v1/events/${e.code}`,
    });
  });
});

describe('result.verified', () => {
  it('sends one Result per fighter, exactly as GET /results shows it, plus verified_at', async () => {
    const e = await t.c.services.events.create(actor, {
      name: 'Result Night',
      city: 'Berlin',
      countrySlug: 'germany',
      date: addDays(TODAY, -5),
      level: 'international',
      status: 'completed',
    });
    await t.c.services.events.sanction(actor, e.code);
    const bout = await t.c.services.results.record(actor, {
      eventCode: e.code,
      winnerSlug: world.slugs.anna,
      loserSlug: world.slugs.chiaki,
      method: 'TKO',
      round: 2,
    });
    // Recorded is not verified: nothing yet.
    await sleep(300);
    expect(ofType(all, 'result.verified')).toEqual([]);
    await t.c.services.results.verify(actor, bout.id);
    const got = await arrivals(all, 'result.verified', 2);
    await sleep(200);
    expect(ofType(all, 'result.verified')).toHaveLength(2);
    got.forEach((r) => {
      expectWellFormed(r, allEndpoint.secret);
    });
    const served = (await api(`/results?event=${e.code}&per_page=100`)).data as { fighter: { slug: string } }[];
    expect(served).toHaveLength(2);
    const bySlug = (slug: string) => got.find((r) => (r.json.data.fighter as { slug: string }).slug === slug)!.json.data;
    for (const row of served) expect(bySlug(row.fighter.slug)).toEqual({ ...row, verified_at: NOW_ISO });
    expect(bySlug(world.slugs.anna)).toMatchObject({ result: 'W', opponent: 'Chiaki Sato', method: 'TKO', round: 2, event: { code: e.code } });
    expect(bySlug(world.slugs.chiaki)).toMatchObject({ result: 'L', opponent: 'Anna Müller', method: 'TKO', round: 2 });
    expect(new Set(got.map((r) => r.json.id)).size).toBe(2);
  });
});

describe('ranking.published', () => {
  type Row = { rank: number; movement: number | null; points: number; fighter: { slug: string; division: object } };
  async function tables(): Promise<Map<string, Row>> {
    const out = new Map<string, Row>();
    for (const d of (await api('/divisions')).data as { query: Record<string, string> }[]) {
      const body = await api(`/rankings?${new URLSearchParams({ ...d.query, per_page: '100' })}`);
      for (const row of body.data as Row[]) out.set(row.fighter.slug, row);
    }
    return out;
  }

  it('sends each fighter newly ranked or whose world rank or points changed, as GET /rankings shows them', async () => {
    const before = await tables();
    const asOf = addDays(TODAY, 1);
    await t.c.services.rankings.publish(actor, asOf);
    const after = await tables();
    const changed = [...after.values()].filter((row) => {
      const old = before.get(row.fighter.slug);
      return !old || old.rank !== row.rank || old.points !== row.points;
    });
    expect(changed.length).toBeGreaterThanOrEqual(2); // Anna and Chiaki fought since the last run
    const got = await arrivals(all, 'ranking.published', changed.length);
    await sleep(300);
    expect(ofType(all, 'ranking.published')).toHaveLength(changed.length);
    for (const r of got) expectWellFormed(r, allEndpoint.secret);
    const sent = new Map(got.map((r) => [(r.json.data.fighter as { slug: string }).slug, r.json.data]));
    expect([...sent.keys()].sort()).toEqual(changed.map((r) => r.fighter.slug).sort());
    for (const row of changed) {
      const previous = before.get(row.fighter.slug)?.rank ?? null;
      expect(sent.get(row.fighter.slug)).toEqual({
        fighter: row.fighter,
        division: row.fighter.division,
        as_of: asOf,
        rank: row.rank,
        previous_rank: previous,
        movement: row.movement,
        points: row.points,
        url: `https://svc.test/api/v1/fighters/${row.fighter.slug}`,
      });
      expect(row.movement).toBe(previous === null ? null : previous - row.rank);
    }
  });
});

describe('subscriptions', () => {
  it('delivers to an endpoint only the events it subscribed to', async () => {
    await waitUntil('every delivery settled', async () => (await deliveriesOf(t.c, allEndpoint.id)).every((d) => d.status === 'succeeded'));
    expect(suspensionsOnly.received.map((r) => r.json.event)).toEqual(['licence.suspended']);
    expectWellFormed(suspensionsOnly.received[0], suspensionsEndpoint.secret);
    // The same event, its own delivery id per endpoint.
    const mine = ofType(all, 'licence.suspended')[0];
    expect(suspensionsOnly.received[0].json).toEqual(mine.json);
    expect(header(suspensionsOnly.received[0], 'X-SVC-Delivery')).not.toBe(header(mine, 'X-SVC-Delivery'));
    expect((await deliveriesOf(t.c, suspensionsEndpoint.id)).map((d) => d.event)).toEqual(['licence.suspended']);
    // The endpoint subscribed to all five got all five.
    expect(new Set(all.received.map((r) => r.json.event))).toEqual(new Set(ALL_EVENTS));
  });

  it('gives every delivery its own X-SVC-Delivery, the id of its row in the delivery log', async () => {
    const ids = all.received.map((r) => header(r, 'X-SVC-Delivery'));
    expect(new Set(ids).size).toBe(ids.length);
    const rows = await deliveriesOf(t.c, allEndpoint.id);
    expect(rows.map((d) => d.id).sort()).toEqual([...ids].sort());
    expect(rows.every((d) => d.attempt === 1 && d.status === 'succeeded' && d.replay_of === null)).toBe(true);
    // The payload id is the event's; each event was sent once to this endpoint.
    expect(new Set(all.received.map((r) => r.json.id)).size).toBe(all.received.length);
  });
});
