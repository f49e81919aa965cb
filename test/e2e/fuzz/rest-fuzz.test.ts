import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { createOpenApiValidator, type OpenApiValidator } from '../../helpers/openapi.validator';
import {
  bodyOf,
  documentedErrorCodes,
  operationsOf,
  pathSegment,
  queryOf,
  renderQuery,
  type BodyCase,
  type HttpMethod,
  type Operation,
  type QueryPart,
} from '../../helpers/openapi-fuzz';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/**
 * Bounded, seeded fuzzing of the two REST doors from their documents (schema/openapi.json at
 * /api/v1, schema/openapi-tv.json at /api/tv). For every operation of each document a fixed
 * number of requests is generated (fixed fast-check seed): parameters from their schemas, valid
 * and not (openapi-sampler samples, enums, patterns, bounds; wrong types, out-of-range integers,
 * over-long strings, unicode and control characters, repeated, unknown and badly encoded
 * parameters, odd path segments), request bodies from the request-body schemas and mutations of
 * them (missing and extra fields, `__proto__`, wrong types, sizes around the 64 KiB limit,
 * non-objects, malformed JSON, wrong content types and encodings), a method the path does not
 * document now and then, and every kind of credential (valid with all scopes, lacking scopes,
 * rate-limited, expired, revoked, suspended, unknown, another door's, none, malformed; for the
 * channel endpoints a read-write key, a read-only one and another channel's). Real slugs, codes,
 * numbers and broadcast ids of the test worlds are mixed with generated ones, so that many
 * requests reach the handlers.
 *
 * Every answer must conform to its document (test/helpers/openapi.validator.ts: path, method,
 * status, body, required headers), no answer may be a 5xx, and every error answer is a
 * `{error, message}` body whose `error` is one the document enumerates for that operation and
 * status (each 4xx response of both documents enumerates its codes; a 405, described once for
 * all paths, is `method_not_allowed` with an `Allow` header). Failures are collected over the
 * whole run and listed together.
 *
 * The rate limiter runs on the test's clock, moved one second per request, so no window ever
 * holds more than 60 requests and only the deliberately low key (3 per minute) meets 429s; the
 * failed-authentication budget is raised out of the way. Nothing depends on the wall clock.
 */

/** Fixed; FUZZ_SEED picks another one for a longer hunt by hand (a failure prints its seed). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_615);
/** Requests per operation (every operation of both documents gets this many). */
const RUNS_PER_OPERATION = 110;
const BODY_LIMIT = 64 * 1024;

const root = join(__dirname, '..', '..', '..');
const partnerDoc = JSON.parse(readFileSync(join(root, 'schema', 'openapi.json'), 'utf8'));
const tvDoc = JSON.parse(readFileSync(join(root, 'schema', 'openapi-tv.json'), 'utf8'));

interface Door {
  name: 'partner' | 'tv';
  doc: any;
  base: string;
  validator: OpenApiValidator;
}
const doors: Door[] = [
  { name: 'partner', doc: partnerDoc, base: '/api/v1', validator: createOpenApiValidator(partnerDoc, '/api/v1') },
  { name: 'tv', doc: tvDoc, base: '/api/tv', validator: createOpenApiValidator(tvDoc, '/api/tv') },
];

/** How a request authenticates itself. */
interface Credential {
  label: string;
  headers: Record<string, string>;
}
const bearer = (label: string, key: string): Credential => ({ label, headers: { Authorization: `Bearer ${key}` } });

const FUZZ_KEYS = { all: 'pk_fuzz_all_scopes', eventsOnly: 'pk_fuzz_events_only' };

const MALFORMED: Credential[] = [
  { label: 'malformed: Basic', headers: { Authorization: 'Basic dXNlcjpwYXNz' } },
  { label: 'malformed: Bearer only', headers: { Authorization: 'Bearer' } },
  { label: 'malformed: Bearer space', headers: { Authorization: 'Bearer ' } },
  { label: 'malformed: two tokens', headers: { Authorization: `Bearer ${KEYS.full} ${KEYS.full}` } },
  { label: 'malformed: odd characters', headers: { Authorization: 'Bearer pk_a"b<c>{}' } },
  { label: 'malformed: over-long', headers: { Authorization: `Bearer pk_${'a'.repeat(300)}` } },
  { label: 'malformed: latin-1', headers: { Authorization: 'Bearer pk_\u00e9\u00e8' } },
  { label: 'malformed: Token scheme', headers: { Authorization: `Token ${KEYS.full}` } },
  { label: 'malformed: empty', headers: { Authorization: '' } },
];

