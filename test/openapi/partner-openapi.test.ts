import type { Response } from 'supertest';
import { buildPartnerOpenApi, PARTNER_API_PATHS, renderPartnerOpenApi } from '../../src/rest/openapi.document';
import { itIsAValidCheckedInDocument, methodsOf } from '../helpers/openapi-document-checks';
import { createOpenApiValidator } from '../helpers/openapi.validator';
import * as responses from '../../src/rest/schemas/responses';

const BASE = '/api/v1';

/**
 * The contract (docs/partner-api.md, docs/decisions.md), written here independently of the document: every path of the
 * partner API and the scope it requires (`undefined`: none).
 */
const SCOPES: Record<string, string | undefined> = {
  '/rankings': 'rankings.read',
  '/divisions': 'rankings.read',
  '/fighters': 'fighters.read',
  '/fighters/{slug}': 'fighters.read',
  '/events': 'events.read',
  '/events/{code}': 'events.read',
  '/events/{code}/results': 'results.read',
  '/results': 'results.read',
  '/verify/{number}': undefined,
  '/me': undefined,
  '/openapi.json': undefined,
};

// ---------------------------------------------------------------------------------------------
// Sample bodies (hand-built, no server)
// ---------------------------------------------------------------------------------------------

const AS_OF = '2026-11-20';
const country = { slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' };
const division = {
  discipline: 'kickboxing',
  category: 'pro',
  gender: 'm',
  weight_class: '67kg',
  label: 'Kickboxing, Pro, Men, 67 kg',
};
const record = { W: 10, L: 2, D: 1, NC: 0, KO: 4 };
const summary = {
  slug: 'max-mueller',
  name: 'Max Müller',
  nickname: null,
  country,
  division,
  status: 'licensed',
  ranking_published: true,
  licence_status: 'active',
  fighter_code: 'FID-7K3M-Q9TZ',
};
const fighter = { ...summary, points: 123.5, record, ranks: { world: 12, europe: 4, germany: 1 } };
const event = {
  code: 'GER-2026-001',
  name: 'Berlin Open',
  city: 'Berlin',
  country: 'germany',
  date: '2026-03-14',
  level: 'international',
  multiplier: 1.5,
  is_live: false,
  status: 'completed',
  url: 'http://localhost:3000/events/GER-2026-001',
};
const points = { base: 12, multiplier: 1.5, time_value: 1, total: 18 };
const bout = { event, opponent: 'Jan Novak', result: 'W', method: 'KO', round: 2, points };
const result = { event, fighter: summary, opponent: 'Jan Novak', result: 'W', method: 'KO', round: 2, points };
const meta = { page: 1, per_page: 25, total: 1, last_page: 1 };
const minor = { name: 'Lena Junior', country, division };

const validBodies: Array<[string, unknown]> = [
  [
    '/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg',
    {
      as_of: AS_OF,
      division,
      scope: 'world',
      count: 2,
      data: [
        { rank: 1, movement: 2, points: 150, record, fighter: summary },
        { rank: 2, movement: null, points: 120.25, record, fighter: { ...summary, slug: 'other', nickname: 'The Wall' } },
      ],
    },
  ],
  [
    '/divisions',
    {
      as_of: AS_OF,
      count: 1,
      data: [
        {
          ...division,
          ranked: 31,
          query: { disc: 'kickboxing', cat: 'pro', g: 'm', wc: '67kg' },
          leader: { points: 150, fighter: summary },
        },
      ],
    },
  ],
  ['/fighters?q=max&page=1&per_page=25', { as_of: AS_OF, meta, data: [fighter, { ...fighter, points: null, ranks: null, fighter_code: null }] }],
  ['/fighters/max-mueller', { as_of: AS_OF, data: { ...fighter, bouts: [bout, { ...bout, method: null, round: null, result: 'D' }] } }],
  ['/fighters/lena-junior', { as_of: AS_OF, data: minor }],
  ['/events?upcoming=1', { as_of: AS_OF, meta, data: [event, { ...event, city: null, level: null, multiplier: 1 }] }],
  ['/events/GER-2026-001', { as_of: AS_OF, data: event }],
  ['/events/GER-2026-001/results', { as_of: AS_OF, event, count: 1, data: [result] }],
  ['/results?since=2026-01-01', { as_of: AS_OF, meta: { ...meta, total: 0, page: 3 }, data: [] }],
  ['/verify/FID-7K3M-Q9TZ', { as_of: AS_OF, valid: true, status: 'ACTIVE', matched: 'fighter_code', fighter: summary }],
  ['/verify/LIC-DE-2020-000001', { as_of: AS_OF, valid: false, status: 'NO MATCHING RECORD', matched: 'licence_no', fighter: null }],
  ['/verify/CRT-2025-000123', { as_of: AS_OF, valid: true, status: 'ACTIVE', matched: 'certificate_no', fighter: minor }],
  [
    '/me',
    {
      as_of: AS_OF,
      data: {
        name: 'Demo full',
        partner: { slug: 'demo', name: 'Demo Partner', status: 'active' },
        scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
        rate_limit_per_minute: 60,
        expires_at: null,
        request_count: 7,
      },
    },
  ],
  ['/me', { as_of: AS_OF, data: { name: 'k', partner: null, scopes: [], rate_limit_per_minute: 5, expires_at: '2027-01-01T00:00:00Z', request_count: 1 } }],
  ['/openapi.json', buildPartnerOpenApi()],
];

const okHeaders = {
  'x-request-id': 'req_1',
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1790000000',
  // sent by list answers only; extra headers are no violation elsewhere
  link: '<https://svc.test/api/v1/fighters?page=1>; rel="first", <https://svc.test/api/v1/fighters?page=1>; rel="last"',
  etag: 'W/"abc"',
  'content-type': 'application/json; charset=utf-8',
};

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

describe('partner OpenAPI document', () => {
  const doc = buildPartnerOpenApi() as any;

  itIsAValidCheckedInDocument({
    build: buildPartnerOpenApi,
    render: renderPartnerOpenApi,
    schemaFile: 'schema/openapi.json',
    title: 'Ranking partner API',
    version: '1.1.0',
    basePath: BASE,
  });

  it('describes every endpoint of the contract, GET only', () => {
    expect(Object.keys(doc.paths)).toEqual([...PARTNER_API_PATHS]);
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(SCOPES).sort());
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect({ path, methods: methodsOf(item) }).toEqual({ path, methods: ['get'] });
      expect(item.description).toMatch(/405/);
    }
    expect(doc.info.description).toMatch(/405 `method_not_allowed`/);
  });

  it('has both security schemes, required everywhere except /openapi.json', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (path === '/openapi.json') expect(item.get.security).toEqual([]);
      else expect(item.get.security).toBeUndefined();
    }
  });

  it('documents scopes and error answers per endpoint', () => {
    const withNotFound = ['/fighters/{slug}', '/events/{code}', '/events/{code}/results', '/verify/{number}'];
    const invalid: Record<string, string[]> = {
      '/rankings': ['invalid_disc', 'invalid_cat', 'invalid_g', 'invalid_wc', 'invalid_scope', 'invalid_division'],
      '/fighters': ['invalid_q', 'invalid_country', 'invalid_disc', 'invalid_status', 'invalid_page', 'invalid_per_page'],
      '/events': ['invalid_country', 'invalid_level', 'invalid_upcoming', 'invalid_page', 'invalid_per_page'],
      '/results': ['invalid_since', 'invalid_country', 'invalid_disc', 'invalid_event', 'invalid_page', 'invalid_per_page'],
      '/verify/{number}': ['invalid_number'],
    };
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const op = item.get;
      const statuses = Object.keys(op.responses);
      expect({ path, scope: op['x-required-scope'] }).toEqual({ path, scope: SCOPES[path] });
      const expected = ['200', '304'];
      if (withNotFound.includes(path)) expected.push('400');
      if (path !== '/openapi.json') expected.push('401');
      if (SCOPES[path]) expected.push('403');
      if (withNotFound.includes(path)) expected.push('404');
      if (invalid[path]) expected.push('422');
      if (path !== '/openapi.json') expected.push('429');
      expected.push('500');
      if (path !== '/openapi.json') expected.push('503');
      expect({ path, statuses }).toEqual({ path, statuses: expected });
      if (invalid[path]) {
        const schema = op.responses['422'].content['application/json'].schema;
        expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
        expect({ path, codes: schema.allOf[1].properties.error.enum }).toEqual({ path, codes: invalid[path] });
      }
      expect(Object.keys(op.responses['200'].headers)).toEqual(
        expect.arrayContaining(
          path === '/openapi.json' ? ['X-Request-Id', 'ETag'] : ['X-Request-Id', 'ETag', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
        ),
      );
      expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/IfNoneMatch' });
    }
    const { responses, headers } = doc.components;
    expect(responses.Unauthorized.headers['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate' });
    expect(responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(headers['Retry-After'].schema).toEqual(expect.objectContaining({ type: 'integer', minimum: 1 }));
  });

  it('documents the paging defaults and the verify number formats', () => {
    const { parameters } = doc.components;
    expect(parameters.Page.schema).toEqual({ type: 'integer', minimum: 1, maximum: 999999999, default: 1 });
    expect(parameters.PerPage.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    expect(parameters.SearchQuery.schema).toEqual({ type: 'string', minLength: 2, maxLength: 100 });
    expect(parameters.Upcoming.schema.enum).toEqual(['0', '1']);
    expect(parameters.DocumentNumber.description).toMatch(/FID-XXXX-XXXX/);
    expect(parameters.DocumentNumber.description).toMatch(/LIC-CC-YYYY-NNNNNN/);
    expect(parameters.DocumentNumber.description).toMatch(/CRT-YYYY-NNNNNN/);
  });
});

