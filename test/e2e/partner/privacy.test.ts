import request from 'supertest';
import { CONTINENTS } from '../../../src/http/query';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, PLANTED, testClock, type World } from '../../helpers/world';

/**
 * Identity and contact data never leave the service (docs/decisions.md#minors).
 * Every answer of every endpoint over the whole test world is searched for the planted values of
 * Emil Weber, for every other fighter's identity values read back from the database, and for any
 * key that names such data.
 */

const actor = { id: 'test' };
const FORBIDDEN_KEY = /birth|dob|e-?mail|phone|address|identity/i;

let t: TestApp;
let world: World;
let key: string;
const answers: { path: string; status: number; text: string; headers: string }[] = [];

/** Every path a partner can ask for in this world. */
async function everyPath(): Promise<string[]> {
  const conn = t.c.orm.em.getConnection();
  const col = async (sql: string) => (await conn.execute<Record<string, string | null>[]>(sql)).map((r) => Object.values(r)[0]).filter((v): v is string => !!v);
  const fighters = await col(`select slug from fighter order by slug`);
  const events = await col(`select code from event order by code`);
  const numbers = [
    ...(await col(`select licence_no from licence`)),
    ...(await col(`select certificate_no from certificate`)),
    ...(await col(`select fighter_code from fighter`)),
  ];
  const divisions = (
    await conn.execute<{ discipline: string; category: string; gender: string; weight_class: string }[]>(
      `select discipline, category, gender, weight_class from division`,
    )
  ).map((d) => `disc=${d.discipline}&cat=${d.category}&g=${d.gender}&wc=${d.weight_class}`);
  const scopes = ['world', ...CONTINENTS, ...(await col(`select slug from country`))];
  const lists = ['/fighters', '/events', '/events?upcoming=1', '/results'].map((p) => `${p}${p.includes('?') ? '&' : '?'}per_page=100`);
  return [
    ...lists,
    '/fighters?per_page=100&status=applicant',
    '/fighters?per_page=100&status=suspended',
    '/fighters?per_page=100&q=weber',
    `/results?per_page=100&event=${world.events.minorBout}`,
    '/divisions',
    '/me',
    ...fighters.map((s) => `/fighters/${s}`),
    ...events.flatMap((c) => [`/events/${c}`, `/events/${c}/results`]),
    ...numbers.map((n) => `/verify/${n}`),
    ...divisions.flatMap((d) => scopes.map((s) => `/rankings?${d}&scope=${s}`)),
    // Errors too: a 404, a 422 and an unknown path.
    '/fighters/nobody',
    '/verify/nonsense',
    '/rankings?disc=kickboxing',
    '/nowhere',
  ];
}

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  key = (
    await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'privacy tests',
      rateLimitPerMinute: 100_000,
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    })
  ).token;
  for (const path of await everyPath()) {
    const res = path === '/nowhere' ? await request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${key}`) : await getPartner(t.app, path, key);
    answers.push({ path, status: res.status, text: res.text ?? '', headers: JSON.stringify(res.headers) });
  }
  const doc = await request(t.app).get('/api/v1/openapi.json');
  answers.push({ path: '/openapi.json', status: doc.status, text: doc.text, headers: JSON.stringify(doc.headers) });
});
afterAll(() => t?.close());

it('asks every endpoint about the whole world, and gets answers', () => {
  const ok = answers.filter((a) => a.status === 200).map((a) => a.path);
  // Every fighter profile (the minor's included), every division in every scope, every number.
  expect(ok).toContain(`/fighters/${world.slugs.emil}`);
  expect(ok).toContain(`/fighters/${world.slugs.minor}`);
  expect(ok).toContain(`/verify/${world.numbers.minorLicence}`);
  expect(ok).toContain('/rankings?disc=kickboxing&cat=pro&g=f&wc=63-5kg&scope=germany');
  // Everything else is a 200: only the planted errors and the unsanctioned event are not.
  expect(answers.filter((a) => a.status !== 200).map((a) => [a.path, a.status])).toEqual([
    [`/events/${world.events.unsanctioned}`, 404],
    [`/events/${world.events.unsanctioned}/results`, 404],
    ['/fighters/nobody', 404],
    ['/verify/nonsense', 422],
    ['/rankings?disc=kickboxing', 422],
    ['/nowhere', 404],
  ]);
  expect(ok.length).toBeGreaterThan(70);
  // Emil is really served: his name is in his profile, so the search below looks at live data.
  const emil = answers.find((a) => a.path === `/fighters/${world.slugs.emil}`)!;
  expect(emil.text).toContain('Emil Weber');
  expect(answers.filter((a) => a.status >= 500)).toEqual([]);
});

it("never shows Emil Weber's planted identity or contact values, in any body or header", () => {
  const planted = [
    PLANTED.email,
    PLANTED.phone,
    PLANTED.address,
    PLANTED.dateOfBirth,
    'planted.secret',
    'private.example',
    '99887766',
    'Hidden Lane',
    'Privatstadt',
  ];
  const leaks = answers.flatMap((a) => planted.filter((v) => a.text.includes(v) || a.headers.includes(v)).map((v) => `${a.path}: ${v}`));
  expect(leaks).toEqual([]);
});

it("never shows any fighter's date of birth, email, phone or address", async () => {
  const rows = await t.c.orm.em
    .getConnection()
    .execute<{ dob: string; email: string; phone: string; address: string }[]>(
      `select date_of_birth::text as dob, email, phone, address from fighter_identity`,
    );
  expect(rows.length).toBeGreaterThanOrEqual(9);
  const values = [...new Set(rows.flatMap((r) => [r.dob, r.email, r.phone, r.address]))];
  const leaks = answers.flatMap((a) => values.filter((v) => a.text.includes(v) || a.headers.includes(v)).map((v) => `${a.path}: ${v}`));
  expect(leaks).toEqual([]);
});

it('has no key that names identity or contact data in any JSON answer', () => {
  const keysOf = (node: unknown, out: Set<string>): Set<string> => {
    if (Array.isArray(node))
      node.forEach((n) => {
        keysOf(n, out);
      });
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        out.add(k);
        keysOf(v, out);
      }
    }
    return out;
  };
  const found = answers
    .filter((a) => a.path !== '/openapi.json')
    .flatMap((a) => [...keysOf(JSON.parse(a.text), new Set())].filter((k) => FORBIDDEN_KEY.test(k)).map((k) => `${a.path}: ${k}`));
  expect(found).toEqual([]);
  // The OpenAPI document describes no such property either.
  const doc = JSON.parse(answers.find((a) => a.path === '/openapi.json')!.text);
  const properties = new Set<string>();
  for (const schema of Object.values<{ properties?: object }>(doc.components.schemas)) for (const p of Object.keys(schema.properties ?? {})) properties.add(p);
  expect([...properties].filter((p) => FORBIDDEN_KEY.test(p))).toEqual([]);
  expect(answers.flatMap((a) => a.headers.match(/"[^"]*(?:birth|e-?mail|phone|address)[^"]*":/gi) ?? [])).toEqual([]);
});

it('the documented full key sees no more than the test key', async () => {
  const res = await getPartner(t.app, `/fighters/${world.slugs.emil}`, KEYS.full);
  expect(res.status).toBe(200);
  for (const v of Object.values(PLANTED)) expect(res.text).not.toContain(v);
});
