/**
 * The OpenAPI 3.0.3 description of the TV API (`/api/tv`), document version 1.0.0
 * (docs/tv-api.md, docs/decisions.md, docs/adr/0008-layering.md "Schemas are the source").
 *
 * Generated: the paths and parameters from the operation declarations (src/tv/operations/, listed
 * in src/tv/tv-api.door.ts) by src/http/operation.openapi.ts; `components/schemas` from the zod
 * schemas the TV API's answers are typed by (src/tv/schemas, the broadcast views of
 * src/domain/channels/broadcast.schemas.ts, the shared `Meta` and `Error` of src/http/schemas.ts).
 * Written here: the introduction; the shared answers and headers are in
 * src/tv/openapi-tv.parameters.ts. `schema/openapi-tv.json` is the output of `renderTvOpenApi()`
 * (`npm run schema`); a test fails when the checked-in file is stale.
 *
 * Conventions of the schemas (as in the partner document): every listed property is `required`
 * (the only optional response property is `ingest` of a `Broadcast`, and its `stream_key`); a
 * nullable value is `nullable: true`; objects are closed, except `Error`; rules between fields are
 * `oneOf`s of constraint-only branches next to the closed object's `properties`.
 */
import { COMPRESSION_NOTE } from '../http/send-json';
import type { AnyOperation } from '../http/operation';
import { operationPaths, parameterComponents } from '../http/operation.openapi';
import { bearerScheme, openApiDocument, renderOpenApi } from '../lib/openapi.helpers';
import { componentSchemas } from '../lib/openapi.zod';
import { GO_LIVE_RULES, PATCH_RULES } from './operations/broadcasts.operations';
import { headerSpecs, sharedResponses } from './openapi-tv.parameters';
import { TV_API_BASE, TV_OPERATIONS } from './tv-api.door';
import { TV_COMPONENTS } from './schemas';

export const TV_OPENAPI_VERSION = '1.0.0';
export const TV_API_BASE_PATH = TV_API_BASE;

/** Every path of the TV API, relative to `/api/tv`, in document order. */
export const TV_API_PATHS = [...new Set(TV_OPERATIONS.map((op) => op.path))];

function scopeText(op: AnyOperation): string {
  return op.credential === 'none' ? 'Public: no key needed.' : `Channel key with scope \`${op.scope}\`.`;
}

const PAGING_CODES = 'invalid_page,invalid_per_page';


