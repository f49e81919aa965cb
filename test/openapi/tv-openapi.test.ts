import { buildTvOpenApi, renderTvOpenApi, TV_API_PATHS } from '../../src/tv/openapi-tv.document';
import { itIsAValidCheckedInDocument, methodsOf } from '../helpers/openapi-document-checks';
import { createOpenApiValidator } from '../helpers/openapi.validator';

const BASE = '/api/tv';

// ---------------------------------------------------------------------------------------------
// Sample bodies (hand-built, no server)
// ---------------------------------------------------------------------------------------------

const channel = { slug: 'fight-night-tv', name: 'Fight Night TV' };
const common = {
  id: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
  slug: 'berlin-open-finals',
  channel,
  title: 'Berlin Open: finals',
  source: 'youtube',
  source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  scheduled_at: '2026-11-20T18:00:00.000Z',
  started_at: null,
  ended_at: null,
  state: 'scheduled',
  visibility: 'public',
  discipline: 'kickboxing',
  language: 'de',
  tags: ['finals', 'berlin'],
  replay_url: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};
const ingestCommon = { ...common, id: '9a7b1c2d-3e4f-4a6b-8f2b-3f2b8c1e5d4a', slug: 'gym-live', source: 'ingest', source_url: null };
const SERVER_URL = 'rtmps://ingest.example.com/live';

const publicBroadcast = { ...common, locked: false };
const lockedBroadcast = { ...common, visibility: 'ppv', source_url: null, locked: true };
const ownBroadcast = { ...common };
const ownIngest = { ...ingestCommon, ingest: { server_url: SERVER_URL } };
const ownIngestWithKey = { ...ingestCommon, ingest: { server_url: SERVER_URL, stream_key: 'sk_live_abc123' } };
const meta = { page: 1, per_page: 25, total: 2, last_page: 1 };
const health = {
  broadcast_id: ingestCommon.id,
  state: 'live',
  signal: 'receiving',
  bitrate_kbps: 4500,
  resolution: '1920x1080',
  fps: 29.97,
  viewers: 120,
  warnings: [],
  updated_at: '2026-11-20T18:05:00.000Z',
};
const externalHealth = {
  broadcast_id: common.id,
  state: 'scheduled',
  signal: 'external',
  bitrate_kbps: null,
  resolution: null,
  fps: null,
  viewers: null,
  warnings: [],
  updated_at: null,
};
const me = {
  channel: {
    ...channel,
    plan: 'pro',
    billing_state: 'trialing',
    approved: true,
    live_slots: { used: 1, total: 3 },
  },
  key: { name: 'Encoder', prefix: 'ck_Ab3d', scopes: ['read', 'broadcasts:write'] },
  broadcasts: [ownBroadcast, ownIngest],
};

const okHeaders = {
  'x-request-id': 'req_1',
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1790000000',
  // sent by list answers only; extra headers are no violation elsewhere
  link: '<https://svc.test/api/tv/live?page=1>; rel="first", <https://svc.test/api/tv/live?page=1>; rel="last"',
  etag: '"abc"',
  'content-type': 'application/json; charset=utf-8',
};
const { etag: _etag, ...writeHeaders } = okHeaders;

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

