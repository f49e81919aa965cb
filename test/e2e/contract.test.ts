import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { partnerApiDeps } from '../../src/app';
import { operator } from '../../src/domain/channels/channel-access';
import { defineOperation, type AnyOperation, type QueryParam } from '../../src/http/operation';
import { operationEntry } from '../../src/http/operation-router';
import { getKeyInfo } from '../../src/rest/operations/account.operations';
import { buildPartnerOpenApi } from '../../src/rest/openapi.document';
import { PARTNER_API_BASE, PARTNER_OPERATIONS, partnerDoor } from '../../src/rest/partner-api.door';
import { TV_API_BASE, TV_OPERATIONS } from '../../src/tv/tv-api.door';
import { fastOnly } from '../helpers/fast-only';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TV_ENV } from '../helpers/tv-client';
import { buildTvWorld, CK } from '../helpers/tv-world';
import { buildWorld, KEYS, testClock } from '../helpers/world';

/**
 * The contract tables of both REST doors, derived from the operation declarations: every
 * operation that takes a key answers 401 without one, every scoped one 403 to a key without its
 * scope, every one that can miss a subject 404, every query parameter 422 `invalid_<name>` when
 * given twice, and every limited partner operation 429 once its key's budget is spent. A new
 * operation is in these tables the moment it is declared.
 */
let t: TestApp;
let noRankingsKey: string;
let noReadKey: string;

beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: TV_ENV });
  await buildWorld(t.c);
  await buildTvWorld(t.c);
  const actor = { id: 'contract-test' };
  noRankingsKey = (await t.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'events only', scopes: ['events.read'] })).token;
  const pro = await t.c.services.channels.create(operator(actor), { slug: 'contract-tv', name: 'Contract TV', plan: 'pro', billing: 'active' });
  noReadKey = (await t.c.services.channels.createKey(operator(actor), { channelId: pro.id, name: 'write only', scopes: ['broadcasts:write'] })).token;
});
afterAll(() => t?.close());
beforeEach(() => t.limiterClock.advance(61_000));

const doors = [
  {
    name: 'partner',
    base: PARTNER_API_BASE,
    ops: PARTNER_OPERATIONS,
    key: () => KEYS.full,
    withoutScope: (scope: string) => (scope === 'rankings.read' ? noRankingsKey : KEYS.rankings),
  },
  { name: 'tv', base: TV_API_BASE, ops: TV_OPERATIONS, key: () => CK.rw, withoutScope: (scope: string) => (scope === 'read' ? noReadKey : CK.ro) },
];

/** Well-formed values no subject has, where a parameter has a format of its own. */
const UNKNOWN: Record<string, string> = { number: 'LIC-ZZ-2000-000001' };

/** A URL of the operation: its path parameters filled with values no subject has. */
function urlOf(base: string, op: AnyOperation, query = ''): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    op.params?.[name]?.schema?.format === 'uuid' ? randomUUID() : (UNKNOWN[name] ?? `no-such-${name}`),
  );
  return `${base}${path}${query}`;
}

function call(op: AnyOperation, url: string, key?: string) {
  const verb = op.method === 'GET' ? 'get' : op.method === 'POST' ? 'post' : 'patch';
  const r = request(t.app)[verb](url);
  if (key) r.set('Authorization', `Bearer ${key}`);
  if (op.body) r.send({ title: 'Contract' });
  return r;
}