function partnerCredentials(): fc.Arbitrary<Credential> {
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.constantFrom(
        bearer('valid, all scopes', FUZZ_KEYS.all),
        { label: 'valid, all scopes (X-API-Key)', headers: { 'X-API-Key': FUZZ_KEYS.all } },
        { label: 'valid, all scopes (lower-case bearer)', headers: { Authorization: `bearer ${FUZZ_KEYS.all}` } },
      ),
    },
    { weight: 1, arbitrary: fc.constant(bearer('valid, 60 per minute', KEYS.full)) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(bearer('lacking scopes (rankings only)', KEYS.rankings), bearer('lacking scopes (events, results)', FUZZ_KEYS.eventsOnly)),
    },
    { weight: 1, arbitrary: fc.constant(bearer('low limit (3 per minute)', KEYS.low)) },
    { weight: 2, arbitrary: fc.constantFrom(bearer('expired', KEYS.expired), bearer('revoked', KEYS.revoked), bearer('suspended partner', KEYS.suspended)) },
    { weight: 2, arbitrary: fc.oneof(fc.constant('pk_unknown_key'), fc.stringMatching(/^pk_[A-Za-z0-9_-]{1,60}$/)).map((k) => bearer('unknown', k)) },
    { weight: 1, arbitrary: fc.constant(bearer('channel key (other door)', CK.rw)) },
    { weight: 2, arbitrary: fc.constant<Credential>({ label: 'none', headers: {} }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...MALFORMED,
        { label: 'malformed: X-API-Key over-long', headers: { 'X-API-Key': `pk_${'b'.repeat(300)}` } },
        { label: 'malformed: X-API-Key blank', headers: { 'X-API-Key': '   ' } },
        { label: 'both headers, Authorization unknown', headers: { Authorization: 'Bearer pk_nope', 'X-API-Key': FUZZ_KEYS.all } },
      ),
    },
  );
}

function tvCredentials(): fc.Arbitrary<Credential> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(bearer('channel, read + write', CK.rw)) },
    { weight: 3, arbitrary: fc.constant(bearer('channel, read only', CK.ro)) },
    { weight: 3, arbitrary: fc.constant(bearer("another channel's key", CK.other)) },
    { weight: 2, arbitrary: fc.constantFrom(bearer('free plan', CK.free), bearer('past due', CK.pastDue), bearer('not approved', CK.unapproved)) },
    { weight: 2, arbitrary: fc.oneof(fc.constant('ck_unknown_key'), fc.stringMatching(/^ck_[A-Za-z0-9_-]{1,60}$/)).map((k) => bearer('unknown', k)) },
    { weight: 1, arbitrary: fc.constant(bearer('partner key (other door)', FUZZ_KEYS.all)) },
    { weight: 3, arbitrary: fc.constant<Credential>({ label: 'none', headers: {} }) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED, { label: 'X-API-Key (not accepted here)', headers: { 'X-API-Key': CK.rw } }) },
  );
}

interface Case {
  method: HttpMethod;
  /** Path below the door, with its query. */
  path: string;
  credential: Credential;
  ifNoneMatch: 'none' | 'last' | string;
  body?: BodyCase;
  ip: string;
}

/** Per-door test data: the real identifiers of each path parameter and query parameter. */
interface Reals {
  path: Record<string, fc.Arbitrary<string>>;
  query: Record<string, unknown[]>;
  /** Whole queries known to reach the handler, per path template. */
  presets: Record<string, QueryPart[][]>;
}
const q = (query: string): QueryPart[] => [...new URLSearchParams(query)].map(([name, value]) => ({ name, value }));

const OTHER_METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete', 'options'];