describe('partner response schemas (the zod source of the document)', () => {
  const byPath: Array<[RegExp, { safeParse(body: unknown): { success: boolean } }]> = [
    [/^\/rankings/, responses.RankingResponse],
    [/^\/divisions/, responses.DivisionListResponse],
    [/^\/fighters\?/, responses.FighterListResponse],
    [/^\/fighters\//, responses.FighterProfileResponse],
    [/^\/events\?/, responses.EventListResponse],
    [/^\/events\/[^/]+\/results/, responses.EventResultsResponse],
    [/^\/events\//, responses.EventResponse],
    [/^\/results/, responses.ResultListResponse],
    [/^\/verify\//, responses.VerificationResponse],
    [/^\/me/, responses.KeyInfoResponse],
  ];
  const schemaFor = (path: string) => byPath.find(([re]) => re.test(path))?.[1];

  it.each(validBodies.filter(([path]) => path !== '/openapi.json'))('accept the valid body of GET %s', (path, body) => {
    expect(schemaFor(path)?.safeParse(body).success).toBe(true);
  });

  it('refuse what the document refuses: an extra field, a minor with a slug', () => {
    expect(responses.EventResponse.safeParse({ as_of: AS_OF, data: { ...event, secret: 1 } }).success).toBe(false);
    expect(responses.FighterProfileResponse.safeParse({ as_of: AS_OF, data: { ...minor, slug: 'lena' } }).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The response validator
// ---------------------------------------------------------------------------------------------

describe('createOpenApiValidator', () => {
  const v = createOpenApiValidator(buildPartnerOpenApi(), BASE);
  const get = (path: string, status: number, body: unknown, headers?: Record<string, unknown>) => v.validate('GET', `${BASE}${path}`, status, body, headers);

  it.each(validBodies)('accepts a valid body of GET %s', (path, body) => {
    expect(get(path, 200, body)).toEqual([]);
    expect(get(path, 200, body, okHeaders)).toEqual([]);
  });

  it('accepts documented error answers', () => {
    expect(
      get(
        '/me',
        401,
        { error: 'invalid_key', message: 'Unknown key' },
        { 'x-request-id': 'r', 'www-authenticate': 'Bearer', 'content-type': 'application/json' },
      ),
    ).toEqual([]);
    expect(get('/rankings', 403, { error: 'insufficient_scope', message: 'needs rankings.read' })).toEqual([]);
    expect(get('/fighters/nobody', 404, { error: 'not_found', message: 'No such fighter' })).toEqual([]);
    expect(get('/rankings?disc=x', 422, { error: 'invalid_disc', message: 'disc must be one of ...' })).toEqual([]);
    expect(get('/rankings', 422, { error: 'invalid_division', message: 'wc is missing' })).toEqual([]);
    expect(get('/verify/nope', 422, { error: 'invalid_number', message: 'bad format' })).toEqual([]);
    expect(get('/results', 429, { error: 'rate_limited', message: 'slow down' })).toEqual([]);
    expect(get('/results', 500, { error: 'internal', message: 'oops', request_id: 'req_1' })).toEqual([]);
  });

  it('reports a missing field', () => {
    const { as_of: _omitted, ...body } = { as_of: AS_OF, data: event };
    const errors = get('/events/GER-2026-001', 200, body);
    expect(errors).toEqual([expect.stringMatching(/must have required property 'as_of'/)]);
    const nested = get('/events/GER-2026-001', 200, { as_of: AS_OF, data: { ...event, url: undefined } });
    expect(nested.join('\n')).toMatch(/body\/data must have required property 'url'/);
  });

  it('reports a wrong type', () => {
    expect(get('/events/X', 200, { as_of: AS_OF, data: { ...event, multiplier: '1.5' } })).toEqual([
      expect.stringMatching(/body\/data\/multiplier must be number/),
    ]);
    expect(get('/events/X', 200, { as_of: 'yesterday', data: event })).toEqual([expect.stringMatching(/body\/as_of must match format "date"/)]);
    expect(get('/events/X', 200, { as_of: AS_OF, data: { ...event, status: 'postponed' } })).toEqual([
      expect.stringMatching(/body\/data\/status must be equal to one of the allowed values/),
    ]);
    expect(get('/events/X', 200, { as_of: AS_OF, data: { ...event, name: null } })).toEqual([expect.stringMatching(/body\/data\/name must be string/)]);
  });

  it('reports an extra field, also deep inside', () => {
    expect(get('/events/X', 200, { as_of: AS_OF, data: event, extra: 1 })).toEqual([
      expect.stringMatching(/body must NOT have additional properties \(unexpected property "extra"\)/),
    ]);
    const leaky = { ...fighter, country: { ...country, email: 'x@example.com' } };
    expect(get('/fighters', 200, { as_of: AS_OF, meta, data: [leaky] }).join('\n')).toMatch(
      /body\/data\/0\/country must NOT have additional properties \(unexpected property "email"\)/,
    );
  });

  it('keeps minors reduced', () => {
    expect(get('/fighters/lena', 200, { as_of: AS_OF, data: { ...minor, slug: 'lena' } })).not.toEqual([]);
    expect(get('/verify/FID-AAAA-BBBB', 200, { as_of: AS_OF, valid: true, status: 'ACTIVE', matched: 'fighter_code', fighter })).not.toEqual([]);
  });

  it('reports an undocumented status', () => {
    expect(get('/me', 403, { error: 'insufficient_scope', message: 'x' })).toEqual([expect.stringMatching(/GET \/me 403: status 403 is not documented/)]);
    expect(get('/divisions', 422, { error: 'invalid_x', message: 'x' })).toEqual([expect.stringMatching(/status 422 is not documented/)]);
    expect(get('/rankings', 418, {})).toEqual([expect.stringMatching(/status 418 is not documented/)]);
  });

  it('reports an error code the answer does not document', () => {
    expect(get('/me', 401, { error: 'nope', message: 'x' }).join('\n')).toMatch(/body\/error must be equal to one of the allowed values/);
    expect(get('/rankings', 422, { error: 'invalid_page', message: 'x' })).not.toEqual([]);
    expect(get('/rankings', 422, { message: 'x' }).join('\n')).toMatch(/required property 'error'/);
  });

  it('reports an unknown path or a path outside the base', () => {
    expect(get('/nope', 200, {})).toEqual([expect.stringMatching(/path \/nope is not in the document/)]);
    expect(get('/fighters/a/b', 200, {})).toEqual([expect.stringMatching(/is not in the document/)]);
    expect(v.validate('GET', '/api/v2/me', 200, {})).toEqual([expect.stringMatching(/not under the base path/)]);
  });

  it('matches literal segments before parameters', () => {
    const results = { as_of: AS_OF, event, count: 1, data: [result] };
    expect(get('/events/E1/results', 200, results)).toEqual([]);
    expect(get('/events/E1', 200, results)).not.toEqual([]);
  });

  it('handles HEAD, 304 and other methods', () => {
    expect(v.validate('HEAD', `${BASE}/rankings`, 200, undefined)).toEqual([]);
    expect(v.validate('GET', `${BASE}/rankings?disc=mma`, 304, {})).toEqual([]);
    expect(v.validate('POST', `${BASE}/rankings`, 405, { error: 'method_not_allowed', message: 'GET, HEAD' })).toEqual([]);
    expect(v.validate('POST', `${BASE}/rankings`, 405, { message: 'x' }).join('\n')).toMatch(/required property 'error'/);
    expect(v.validate('POST', `${BASE}/rankings`, 200, {})).toEqual([expect.stringMatching(/method POST is not documented/)]);
  });

  it('checks required headers and the content type when headers are given', () => {
    const body = { as_of: AS_OF, data: event };
    expect(get('/events/E1', 200, body, okHeaders)).toEqual([]);
    const { 'x-request-id': _r, ...noId } = okHeaders;
    expect(get('/events/E1', 200, body, noId)).toEqual([expect.stringMatching(/missing header X-Request-Id/)]);
    expect(get('/events/E1', 200, body, { ...okHeaders, 'x-ratelimit-remaining': 'many' })).toEqual([
      expect.stringMatching(/header X-RateLimit-Remaining must be an integer/),
    ]);
    expect(get('/events/E1', 200, body, { ...okHeaders, 'content-type': 'text/html' })).toEqual([
      expect.stringMatching(/content type must be application\/json/),
    ]);
    expect(get('/events/E1', 429, { error: 'rate_limited', message: 'x' }, okHeaders)).toEqual([expect.stringMatching(/missing header Retry-After/)]);
    expect(get('/openapi.json', 200, {}, { 'x-request-id': 'r', etag: '"1"', 'content-type': 'application/json' })).toEqual([]);
  });

  it('expectValid reads a supertest response and throws a readable error', () => {
    const fake = (status: number, body: unknown, path = `${BASE}/events/E1?x=1`) =>
      ({ status, body, headers: okHeaders, req: { method: 'GET', path } }) as unknown as Response;
    expect(() => v.expectValid(fake(200, { as_of: AS_OF, data: event }))).not.toThrow();
    expect(() => v.expectValid(fake(200, { as_of: AS_OF, data: { ...event, secret: 1 } }))).toThrow(
      /does not conform to the OpenAPI document \(1 violation\):\n {2}- GET \/events\/\{code\} 200: body\/data must NOT have additional properties \(unexpected property "secret"\)/,
    );
    expect(() => v.expectValid(fake(200, {}, `${BASE}/unknown`))).toThrow(/is not in the document/);
  });
});