describe.each(doors)('the $name door, from its declarations', ({ base, ops, key, withoutScope }) => {
  const keyed = ops.filter((op) => op.credential !== 'none');
  it.each(keyed.map((op) => [`${op.method} ${op.path}`, op]))('%s: 401 without a key', async (_, op) => {
    const res = await call(op, urlOf(base, op));
    expect([res.status, res.body.error, res.headers['www-authenticate']]).toEqual([401, 'unauthenticated', 'Bearer']);
  });

  const scoped = keyed.filter((op) => op.scope);
  it.each(scoped.map((op) => [`${op.method} ${op.path}`, op]))('%s: 403 to a key without its scope', async (_, op) => {
    const res = await call(op, urlOf(base, op), withoutScope(op.scope!));
    expect([res.status, res.body.error]).toEqual([403, 'insufficient_scope']);
  });

  const missing = ops.filter((op) => op.doc.notFound);
  it.each(missing.map((op) => [`${op.method} ${op.path}`, op]))('%s: 404 for a subject that does not exist', async (_, op) => {
    const res = await call(op, urlOf(base, op), key());
    expect([res.status, res.body.error]).toEqual([404, 'not_found']);
  });

  const queried = ops.flatMap((op) =>
    Object.keys((op.query ?? {}) as Record<string, QueryParam>).map((name) => [`${op.method} ${op.path} ?${name}`, op, name] as const),
  );
  it.each(queried)('%s: 422 invalid_<name> when given twice', async (_, op, name) => {
    const res = await call(op, urlOf(base, op, `?${name}=1&${name}=2`), op.credential === 'none' ? undefined : key());
    expect([res.status, res.body.error]).toEqual([422, `invalid_${name}`]);
  });
});

describe("the partner door's limits, from its declarations", () => {
  const limited = PARTNER_OPERATIONS.filter((op) => op.limit === 'key');
  it.each(limited.map((op) => [op.path, op]))("%s: 429 with Retry-After once the key's budget is spent", async (_, op) => {
    t.limiterClock.advance(61_000);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(op, urlOf(PARTNER_API_BASE, op), KEYS.low)).status);
    expect(statuses[3]).toBe(429);
    const refused = await call(op, urlOf(PARTNER_API_BASE, op), KEYS.low);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('one pipeline', () => {
  // the fast path and express used to authenticate (and parse) a refused request each in turn
  it('authenticates a refused request once, before express and through it', async () => {
    const spy = jest.spyOn(t.c.keys, 'authenticate');
    try {
      const cases: Array<[string, number]> = [
        ['/api/v1/rankings?disc=kickboxing', 422],
        ['/api/v1/fighters?q=a', 422],
        ['/api/v1/fighters/nobody', 404],
        ['/api/v1/fighters/?q=a', 422],
      ];
      for (const [url, status] of cases) {
        spy.mockClear();
        const res = await request(t.app).get(url).set('Authorization', `Bearer ${KEYS.full}`);
        expect([url, res.status, spy.mock.calls.length]).toEqual([url, status, 1]);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a deprecated operation', () => {
  const since = new Date('2026-06-01T00:00:00Z');
  const sunset = new Date('2027-06-01T00:00:00Z');
  // test-only: /me under an old path, marked deprecated in its declaration
  const oldMe = defineOperation({
    ...getKeyInfo,
    path: '/key-info',
    deprecated: { since, sunset, link: 'https://svc.test/docs#getKeyInfo' },
    doc: { ...getKeyInfo.doc, operationId: 'getKeyInfoOld' },
  });

  it('answers Deprecation (RFC 9745) and Sunset (RFC 8594), refusals included, and is deprecated in its document', async () => {
    const { handler } = fastOnly(operationEntry([partnerDoor(partnerApiDeps(t.c), t.c.requestLog, [oldMe, getKeyInfo])]));
    const ok = await request(handler).get('/api/v1/key-info').set('Authorization', `Bearer ${KEYS.full}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.deprecation).toBe(`@${since.getTime() / 1000}`);
    expect(ok.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(ok.headers.link).toBe('<https://svc.test/docs#getKeyInfo>; rel="deprecation"');
    const refused = await request(handler).get('/api/v1/key-info');
    expect([refused.status, refused.headers.deprecation]).toEqual([401, `@${since.getTime() / 1000}`]);
    const current = await request(handler).get('/api/v1/me').set('Authorization', `Bearer ${KEYS.full}`);
    expect([current.status, current.headers.deprecation, current.headers.sunset]).toEqual([200, undefined, undefined]);

    const doc = buildPartnerOpenApi([oldMe, getKeyInfo]) as { paths: Record<string, Record<string, { deprecated?: boolean }>> };
    expect(doc.paths['/key-info'].get.deprecated).toBe(true);
    expect(doc.paths['/me'].get.deprecated).toBeUndefined();
  });
});