describe('TV OpenAPI document', () => {
  const doc = buildTvOpenApi() as any;

  itIsAValidCheckedInDocument({
    build: buildTvOpenApi,
    render: renderTvOpenApi,
    schemaFile: 'schema/openapi-tv.json',
    title: 'TV API',
    version: '1.0.0',
    basePath: BASE,
  });

  it('describes every endpoint of the contract with its methods', () => {
    const expected: Record<string, string[]> = {
      '/live': ['get'],
      '/upcoming': ['get'],
      '/channels': ['get'],
      '/channels/{slug}': ['get'],
      '/broadcasts/{broadcast}': ['get', 'patch'],
      '/me': ['get'],
      '/broadcasts': ['post'],
      '/broadcasts/{id}/go-live': ['post'],
      '/broadcasts/{id}/end': ['post'],
      '/broadcasts/{id}/rotate-stream-key': ['post'],
      '/broadcasts/{id}/health': ['get'],
      '/openapi.json': ['get'],
    };
    expect(Object.keys(doc.paths)).toEqual([...TV_API_PATHS]);
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(expected).sort());
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect({ path, methods: methodsOf(item) }).toEqual({ path, methods: expected[path] });
    }
  });

  it('has the channelKey bearer scheme, with public operations open and channel operations scoped', () => {
    expect(doc.components.securitySchemes).toEqual({
      channelKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(doc.security).toEqual([{ channelKey: [] }]);
    const scopes: Record<string, string | undefined> = {
      'GET /live': undefined,
      'GET /upcoming': undefined,
      'GET /channels': undefined,
      'GET /channels/{slug}': undefined,
      'GET /broadcasts/{broadcast}': undefined,
      'PATCH /broadcasts/{broadcast}': 'broadcasts:write',
      'GET /me': 'read',
      'POST /broadcasts': 'broadcasts:write',
      'POST /broadcasts/{id}/go-live': 'broadcasts:write',
      'POST /broadcasts/{id}/end': 'broadcasts:write',
      'POST /broadcasts/{id}/rotate-stream-key': 'broadcasts:write',
      'GET /broadcasts/{id}/health': 'read',
      'GET /openapi.json': undefined,
    };
    const seen: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of ['get', 'post', 'patch']) {
        const op = item[method];
        if (!op) continue;
        const key = `${method.toUpperCase()} ${path}`;
        seen.push(key);
        const scope = scopes[key];
        expect({ key, scope: op['x-required-scope'] }).toEqual({ key, scope });
        if (scope === undefined) {
          expect({ key, security: op.security }).toEqual({ key, security: [] });
          expect(op.responses['401']).toBeUndefined();
        } else {
          expect({ key, security: op.security }).toEqual({ key, security: undefined });
          expect(op.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
          expect(op.responses['403']).toBeDefined();
        }
      }
    }
    expect(seen.sort()).toEqual(Object.keys(scopes).sort());
  });

  it('documents the error answers of each operation', () => {
    const codes = (response: any): string[] => {
      const resolved = response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;
      return resolved.content['application/json'].schema.allOf[1].properties.error.enum;
    };
    const op = (path: string, method: string) => doc.paths[path][method];

    for (const path of ['/live', '/upcoming', '/channels']) {
      expect(Object.keys(op(path, 'get').responses)).toEqual(['200', '304', '422', '429', '500', '503']);
      expect(codes(op(path, 'get').responses['422'])).toEqual(['invalid_page', 'invalid_per_page']);
    }
    for (const path of ['/channels/{slug}', '/broadcasts/{broadcast}']) {
      expect(Object.keys(op(path, 'get').responses)).toEqual(['200', '304', '400', '404', '429', '500', '503']);
    }
    // The POSTs take Idempotency-Key (docs/decisions.md#idempotency): 400 invalid_idempotency_key, 409 in progress, 422 reused.
    expect(Object.keys(op('/broadcasts', 'post').responses)).toEqual(['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    expect(codes(op('/broadcasts', 'post').responses['422'])).toEqual([
      'invalid_title',
      'invalid_source',
      'invalid_source_url',
      'invalid_scheduled_at',
      'invalid_visibility',
      'invalid_discipline',
      'invalid_language',
      'invalid_tags',
      'invalid_body',
      'idempotency_key_reused',
    ]);
    expect(codes(op('/broadcasts', 'post').responses['400'])).toEqual(['invalid_idempotency_key', 'invalid_json']);
    expect(codes(op('/broadcasts', 'post').responses['409'])).toEqual(['idempotency_key_in_progress']);
    expect(codes(op('/broadcasts/{broadcast}', 'patch').responses['409'])).toEqual(['invalid_state']);
    const goLive = op('/broadcasts/{id}/go-live', 'post').responses;
    expect(codes(goLive['402'])).toEqual(['billing_inactive']);
    expect(codes(goLive['403'])).toEqual(['insufficient_scope', 'plan_forbids_source']);
    expect(codes(goLive['409'])).toEqual(['invalid_state', 'no_live_slot', 'idempotency_key_in_progress']);
    expect(codes(op('/broadcasts/{id}/rotate-stream-key', 'post').responses['409'])).toEqual(['invalid_state', 'idempotency_key_in_progress']);
    for (const action of ['go-live', 'end', 'rotate-stream-key']) {
      const responses = op(`/broadcasts/{id}/${action}`, 'post').responses;
      expect({ action, statuses: Object.keys(responses) }).toEqual({
        action,
        statuses: ['200', '400', '401', ...(action === 'go-live' ? ['402'] : []), '403', '404', '409', '422', '429', '500', '503'],
      });
      expect(codes(responses['400'])).toEqual(['invalid_idempotency_key', 'invalid_path']);
      expect(codes(responses['422'])).toEqual(['idempotency_key_reused']);
    }
    expect(Object.keys(op('/broadcasts/{broadcast}', 'patch').responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(codes(op('/broadcasts/{broadcast}', 'patch').responses['400'])).toEqual(['invalid_json', 'invalid_path']);
    expect(Object.keys(op('/broadcasts', 'post').responses['201'].headers)).toContain('Location');
    expect(Object.keys(op('/me', 'get').responses)).toEqual(['200', '304', '401', '403', '429', '500', '503']);
    expect(Object.keys(op('/openapi.json', 'get').responses)).toEqual(['200', '304', '500']);

    const { responses, headers } = doc.components;
    expect(Object.keys(responses.Unauthorized.headers)).toEqual(['X-Request-Id', 'WWW-Authenticate']);
    expect(Object.keys(responses.TooManyRequests.headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    expect(Object.keys(responses.InternalError.headers)).toEqual(['X-Request-Id']);
    expect(headers['Retry-After'].schema).toEqual(expect.objectContaining({ type: 'integer', minimum: 1 }));
    expect(doc.components.parameters.PerPage.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
  });

  it('documents the rules in words', () => {
    const text = JSON.stringify(doc);
    expect(doc.info.description).toMatch(/`scheduled` → `live` \(go-live\) → `ended` \(end\) → `replay`/);
    expect(doc.info.description).toMatch(/`free` 1, `pro` 3, `broadcaster` 10/);
    expect(doc.info.description).toMatch(/shown once only/);
    expect(doc.paths['/broadcasts/{broadcast}'].patch.description).toMatch(/while `live`, any but `source`, `source_url` and `scheduled_at`/);
    expect(doc.components.parameters.BroadcastRef.description).toMatch(/slug.*id/s);
    expect(text).toMatch(/120 requests per channel key, or 60 per client IP/);
  });
});

// ---------------------------------------------------------------------------------------------
// Answers checked against the document
// ---------------------------------------------------------------------------------------------

describe('TV answers checked against the document', () => {
  const v = createOpenApiValidator(buildTvOpenApi(), BASE);
  const check = (method: string, path: string, status: number, body: unknown, headers?: Record<string, unknown>) =>
    v.validate(method, `${BASE}${path}`, status, body, headers);

  it('accepts valid public answers', () => {
    expect(check('GET', '/broadcasts/berlin-open-finals', 200, { data: publicBroadcast }, okHeaders)).toEqual([]);
    expect(check('GET', '/broadcasts/berlin-open-finals', 200, { data: lockedBroadcast })).toEqual([]);
    expect(check('GET', '/broadcasts/gym-live', 200, { data: { ...ingestCommon, locked: false } })).toEqual([]);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, visibility: 'unlisted' } })).toEqual([]);
    const list = { meta, data: [publicBroadcast, lockedBroadcast] };
    expect(check('GET', '/live?page=1', 200, list, okHeaders)).toEqual([]);
    expect(check('GET', '/upcoming', 200, { meta: { ...meta, page: 9, total: 2 }, data: [] })).toEqual([]);
    expect(check('GET', '/channels', 200, { meta, data: [{ ...channel, live_count: 1, upcoming_count: 0 }] })).toEqual([]);
    expect(
      check('GET', '/channels/fight-night-tv', 200, {
        data: {
          ...channel,
          live: [publicBroadcast],
          upcoming: [],
          replays: [{ ...publicBroadcast, state: 'replay', replay_url: 'https://cdn.example.com/r.m3u8' }],
        },
      }),
    ).toEqual([]);
    expect(check('GET', '/openapi.json', 200, buildTvOpenApi())).toEqual([]);
  });

  it('rejects a public broadcast with ingest details or a stream key', () => {
    expect(check('GET', '/broadcasts/gym-live', 200, { data: { ...ingestCommon, locked: false, ingest: { server_url: SERVER_URL } } }).join('\n')).toMatch(
      /unexpected property "ingest"/,
    );
    expect(check('GET', '/broadcasts/gym-live', 200, { data: { ...ingestCommon, locked: false, stream_key: 'sk_live_abc123' } }).join('\n')).toMatch(
      /unexpected property "stream_key"/,
    );
    expect(check('GET', '/live', 200, { meta, data: [{ ...publicBroadcast, ingest: { server_url: SERVER_URL, stream_key: 'k' } }] })).not.toEqual([]);
  });

  it('rejects a locked broadcast that shows its source or replay, and a mislabelled lock', () => {
    expect(check('GET', '/broadcasts/x', 200, { data: { ...lockedBroadcast, source_url: 'https://www.youtube.com/watch?v=1' } })).not.toEqual([]);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...lockedBroadcast, replay_url: 'https://cdn.example.com/r.m3u8' } })).not.toEqual([]);
    expect(check('GET', '/upcoming', 200, { meta, data: [{ ...publicBroadcast, visibility: 'followers' }] })).not.toEqual([]);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, locked: true, source_url: null } })).not.toEqual([]);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, locked: undefined } }).join('\n')).toMatch(/required property 'locked'/);
  });

  it('accepts valid channel answers and shows the stream key only where it belongs', () => {
    const created = { ...writeHeaders, location: '/api/tv/broadcasts/gym-live' };
    expect(check('POST', '/broadcasts', 201, { data: ownIngestWithKey }, created)).toEqual([]);
    expect(check('POST', '/broadcasts', 201, { data: ownIngestWithKey }, writeHeaders)).toEqual([expect.stringMatching(/missing header Location/)]);
    expect(check('POST', '/broadcasts', 201, { data: ownBroadcast })).toEqual([]);
    expect(check('PATCH', `/broadcasts/${common.id}`, 200, { data: ownIngestWithKey })).toEqual([]);
    expect(check('PATCH', `/broadcasts/${common.id}`, 200, { data: { ...ownBroadcast, title: 'New' } })).toEqual([]);
    expect(check('POST', `/broadcasts/${ingestCommon.id}/rotate-stream-key`, 200, { data: ownIngestWithKey })).toEqual([]);
    expect(check('POST', `/broadcasts/${ingestCommon.id}/rotate-stream-key`, 200, { data: ownIngest })).not.toEqual([]);
    const live = { ...ownIngest, state: 'live', started_at: '2026-11-20T18:01:00.000Z' };
    expect(check('POST', `/broadcasts/${ingestCommon.id}/go-live`, 200, { data: live }, writeHeaders)).toEqual([]);
    expect(check('POST', `/broadcasts/${ingestCommon.id}/go-live`, 200, { data: { ...live, ingest: ownIngestWithKey.ingest } })).not.toEqual([]);
    expect(check('POST', `/broadcasts/${common.id}/end`, 200, { data: { ...ownBroadcast, state: 'replay', ended_at: '2026-11-20T20:00:00.000Z' } })).toEqual(
      [],
    );
    expect(check('GET', '/me', 200, { data: me }, okHeaders)).toEqual([]);
    expect(check('GET', '/me', 200, { data: { ...me, broadcasts: [ownIngestWithKey] } })).not.toEqual([]);
    expect(check('GET', `/broadcasts/${ingestCommon.id}/health`, 200, { data: health })).toEqual([]);
    expect(check('GET', `/broadcasts/${common.id}/health`, 200, { data: externalHealth })).toEqual([]);
    expect(
      check('GET', `/broadcasts/${ingestCommon.id}/health`, 200, {
        data: {
          ...health,
          signal: 'no_signal',
          bitrate_kbps: null,
          resolution: null,
          fps: null,
          viewers: null,
          warnings: [{ code: 'no_signal_while_live', message: 'nothing received' }],
        },
      }),
    ).toEqual([]);
  });

  it('keeps ingest and external broadcasts apart in channel answers', () => {
    expect(check('POST', '/broadcasts', 201, { data: { ...ownBroadcast, ingest: { server_url: SERVER_URL } } })).not.toEqual([]);
    expect(check('POST', '/broadcasts', 201, { data: { ...ingestCommon } })).not.toEqual([]);
    expect(check('POST', '/broadcasts', 201, { data: { ...ownIngest, source_url: 'https://x.example/a.m3u8' } })).not.toEqual([]);
    expect(check('POST', '/broadcasts', 201, { data: { ...ownBroadcast, source_url: null } })).not.toEqual([]);
    expect(check('POST', '/broadcasts', 201, { data: { ...ownBroadcast, locked: false } }).join('\n')).toMatch(/unexpected property "locked"/);
  });

  it('reports bad field values', () => {
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, tags: ['Not Valid'] } }).join('\n')).toMatch(
      /body\/data\/tags\/0 must match pattern/,
    );
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, language: 'deu' } }).join('\n')).toMatch(/body\/data\/language must match pattern/);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, state: 'paused' } }).join('\n')).toMatch(/allowed values/);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) } })).not.toEqual([]);
    expect(check('GET', '/broadcasts/x', 200, { data: { ...publicBroadcast, id: 'not-a-uuid' } }).join('\n')).toMatch(/format "uuid"/);
  });

  it('accepts documented error answers and rejects undocumented ones', () => {
    const err = (error: string) => ({ error, message: 'x' });
    expect(check('GET', '/live?per_page=0', 422, err('invalid_per_page'))).toEqual([]);
    expect(check('GET', '/broadcasts/nope', 404, err('not_found'))).toEqual([]);
    expect(check('GET', '/live', 429, err('rate_limited'), { ...writeHeaders, 'retry-after': '12' })).toEqual([]);
    expect(check('GET', '/me', 401, err('invalid_key'), { 'x-request-id': 'r', 'www-authenticate': 'Bearer', 'content-type': 'application/json' })).toEqual([]);
    expect(check('GET', '/me', 403, err('insufficient_scope'))).toEqual([]);
    expect(check('POST', '/broadcasts', 400, err('invalid_json'))).toEqual([]);
    expect(check('POST', '/broadcasts', 413, err('payload_too_large'))).toEqual([]);
    expect(check('POST', '/broadcasts', 415, err('unsupported_media_type'))).toEqual([]);
    expect(check('POST', '/broadcasts', 422, err('invalid_source_url'))).toEqual([]);
    expect(check('PATCH', `/broadcasts/${common.id}`, 409, err('invalid_state'))).toEqual([]);
    expect(check('PATCH', `/broadcasts/${common.id}`, 404, err('not_found'))).toEqual([]);
    expect(check('POST', `/broadcasts/${common.id}/go-live`, 402, err('billing_inactive'))).toEqual([]);
    expect(check('POST', `/broadcasts/${common.id}/go-live`, 403, err('plan_forbids_source'))).toEqual([]);
    expect(check('POST', `/broadcasts/${common.id}/go-live`, 409, err('no_live_slot'))).toEqual([]);
    expect(check('POST', `/broadcasts/${common.id}/rotate-stream-key`, 409, err('invalid_state'))).toEqual([]);
    expect(check('GET', `/broadcasts/${common.id}/health`, 500, { ...err('internal'), request_id: 'req_1' })).toEqual([]);

    expect(check('GET', '/live', 401, err('unauthenticated'))).toEqual([expect.stringMatching(/status 401 is not documented/)]);
    expect(check('POST', `/broadcasts/${common.id}/end`, 402, err('billing_inactive'))).toEqual([expect.stringMatching(/status 402 is not documented/)]);
    expect(check('POST', `/broadcasts/${common.id}/end`, 409, err('no_live_slot')).join('\n')).toMatch(/allowed values/);
    expect(check('POST', '/broadcasts', 422, err('invalid_page')).join('\n')).toMatch(/allowed values/);
    expect(check('GET', '/live', 429, err('rate_limited'), okHeaders)).toEqual([expect.stringMatching(/missing header Retry-After/)]);
    expect(check('DELETE', `/broadcasts/${common.id}`, 200, {})).toEqual([expect.stringMatching(/method DELETE is not documented/)]);
  });

  it('matches literal segments before the shared /broadcasts/{broadcast} template', () => {
    expect(check('GET', `/broadcasts/${common.id}/health`, 200, { data: health })).toEqual([]);
    expect(check('GET', `/broadcasts/${common.id}`, 200, { data: health })).not.toEqual([]);
    expect(check('GET', '/broadcasts', 200, { meta, data: [] })).toEqual([expect.stringMatching(/method GET is not documented/)]);
  });
});