function caseOf(door: Door, op: Operation, reals: Reals, credentials: fc.Arbitrary<Credential>): fc.Arbitrary<Case> {
  const item = door.doc.paths[op.template];
  // The TV API's public paths answer CORS preflights (documented in prose, not as operations).
  const publicPath = door.name === 'tv' && Object.values<any>(item).some((o) => Array.isArray(o?.security) && o.security.length === 0);
  const undocumented = OTHER_METHODS.filter((m) => !item[m] && !(m === 'options' && publicPath));
  const methods: fc.Arbitrary<HttpMethod> = fc.oneof(
    { weight: 16, arbitrary: fc.constant(op.method) },
    ...(op.method === 'get' ? [{ weight: 2, arbitrary: fc.constant<HttpMethod>('head') }] : []),
    ...(undocumented.length ? [{ weight: 2, arbitrary: fc.constantFrom(...undocumented) }] : []),
  );
  const segments = op.parameters.filter((p) => p.in === 'path');
  const path: fc.Arbitrary<string> = fc
    .tuple(...segments.map((p) => pathSegment(door.doc, p, reals.path[`${op.method} ${op.template} ${p.name}`] ?? reals.path[p.name] ?? fc.constant('x'))))
    .map((values) => segments.reduce((acc, p, i) => acc.replace(`{${p.name}}`, values[i]), op.template));
  const query: fc.Arbitrary<QueryPart[]> = queryOf(door.doc, op.parameters, reals.query, reals.presets[op.template]);
  const body: fc.Arbitrary<BodyCase | undefined> = op.bodySchema
    ? bodyOf(door.doc, op.bodySchema, { limitBytes: BODY_LIMIT, validOverrides: op.method === 'post' ? validBroadcasts : validPatches })
    : fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<BodyCase>(
            { kind: 'stray json', raw: '{"a":1}', type: 'application/json' },
            { kind: 'stray malformed', raw: '{', type: 'application/json' },
          ),
        },
      );
  const ifNoneMatch = fc.oneof(
    { weight: 12, arbitrary: fc.constant('none') },
    { weight: 4, arbitrary: fc.constant('last') },
    { weight: 1, arbitrary: fc.constantFrom('*', '"nope"', 'W/"x"', '"a", "b"', '', 'x'.repeat(2000), '"\u00e9"') },
  );
  const ip = fc.oneof(
    { weight: 4, arbitrary: fc.nat({ max: 2 ** 24 - 1 }).map((n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`) },
    { weight: 1, arbitrary: fc.constantFrom('203.0.113.7', '2001:db8::1') },
  );
  return fc
    .record({ method: methods, path: fc.tuple(path, query).map(([p, q]) => `${p}${renderQuery(q)}`), credential: credentials, ifNoneMatch, body, ip })
    .map((c) => ({ ...c, body: c.body ?? undefined }));
}

/** Valid creation bodies whose source and URL agree (the schema cannot say which URL fits which source). */
const validBroadcasts = fc
  .record({
    title: fc.string({ minLength: 1, maxLength: 140, unit: 'grapheme' }).filter((s) => s.trim().length > 0),
    scheduled_at: fc.integer({ min: 2027, max: 2034 }).map((y) => `${y}-06-20T19:00:00+02:00`),
    source: fc.constantFrom('youtube', 'vimeo', 'hls', 'mp4', 'ingest'),
    visibility: fc.constantFrom('public', 'unlisted', 'followers', 'ppv'),
    tags: fc.array(fc.stringMatching(/^[a-z0-9-]{1,32}$/), { maxLength: 10 }),
  })
  .map((b) => {
    const urls: Record<string, string | undefined> = {
      youtube: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      vimeo: 'https://vimeo.com/123456789',
      hls: 'https://cdn.example.com/live/stream.m3u8',
      mp4: 'https://cdn.example.com/v/fight.mp4',
      ingest: undefined,
    };
    return urls[b.source] ? { ...b, source_url: urls[b.source] } : b;
  });

/** Valid changes that every state of a broadcast accepts (the schema allows more, state permitting). */
const validPatches = fc
  .record(
    {
      title: fc.string({ minLength: 1, maxLength: 140, unit: 'grapheme' }).filter((s) => s.trim().length > 0),
      visibility: fc.constantFrom('public', 'unlisted', 'followers', 'ppv'),
      discipline: fc.constantFrom('kickboxing', 'mma', 'boxing', 'muay-thai', null),
      language: fc.stringMatching(/^[a-z]{2}$/),
      tags: fc.array(fc.stringMatching(/^[a-z0-9-]{1,32}$/), { maxLength: 10 }),
    },
    { requiredKeys: [] },
  )
  .filter((o) => Object.keys(o).length > 0);

interface Failure {
  door: string;
  method: string;
  url: string;
  credential: string;
  body?: string;
  status: number;
  problems: string[];
}

const HTTP_CALL: Record<HttpMethod, (agent: ReturnType<typeof request>, url: string) => request.Test> = {
  get: (a, u) => a.get(u),
  head: (a, u) => a.head(u),
  post: (a, u) => a.post(u),
  put: (a, u) => a.put(u),
  patch: (a, u) => a.patch(u),
  delete: (a, u) => a.delete(u),
  options: (a, u) => a.options(u),
};

let t: TestApp;
let world: World;
const ids = { own: [] as string[], other: [] as string[], slugs: [] as string[] };
const etags = new Map<string, string>();
const failures: Failure[] = [];
const tally: Record<
  string,
  { total: number; byClass: Record<string, number>; byStatus: Record<string, number>; byOperation: Record<string, Record<string, number>> }
> = {};

beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: { ...TV_ENV, AUTH_FAILURES_PER_MINUTE: '1000000' }, limiterStartMs: Date.parse('2026-06-15T12:00:00Z') });
  world = await buildWorld(t.c);
  await buildTvWorld(t.c);
  const s = t.c.services.partners;
  const actor = { id: 'fuzz' };
  await s.issueKey(actor, {
    partnerSlug: 'acme-media',
    name: 'fuzz, all scopes',
    scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    rateLimitPerMinute: 1_000_000,
    fixedToken: FUZZ_KEYS.all,
  });
  await s.issueKey(actor, { partnerSlug: 'acme-media', name: 'fuzz, events only', scopes: ['events.read', 'results.read'], fixedToken: FUZZ_KEYS.eventsOnly });
  // Broadcasts in every state, of the fuzzing channel and of another one.
  const tv = new TvClient(t.app);
  for (const fields of [
    {},
    { source: 'ingest', source_url: undefined },
    { source: 'hls', source_url: 'https://cdn.example.com/a.m3u8' },
    {},
    { visibility: 'unlisted' },
    { source: 'mp4', source_url: 'https://cdn.example.com/a.mp4' },
  ]) {
    const b = await tv.create(CK.rw, aBroadcast(fields));
    ids.own.push(b.id);
    ids.slugs.push(b.slug);
  }
  await tv.expectStatus(tv.post(`/broadcasts/${ids.own[0]}/go-live`, CK.rw), 200);
  await tv.expectStatus(tv.post(`/broadcasts/${ids.own[3]}/go-live`, CK.rw), 200);
  await tv.expectStatus(tv.post(`/broadcasts/${ids.own[3]}/end`, CK.rw), 200);
  const other = await tv.create(CK.other, aBroadcast());
  ids.other.push(other.id);
  ids.slugs.push(other.slug);
}, 120_000);
afterAll(() => t?.close());

function reals(door: Door): Reals {
  if (door.name === 'partner') {
    const n = world.numbers;
    return {
      path: {
        slug: fc.constantFrom(...Object.values(world.slugs), 'no-such-fighter'),
        code: fc.constantFrom(...Object.values(world.events), 'EV-0000-000'),
        number: fc.constantFrom(
          ...Object.values(n),
          n.activeLicence.toLowerCase(),
          n.activeFid.toLowerCase(),
          'FID-0000-0000',
          'LIC-DE-2026-999999',
          'CRT-2026-999999',
          'LIC-XX-1-1',
        ),
      },
      query: {
        country: ['germany', 'france', 'japan', 'atlantis'],
        scope: ['world', 'europe', 'asia', 'africa', 'germany', 'japan', 'atlantis'],
        wc: ['60kg', '63-5kg', '57kg', '91kg-plus'],
        event: [...Object.values(world.events), 'EV-NOPE'],
        q: ['Anna', 'mül', 'MULLER', 'The Hammer', 'zz'],
        since: ['2025-01-01', '2026-06-15', '2030-01-01'],
      },
      presets: {
        '/rankings': [
          q('disc=kickboxing&cat=pro&g=f&wc=60kg'),
          q('disc=kickboxing&cat=pro&g=f&wc=60kg&scope=europe'),
          q('disc=kickboxing&cat=pro&g=f&wc=63-5kg&scope=germany'),
          q('disc=mma&cat=am&g=f&wc=57kg'),
          q('disc=kickboxing&cat=pro&g=f&wc=60kg&scope=atlantis'),
        ],
        '/fighters': [q(''), q('q=anna'), q('country=germany&disc=kickboxing&status=licensed'), q('per_page=2&page=2')],
        '/events': [q(''), q('upcoming=1'), q('country=germany&level=world'), q('per_page=1&page=3')],
        '/results': [q(''), q('since=2026-01-01'), q(`event=${world.events.world}`), q('country=france&disc=kickboxing')],
      },
    };
  }
  const anyId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ids.own) },
    { weight: 1, arbitrary: fc.constantFrom(...ids.other, '00000000-0000-0000-0000-000000000000') },
  );
  return {
    path: {
      slug: fc.constantFrom('fight-tv', 'rival-tv', 'garage-tv', 'late-tv', 'new-tv', 'no-such-channel'),
      'get /broadcasts/{broadcast} broadcast': fc.constantFrom(...ids.slugs, 'no-such-broadcast', ids.own[0]),
      'patch /broadcasts/{broadcast} broadcast': anyId,
      id: anyId,
    },
    query: {},
    presets: {},
  };
}

function record(door: Door, op: Operation, status: number): void {
  const d = (tally[door.name] ??= { total: 0, byClass: {}, byStatus: {}, byOperation: {} });
  d.total += 1;
  const cls = `${String(status)[0]}xx`;
  d.byClass[cls] = (d.byClass[cls] ?? 0) + 1;
  d.byStatus[status] = (d.byStatus[status] ?? 0) + 1;
  const key = `${op.method.toUpperCase()} ${op.template}`;
  const perOp = (d.byOperation[key] ??= {});
  perOp[status] = (perOp[status] ?? 0) + 1;
}

async function send(door: Door, op: Operation, c: Case): Promise<Response> {
  const url = `${door.base}${c.path}`;
  let req = HTTP_CALL[c.method](request(t.app), url).set('X-Forwarded-For', c.ip);
  for (const [k, v] of Object.entries(c.credential.headers)) req = req.set(k, v);
  const etagKey = `${door.name} ${op.method} ${c.path}`;
  if (c.ifNoneMatch === 'last') {
    const last = etags.get(etagKey);
    if (last) req = req.set('If-None-Match', last);
  } else if (c.ifNoneMatch !== 'none') {
    req = req.set('If-None-Match', c.ifNoneMatch);
  }
  // No body on HEAD: superagent would send it without a Content-Length, as a second request.
  if (c.body && c.method !== 'head') {
    if (c.body.type !== undefined) req = req.set('Content-Type', c.body.type);
    if (c.body.encoding !== undefined) req = req.set('Content-Encoding', c.body.encoding);
    // A string is sent as is under the type set above; a Buffer only without one (superagent
    // serialises a Buffer under a JSON type, and gives a string without a type a form type).
    if (c.body.raw !== undefined) req = req.send(c.body.type === undefined ? Buffer.from(c.body.raw, 'utf8') : c.body.raw);
  }
  const res = await req;
  const etag = res.headers.etag;
  if (typeof etag === 'string') etags.set(etagKey, etag);
  return res;
}

/** Everything the document and the error contract say about one answer. */
function problemsOf(door: Door, op: Operation, c: Case, res: Response): string[] {
  const problems: string[] = [];
  const pathname = `${door.base}${c.path}`.split('?')[0];
  if (res.status >= 500) problems.push(`a ${res.status}`);
  problems.push(...door.validator.validate(c.method, pathname, res.status, res.body, res.headers as Record<string, unknown>));
  if (res.status >= 400 && c.method !== 'head' && res.status !== 304) {
    const body = res.body as Record<string, unknown>;
    if (!body || typeof body.error !== 'string' || typeof body.message !== 'string') {
      problems.push(`error answer without {error, message}: ${JSON.stringify(res.body)?.slice(0, 200)} (${res.headers['content-type']})`);
    } else if (res.status === 405) {
      if (body.error !== 'method_not_allowed') problems.push(`405 with error "${body.error}", not method_not_allowed`);
      if (!res.headers.allow) problems.push('405 without an Allow header');
    } else {
      const documented = door.doc.paths[op.template][c.method] ? c.method : null;
      const codes = documented ? documentedErrorCodes(door.doc, op.template, documented, res.status) : undefined;
      if (!documented) problems.push(`${res.status} for an undocumented method (expected 405)`);
      else if (!codes) problems.push(`the document enumerates no error codes for ${res.status}`);
      else if (!codes.includes(body.error)) problems.push(`error "${body.error}" is not among the documented ${res.status} codes (${codes.join(', ')})`);
    }
  }
  return problems;
}

function describeBody(body?: BodyCase): string | undefined {
  if (!body) return undefined;
  const raw = body.raw === undefined ? '(none)' : body.raw.length > 160 ? `${body.raw.slice(0, 160)}... (${body.raw.length} chars)` : body.raw;
  return `${body.kind} [${body.type ?? 'no type'}${body.encoding ? `, ${body.encoding}` : ''}] ${raw}`;
}

describe.each(doors)('$name API, fuzzed from its document', (door) => {
  const ops = operationsOf(door.doc);

  it('documents operations to fuzz', () => {
    expect(ops.length).toBeGreaterThan(5);
  });

  it.each(ops.map((op, i) => ({ op, i, name: `${op.method.toUpperCase()} ${op.template}` })))(
    '$name',
    async ({ op, i }) => {
      const credentials = door.name === 'partner' ? partnerCredentials() : tvCredentials();
      const before = failures.length;
      await fc.assert(
        fc.asyncProperty(caseOf(door, op, reals(door), credentials), async (c) => {
          t.limiterClock.advance(1000);
          let res: Response;
          try {
            res = await send(door, op, c);
          } catch (err) {
            // e.g. a header larger than an HTTP client accepts: the answer is unusable
            failures.push({
              door: door.name,
              method: c.method.toUpperCase(),
              url: `${door.base}${c.path}`.slice(0, 240),
              credential: c.credential.label,
              body: describeBody(c.body),
              status: 0,
              problems: [`the client could not read the answer: ${(err as Error).message}`],
            });
            return;
          }
          record(door, op, res.status);
          const problems = problemsOf(door, op, c, res);
          if (problems.length > 0) {
            failures.push({
              door: door.name,
              method: c.method.toUpperCase(),
              url: `${door.base}${c.path}`.slice(0, 240),
              credential: c.credential.label,
              body: describeBody(c.body),
              status: res.status,
              problems,
            });
          }
        }),
        { seed: SEED + (door.name === 'tv' ? 1000 : 0) + i, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
      const mine = failures.slice(before);
      // One line per distinct problem, with the first request that showed it.
      const distinct = new Map<string, Failure>();
      for (const f of mine) for (const p of f.problems) if (!distinct.has(p)) distinct.set(p, f);
      expect(
        [...distinct.entries()].map(
          ([p, f]) => `${p}\n      ${f.method} ${f.url} [${f.credential}]${f.body ? `\n      body: ${f.body}` : ''}\n      -> ${f.status}`,
        ),
      ).toEqual([]);
    },
    300_000,
  );
});

afterAll(() => {
  const lines = [`REST fuzzing summary (seed ${SEED}, ${RUNS_PER_OPERATION} requests per operation):`];
  for (const [name, d] of Object.entries(tally)) {
    lines.push(`  ${name}: ${d.total} requests; by class ${JSON.stringify(d.byClass)}; by status ${JSON.stringify(d.byStatus)}`);
    for (const [op, statuses] of Object.entries(d.byOperation)) {
      const n = Object.values(statuses).reduce((a, b) => a + b, 0);
      lines.push(
        `    ${op}: ${n} (${Object.entries(statuses)
          .map(([st, k]) => `${st}: ${k}`)
          .join(', ')})`,
      );
    }
  }
  lines.push(`  failures: ${failures.length}`);
  console.log(lines.join('\n'));
});
