/** The introduction of the TV API's OpenAPI document (`info.description`): what no single operation says. */
import { COMPRESSION_NOTE } from '../http/send-json';
import { GO_LIVE_RULES, PATCH_RULES } from './operations/broadcast.rules';

export const INFO_DESCRIPTION = [
  'Schedules of live, upcoming and replayed broadcasts and of approved channels (public), and the ' +
    "management of a channel's own broadcasts (channel API key): create, schedule, edit, go live, end, " +
    'rotate a stream key, read health. The TV API never touches ranking points. Bodies are JSON with ' +
    'snake_case fields; single answers are `{ "data": ... }`, lists `{ "meta": ..., "data": [...] }`.',
  '',
  '## Authentication',
  'Public endpoints (`/live`, `/upcoming`, `/channels`, `/channels/{slug}`, `GET /broadcasts/{slug}`, ' +
    '`/openapi.json`) need no key. Channel endpoints need a channel API key (`ck_...`), created by the ' +
    "channel's owner or a manager in the studio, sent as `Authorization: Bearer <key>`. No key, or an " +
    '`Authorization` header that is not `Bearer <token>`, is a 401 `unauthenticated`; an unknown, revoked ' +
    'or expired key, or a key of another door (a partner key), is a 401 `invalid_key`. 401 answers carry ' +
    "`WWW-Authenticate: Bearer`. A key sees only its own channel: another channel's broadcast is a 404.",
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
  'GET answers carry an `ETag`; a request whose `If-None-Match` matches it is answered 304 Not Modified ' + 'without a body.',
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
  "The public endpoints and `/openapi.json` are for viewers' apps and web pages: they allow any origin " +
    '(`Access-Control-Allow-Origin: *`), answer preflights, and let scripts read `ETag`, `Link`, ' +
    '`X-Request-Id`, the `X-RateLimit-*` headers and `Retry-After`. Channel endpoints send no CORS headers: ' +
    "a channel key is a secret for the channel's servers, not for a browser. (The partner API, " +
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
