/** The introduction of the partner API's OpenAPI document (`info.description`): what no single operation says. */
import { COMPRESSION_NOTE } from '../http/send-json';

export const METHOD_NOTE =
  'Only GET (and HEAD, which answers the same headers without a body) is served; any other method is a 405 `method_not_allowed` with an `Allow: GET, HEAD` header.';

export const INFO_DESCRIPTION = [
  'Read-only JSON access to the official world ranking, fighter profiles, sanctioned events, verified ' +
    'results and the verification of fighter IDs, licence numbers and certificate numbers.',
  '',
  '## Authentication',
  'Send the API key as `Authorization: Bearer <API_KEY>` or as `X-API-Key: <API_KEY>` (when both are ' +
    'sent, `Authorization` wins). No key, or an `Authorization` header that is not `Bearer <token>`, is a ' +
    '401 `unauthenticated`; an unknown, revoked, expired or disabled key (its partner suspended) is a 401 ' +
    '`invalid_key`. 401 answers carry `WWW-Authenticate: Bearer`. Only `/openapi.json` needs no key.',
  '',
  '## Scopes',
  'Keys carry scopes: `rankings.read` (`/rankings`, `/divisions`), `fighters.read` (`/fighters`, ' +
    '`/fighters/{slug}`), `events.read` (`/events`, `/events/{code}`), `results.read` (`/results`, ' +
    '`/events/{code}/results`). `/verify/{number}` and `/me` accept any valid key. A key without the ' +
    'scope of an endpoint gets 403 `insufficient_scope`. Each operation names its scope in ' +
    '`x-required-scope`.',
  '',
  '## Rate limits',
  "Limits are per key over a sliding 60-second window (default 60 requests; the key's value is " +
    '`rate_limit_per_minute` in `/me`). Every authenticated answer carries `X-RateLimit-Limit`, ' +
    '`X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds). Over the limit the answer is 429 ' +
    '`rate_limited` with `Retry-After` in whole seconds. 401 and 304 answers do not count. Checks run in ' +
    'this order: key, rate limit, scope, parameters.',
  '',
  '## Conditional requests',
  'Every GET answer carries an `ETag`; a request whose `If-None-Match` matches it is answered 304 Not ' + 'Modified without a body.',
  '',
  '## Compression',
  COMPRESSION_NOTE,
  '',
  '## Methods',
  METHOD_NOTE,
  '',
  '## Parameters and pagination',
  'Unknown query parameters are ignored. A known parameter with a bad value, or given twice, is a 422 ' +
    'whose `error` is `invalid_<parameter>` and whose message names the parameter and the accepted ' +
    'values. List answers take `page` (from 1, default 1) and `per_page` (1 to 100, default 25); a page ' +
    'past the end is a 200 with empty `data` and true `meta`. A list answer carries a `Link` header with ' +
    'the `first`, `prev`, `next` and `last` pages (GitHub style: absolute URLs, your query with `page` ' +
    'replaced and unknown parameters left out; no `prev` on page 1, no `next` on the last page).',
  '',
  '## CORS',
  'The partner API is for servers: keys are secrets and must not reach a browser. It sends no CORS ' +
    'headers and answers no preflight, so a web page cannot read its answers; call it from your back end. ' +
    "(The TV API's public schedule, for viewers' apps, is the one that allows any origin.)",
  '',
  '## Data rules',
  'Every successful answer carries `as_of`, the date of the latest published ranking run. Identity and ' +
    'contact data are never exposed. Minors (under 18 today) are never listed or ranked, their profile ' +
    'shows only name, country and division, and their results never appear. Nothing in this API can ' +
    'create or change points or statuses: it is read-only.',
  '',
  '## Errors',
  'Every error answer is a JSON object with `error` (a code) and `message`, plus `request_id` where ' +
    'useful; every answer carries `X-Request-Id`. Unknown paths under `/api/v1` are 404 `not_found` ' +
    '(JSON). A path value that is not valid percent-encoding is a 400 `invalid_path`. A 500 is `internal`.',
].join('\n');