const INFO_DESCRIPTION = [
  'Schedules of live, upcoming and replayed broadcasts and of approved channels (public), and the ' +
    'management of a channel\'s own broadcasts (channel API key): create, schedule, edit, go live, end, ' +
    'rotate a stream key, read health. The TV API never touches ranking points. Bodies are JSON with ' +
    'snake_case fields; single answers are `{ "data": ... }`, lists `{ "meta": ..., "data": [...] }`.',
  '',
  '## Authentication',
  'Public endpoints (`/live`, `/upcoming`, `/channels`, `/channels/{slug}`, `GET /broadcasts/{slug}`, ' +
    '`/openapi.json`) need no key. Channel endpoints need a channel API key (`ck_...`), created by the ' +
    'channel\'s owner or a manager in the studio, sent as `Authorization: Bearer <key>`. No key, or an ' +
    '`Authorization` header that is not `Bearer <token>`, is a 401 `unauthenticated`; an unknown, revoked ' +
    'or expired key, or a key of another door (a partner key), is a 401 `invalid_key`. 401 answers carry ' +
    '`WWW-Authenticate: Bearer`. A key sees only its own channel: another channel\'s broadcast is a 404.',
  '',
  '## Scopes',
  'Channel keys carry the scopes `read` (`GET /me`, `GET /broadcasts/{id}/health`) and `broadcasts:write` ' +
    '(`POST /broadcasts`, `PATCH /broadcasts/{id}`, `go-live`, `end`, `rotate-stream-key`). A key without ' +
    'the scope of an endpoint gets 403 `insufficient_scope`. Each operation names its scope in ' +
    '`x-required-scope`.',
  '',
  '## Rate limits',
  'Channel keys: 120 requests per key, public endpoints: 60 requests per client IP, each over a sliding ' +
    '60-second window. Answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` ' +
    '(Unix seconds) once a key or client IP has been checked (not on 401, 405, 500, or a 404 for an ' +
    'unknown path). Over the limit the answer is 429 `rate_limited` with ' +
    '`Retry-After` in whole seconds. 401 and 304 answers do not count. Checks run in this order: key, rate ' +
    'limit, scope, parameters.',
  '',
  '## Conditional requests',
  'GET answers carry an `ETag`; a request whose `If-None-Match` matches it is answered 304 Not Modified ' +
    'without a body.',
  '',
  '## Compression',
  COMPRESSION_NOTE,
  '',
  '## Pagination',
  '`/live`, `/upcoming` and `/channels` take `page` (from 1, default 1) and `per_page` (1 to 100, default ' +
    '25); a bad value, or one given twice, is a 422 `invalid_page` or `invalid_per_page`. A page past the ' +
    'end is a 200 with empty `data` and true `meta`. Their answers carry a `Link` header with the `first`, ' +
    '`prev`, `next` and `last` pages (GitHub style: absolute URLs, your query with `page` replaced and ' +
    'unknown parameters left out; no `prev` on page 1, no `next` on the last page).',
  '',
  '## CORS',
  'The public endpoints and `/openapi.json` are for viewers\' apps and web pages: they allow any origin ' +
    '(`Access-Control-Allow-Origin: *`), answer preflights, and let scripts read `ETag`, `Link`, ' +
    '`X-Request-Id`, the `X-RateLimit-*` headers and `Retry-After`. Channel endpoints send no CORS headers: ' +
    'a channel key is a secret for the channel\'s servers, not for a browser. (The partner API, ' +
    'server-to-server, sends none at all.)',
  '',
  '## Broadcasts',
  'States: `scheduled` → `live` (go-live) → `ended` (end) → `replay`. An external broadcast (`youtube`, ' +
    '`vimeo`, `hls`, `mp4`) becomes `replay` as soon as it ends; an ingest broadcast stays `ended` until ' +
    'its recording is ready. Channel webhooks: creating emits `broadcast.scheduled`, going live ' +
    '`broadcast.live`, ending `broadcast.ended`, the replay becoming available `replay.ready` (for an ' +
    'external broadcast both at once: its `broadcast.ended` payload already shows state `replay`).',
  '',
  'Visibility: `public`; `unlisted` (never listed, reachable by slug); `followers` and `ppv`, listed and ' +
    'shown with `locked: true`, `source_url: null` and `replay_url: null` on public endpoints.',
  '',
  `Editing: ${PATCH_RULES}`,
  '',
  `Going live: ${GO_LIVE_RULES}`,
  '',
  'Ingest: an `ingest` broadcast has `ingest.server_url`; its stream key is shown once only, in ' +
    '`ingest.stream_key` of the creation answer, of a PATCH that switches to `ingest`, and of ' +
    '`rotate-stream-key`. Stream keys, SRT passphrases and provider credentials are never returned ' +
    'otherwise, and public endpoints never show ingest details.',
  '',
  '## Request bodies',
  '`POST /broadcasts` and `PATCH /broadcasts/{id}` take JSON objects (`Content-Type: application/json`) ' +
    'of at most 64 KiB; `go-live`, `end` and `rotate-stream-key` take no body. Malformed JSON, or a body ' +
    'that its `Content-Encoding` (`gzip`, `deflate`, `br`) cannot decode, is a 400 `invalid_json`; an ' +
    'unknown `Content-Encoding` or a body that is not JSON is a 415 `unsupported_media_type`; a larger ' +
    'one a 413 ' +
    '`payload_too_large`. A bad field is a 422 `invalid_<field>` (`invalid_title`, `invalid_source`, ' +
    '`invalid_source_url`, `invalid_scheduled_at`, `invalid_visibility`, `invalid_discipline`, ' +
    '`invalid_language`, `invalid_tags`); an unknown field or a body that is not a JSON object a 422 ' +
    '`invalid_body`.',
  '',
  '## Errors',
  'Every error answer is a JSON object with `error` (a code) and `message`, plus `request_id` where ' +
    'useful; every answer carries `X-Request-Id`. Unknown paths under `/api/tv` are 404 `not_found`; a ' +
    'method a path does not serve is 405 `method_not_allowed` with an `Allow` header (HEAD works wherever ' +
    'GET does). 402 `billing_inactive`, 403 `plan_forbids_source` and ' +
    '409 `no_live_slot` come from go-live; 409 `invalid_state` from a transition or change the state does ' +
    'not allow. A 500 is `internal`.',
].join('\n');

export function buildTvOpenApi(operations: readonly AnyOperation[] = TV_OPERATIONS): Record<string, unknown> {
  const paths = operationPaths(operations, { scopeText, invalidRef: (codes) => (codes.join() === PAGING_CODES ? 'InvalidPaging' : undefined) });

  return openApiDocument({
    title: 'TV API',
    version: TV_OPENAPI_VERSION,
    description: INFO_DESCRIPTION,
    server: { url: TV_API_BASE_PATH, description: 'TV API (relative to the service address; no version segment).' },
    security: [{ channelKey: [] }],
    tags: [
      { name: 'Schedule', description: 'Public schedules: live, upcoming and single broadcasts.' },
      { name: 'Channels', description: 'Public channel pages.' },
      { name: 'Account', description: 'The key\'s channel.' },
      { name: 'Broadcasts', description: 'Managing the channel\'s own broadcasts.' },
      { name: 'Meta', description: 'This description.' },
    ],
    paths,
    schemas: componentSchemas(TV_COMPONENTS),
    parameters: parameterComponents(operations),
    responses: sharedResponses,
    headers: headerSpecs,
    securitySchemes: {
      channelKey: bearerScheme('A channel API key (`ck_...`) as a bearer token: `Authorization: Bearer <key>`.'),
    },
  });
}

/** The document as written to `schema/openapi-tv.json` (and served at `/api/tv/openapi.json`). */
export function renderTvOpenApi(): string {
  return renderOpenApi(buildTvOpenApi());
}
