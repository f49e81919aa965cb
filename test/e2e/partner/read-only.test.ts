import request from 'supertest';
import { getPartner, partnerSpec } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/**
 * Nothing sent to the partner API changes data (rule 5):
 * every write method at every path, with a full-scope key and a body that tries to change points,
 * ranks and statuses, is a 405, and the database is the same afterwards.
 */

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;
/** Tables whose content is compared row for row, not only counted. */
const HASHED = ['fighter', 'fighter_identity', 'licence', 'certificate', 'bout', 'event', 'ranking_run', 'ranking_entry', 'partner'];

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
});
afterAll(() => t?.close());

async function snapshot(): Promise<Record<string, string | number>> {
  const conn = t.c.orm.em.getConnection();
  const tables = (await conn.execute<{ t: string }[]>(`select tablename as t from pg_tables where schemaname = current_schema() order by tablename`)).map(
    (r) => r.t,
  );
  const out: Record<string, string | number> = {};
  for (const table of tables) {
    const [{ n }] = await conn.execute<{ n: number }[]>(`select count(*)::int as n from "${table}"`);
    out[`${table} rows`] = n;
  }
  for (const table of HASHED) {
    const [{ h }] = await conn.execute<{ h: string }[]>(`select md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as h from "${table}" x`);
    out[`${table} content`] = h;
  }
  return out;
}

function paths(): string[] {
  return [
    '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg',
    '/rankings',
    '/divisions',
    '/fighters',
    `/fighters/${world.slugs.anna}`,
    `/fighters/${world.slugs.suspended}`,
    `/fighters/${world.slugs.minor}`,
    '/events',
    `/events/${world.events.world}`,
    `/events/${world.events.unsanctioned}`,
    `/events/${world.events.world}/results`,
    '/results',
    `/verify/${world.numbers.activeLicence}`,
    `/verify/${world.numbers.suspendedLicence}`,
    `/verify/${world.numbers.pendingLicence}`,
    '/me',
    '/openapi.json',
  ];
}

/** Bodies a partner might try: points, ranks, statuses, a new fighter, a new result, its own limit. */
function bodies(): object[] {
  return [
    { points: 9999, rank: 1, movement: 10 },
    { status: 'licensed', licence_status: 'active', valid: true, verification: 'ACTIVE' },
    { name: 'Injected Fighter', country: 'germany', division: 'kickboxing-pro-f-60kg', date_of_birth: '1990-01-01' },
    { event: world.events.world, winner: world.slugs.dora, loser: world.slugs.bela, verified: true },
    { sanctioned: true, level: 'world', status: 'live' },
    { scopes: ['rankings.read'], rate_limit_per_minute: 1_000_000, request_count: 0 },
    [{ op: 'replace', path: '/points', value: 1000 }],
  ];
}

it('answers every write method at every path with 405 and changes nothing', async () => {
  const before = await snapshot();
  expect(before['fighter rows']).toBe(9);
  expect(before['ranking_entry rows']).toBeGreaterThan(0);
  let fired = 0;
  for (const path of paths()) {
    for (const method of WRITE_METHODS) {
      for (const body of bodies()) {
        const res = await request(t.app)
          [method](`/api/v1${path}`)
          .set('Authorization', `Bearer ${KEYS.full}`)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect([method, path, res.status, res.body.error]).toEqual([method, path, 405, 'method_not_allowed']);
        expect(res.headers.allow).toBe('GET, HEAD');
        expect(typeof res.body.message).toBe('string');
        partnerSpec.expectValid(res);
        fired++;
      }
    }
  }
  expect(fired).toBe(paths().length * WRITE_METHODS.length * bodies().length);
  expect(await snapshot()).toEqual(before);
});

it('ignores method overrides and write-looking query strings', async () => {
  const before = await snapshot();
  for (const override of ['GET', 'PUT', 'DELETE']) {
    const res = await request(t.app)
      .post(`/api/v1/fighters/${world.slugs.anna}?_method=PUT&points=9999`)
      .set('X-API-Key', KEYS.full)
      .set('X-HTTP-Method-Override', override)
      .set('Content-Type', 'application/json')
      .send({ points: 9999 });
    expect([override, res.status]).toEqual([override, 405]);
  }
  // A GET with write-looking parameters reads and changes nothing either.
  const res = await getPartner(t.app, `/fighters/${world.slugs.anna}?points=9999&status=suspended`, KEYS.full);
  expect([res.status, res.body.data.points, res.body.data.status]).toEqual([200, 21, 'licensed']);
  expect(await snapshot()).toEqual(before);
});

it('still serves the same points, ranks and statuses afterwards', async () => {
  const ranking = await getPartner(t.app, '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg', KEYS.full);
  expect(ranking.body.data.map((r: { rank: number; points: number; fighter: { slug: string } }) => [r.rank, r.points, r.fighter.slug])).toEqual([
    [1, 31, world.slugs.bela],
    [2, 21, world.slugs.anna],
    [3, 15, world.slugs.dora],
    [4, 6, world.slugs.chiaki],
  ]);
  const verify = await getPartner(t.app, `/verify/${world.numbers.suspendedLicence}`, KEYS.full);
  expect([verify.body.status, verify.body.valid]).toEqual(['SUSPENDED', false]);
  const fighters = await getPartner(t.app, '/fighters?q=injected', KEYS.full);
  expect(fighters.body.meta.total).toBe(0);
});
