/**
 * The OpenAPI 3.0.3 description of the partner API (`/api/v1`), document version 1.1.0
 * (docs/decisions.md, docs/adr/0010-operations.md).
 *
 * Generated: the paths and parameters from the operation declarations (src/rest/operations/,
 * listed in src/rest/partner-api.door.ts) by src/http/operation.openapi.ts; `components/schemas`
 * from the zod schemas the answers are typed by (src/rest/schemas, the catalogue views of
 * src/domain/catalog/view.schemas.ts, the shared `Meta` and `Error` of src/http/schemas.ts).
 * Written here: the document's introduction and its shared answers. `schema/openapi.json` is the
 * output of `renderPartnerOpenApi()` (`npm run schema`); a test fails when it is stale.
 */
import { COMPRESSION_NOTE } from '../http/send-json';
import { operationPaths, parameterComponents } from '../http/operation.openapi';
import { componentSchemas } from '../lib/openapi.zod';
import { bearerScheme, commonHeaderSpecs, errorResponse, openApiDocument, renderOpenApi, standardResponses } from '../lib/openapi.helpers';
import type { AnyOperation } from '../http/operation';
import { PARTNER_OPERATIONS } from './partner-api.door';
import { PARTNER_COMPONENTS } from './schemas';

export const PARTNER_OPENAPI_VERSION = '1.1.0';

/** Every path of the partner API, relative to `/api/v1`, in document order. */
export const PARTNER_API_PATHS = [...new Set(PARTNER_OPERATIONS.map((op) => op.path))];

export const METHOD_NOTE = 'Only GET (and HEAD, which answers the same headers without a body) is served; any other method is a 405 `method_not_allowed` with an `Allow: GET, HEAD` header.';

function scopeText(op: AnyOperation): string {
  if (op.credential === 'none') return 'No key needed.';
  if (op.scope === null) return 'Any valid key; no scope needed.';
  return `Requires scope \`${op.scope}\`.`;
}

const sharedResponses = standardResponses(
  {
    invalidKey: 'Unknown, revoked, expired or disabled key (partner suspended): `invalid_key`.',
    forbidden: 'The key lacks the scope this endpoint requires.',
    notFound: 'No such record.',
    tooManyRequests: 'The key\'s per-minute limit is exhausted.',
  },
  {
    BadPath: errorResponse(
      'A path value is not valid percent-encoding (e.g. `%ZZ`, or bytes that are not UTF-8): `invalid_path`. ' +
        'It cannot be read at all, so it is answered before the key is checked.',
      ['invalid_path'],
      ['X-Request-Id'],
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Document
// ---------------------------------------------------------------------------------------------

const INFO_DESCRIPTION = [
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
  'Limits are per key over a sliding 60-second window (default 60 requests; the key\'s value is ' +
    '`rate_limit_per_minute` in `/me`). Every authenticated answer carries `X-RateLimit-Limit`, ' +
    '`X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds). Over the limit the answer is 429 ' +
    '`rate_limited` with `Retry-After` in whole seconds. 401 and 304 answers do not count. Checks run in ' +
    'this order: key, rate limit, scope, parameters.',
  '',
  '## Conditional requests',
  'Every GET answer carries an `ETag`; a request whose `If-None-Match` matches it is answered 304 Not ' +
    'Modified without a body.',
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
    '(The TV API\'s public schedule, for viewers\' apps, is the one that allows any origin.)',
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

/** The document of `operations` (all of the partner API's by default). */
export function buildPartnerOpenApi(operations: readonly AnyOperation[] = PARTNER_OPERATIONS): Record<string, unknown> {
  const paths = operationPaths(operations, { scopeText, pathDescription: METHOD_NOTE, badPathRef: 'BadPath' });
  return openApiDocument({
    title: 'Ranking partner API',
    version: PARTNER_OPENAPI_VERSION,
    description: INFO_DESCRIPTION,
    server: { url: '/api/v1', description: 'Partner API, version 1 (relative to the service address).' },
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: [
      { name: 'Rankings', description: 'Ranking tables and ranked divisions.' },
      { name: 'Fighters', description: 'Fighter search and profiles.' },
      { name: 'Events', description: 'Sanctioned events.' },
      { name: 'Results', description: 'Verified results.' },
      { name: 'Verification', description: 'Verification of fighter IDs, licences and certificates.' },
      { name: 'Account', description: 'The key in use.' },
      { name: 'Meta', description: 'This description.' },
    ],
    paths,
    schemas: componentSchemas(PARTNER_COMPONENTS),
    parameters: parameterComponents(operations),
    responses: sharedResponses,
    headers: commonHeaderSpecs('Requests allowed per sliding 60-second window for the key.'),
    securitySchemes: {
      bearerAuth: bearerScheme('The API key as a bearer token: `Authorization: Bearer <API_KEY>`.'),
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'The API key in the `X-API-Key` header.',
      },
    },
  });
}

/** The document as written to `schema/openapi.json` (and served at `/api/v1/openapi.json`). */
export function renderPartnerOpenApi(): string {
  return renderOpenApi(buildPartnerOpenApi());
}
