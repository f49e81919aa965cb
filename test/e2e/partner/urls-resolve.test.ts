import request from 'supertest';
import { addDays, addYears } from '../../../src/domain/clock';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { actor, expandAll, registerEndpoint, WEBHOOK_ENV } from '../../helpers/webhooks';
import { buildWorld, TODAY, testClock, type World } from '../../helpers/world';

/**
 * Every `url` field resolves (docs/decisions.md#events, GitHub's convention): each `url` in every
 * partner answer and in every webhook payload of the five partner events is followed, with a
 * partner key, and answers 200 with the resource it names.
 */

const PUBLIC_URL = 'https://svc.test';
let t: TestApp;
let world: World;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: WEBHOOK_ENV });
  world = await buildWorld(t.c);
  key = (
    await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'url tests',
      rateLimitPerMinute: 100_000,
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    })
  ).token;
  await registerEndpoint(t.c, 'http://127.0.0.1:9/hook', ['ranking.published', 'result.verified', 'licence.suspended', 'licence.issued', 'event.sanctioned']);
});
afterAll(() => t?.close());

/** Every `url` value in a JSON value, with where it was found. */
function urlsIn(value: unknown, where: string, out: [string, string][] = []): [string, string][] {
  if (Array.isArray(value))
    value.forEach((v, i) => {
      urlsIn(v, `${where}[${i}]`, out);
    });
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'url' && typeof v === 'string') out.push([where, v]);
      else urlsIn(v, `${where}.${k}`, out);
    }
  }
  return out;
}

async function follow(found: [string, string][]): Promise<void> {
  expect(found.length).toBeGreaterThan(0);
  for (const [url, where] of new Map(found.map(([w, u]) => [u, w]))) {
    expect([where, url.startsWith(`${PUBLIC_URL}/api/v1/`)]).toEqual([where, true]);
    const res = await request(t.app).get(url.slice(PUBLIC_URL.length)).set('Authorization', `Bearer ${key}`);
    expect([where, url, res.status]).toEqual([where, url, 200]);
    const path = new URL(url).pathname.split('/');
    // It names what it was found on: the event's code or the fighter's slug.
    expect([res.body.data.code, res.body.data.slug]).toContain(decodeURIComponent(path[path.length - 1]));
  }
}

it("every url in the partner API's answers resolves with a key", async () => {
  const found: [string, string][] = [];
  const paths = [
    '/events?per_page=100',
    '/results?per_page=100',
    `/events/${world.events.world}`,
    `/events/${world.events.world}/results`,
    ...Object.values(world.slugs).map((s) => `/fighters/${s}`),
  ];
  for (const path of paths) {
    const res = await getPartner(t.app, path, key);
    expect([path, res.status]).toEqual([path, 200]);
    urlsIn(res.body, path, found);
  }
  await follow(found);
});

it('every url in the five partner webhook payloads resolves with a key', async () => {
  const fighter = await t.c.services.fighters.register(actor, {
    name: 'Url Tester',
    countrySlug: 'germany',
    divisionId: 'kickboxing-pro-f-60kg',
    dateOfBirth: addYears(TODAY, -25),
    email: 'url@fighters.example',
    phone: '+00 1',
    address: 'x',
  });
  await t.c.services.fighters.issueLicence(actor, fighter.slug);
  await t.c.services.fighters.suspendLicence(actor, fighter.slug);
  const e = await t.c.services.events.create(actor, {
    name: 'Url Night',
    city: 'Berlin',
    countrySlug: 'germany',
    date: addDays(TODAY, -3),
    level: 'national',
    status: 'completed',
  });
  await t.c.services.events.sanction(actor, e.code);
  const bout = await t.c.services.results.record(actor, {
    eventCode: e.code,
    winnerSlug: world.slugs.anna,
    loserSlug: world.slugs.dora,
    method: 'KO',
    round: 1,
  });
  await t.c.services.results.verify(actor, bout.id);
  await t.c.services.rankings.publish(actor, addDays(TODAY, 1));
  await expandAll(t.c); // payloads are built after the commit, by the workers' fan-out
  const stored = await t.c.orm.em
    .getConnection()
    .execute<{ type: string; payload: string }[]>(`select type, payload from webhook_event order by created_at, id`);
  const types = new Set(stored.map((s) => s.type));
  expect([...types].sort()).toEqual(['event.sanctioned', 'licence.issued', 'licence.suspended', 'ranking.published', 'result.verified']);
  const found = stored.flatMap((s) => urlsIn(JSON.parse(s.payload), s.type));
  for (const type of types) if (type !== 'result.verified') expect([type, found.some(([w]) => w.startsWith(type))]).toEqual([type, true]);
  await follow(found);
});
