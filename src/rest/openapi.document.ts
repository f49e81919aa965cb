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
import { DEMO_KEYS } from '../demo/demo-keys';
import { DEMO_ORIGIN, withCodeSamples } from '../lib/openapi-code-samples';
import { operationPaths, parameterComponents } from '../http/operation.openapi';
import { componentSchemas } from '../lib/openapi.zod';
import examples from './examples.json';
import { INFO_DESCRIPTION, METHOD_NOTE } from './openapi.intro';
import { bearerScheme, errorResponse, openApiDocument, renderOpenApi } from '../lib/openapi.helpers';
import { commonHeaderSpecs, standardResponses } from '../lib/openapi.responses';
import type { AnyOperation } from '../http/operation';
import { PARTNER_OPERATIONS } from './partner-api.door';
import { PARTNER_COMPONENTS } from './schemas';

export const PARTNER_OPENAPI_VERSION = '1.1.0';

/** Every path of the partner API, relative to `/api/v1`, in document order. */
export const PARTNER_API_PATHS = [...new Set(PARTNER_OPERATIONS.map((op) => op.path))];

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
    tooManyRequests: "The key's per-minute limit is exhausted.",
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

/** The document of `operations` (all of the partner API's by default). */
export function buildPartnerOpenApi(operations: readonly AnyOperation[] = PARTNER_OPERATIONS): Record<string, unknown> {
  const paths = operationPaths(operations, { scopeText, pathDescription: METHOD_NOTE, badPathRef: 'BadPath', examples });
  // Samples are a step on the finished document: they read only what it says.
  return withCodeSamples(
    openApiDocument({
      title: 'Ranking partner API',
      version: PARTNER_OPENAPI_VERSION,
      description: INFO_DESCRIPTION,
      server: { basePath: '/api/v1', description: 'Partner API, version 1.' },
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
    }),
    { key: DEMO_KEYS[0].token, origin: DEMO_ORIGIN },
  );
}

/** The document as written to `schema/openapi.json` (and served at `/api/v1/openapi.json`). */
export function renderPartnerOpenApi(): string {
  return renderOpenApi(buildPartnerOpenApi());
}
