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
import { DEMO_CHANNEL_KEYS } from '../demo/demo-tv.seed';
import { DEMO_ORIGIN, withCodeSamples } from '../lib/openapi-code-samples';
import type { AnyOperation } from '../http/operation';
import { operationPaths, parameterComponents, requestBodyComponents } from '../http/operation.openapi';
import { bearerScheme, openApiDocument, renderOpenApi } from '../lib/openapi.helpers';
import { componentSchemas } from '../lib/openapi.zod';
import examples from './examples.json';
import { INFO_DESCRIPTION } from './openapi-tv.intro';
import { headerSpecs, sharedResponses } from './openapi-tv.responses';
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

export function buildTvOpenApi(operations: readonly AnyOperation[] = TV_OPERATIONS): Record<string, unknown> {
  const paths = operationPaths(operations, { scopeText, invalidRef: (codes) => (codes.join() === PAGING_CODES ? 'InvalidPaging' : undefined), examples });

  const schemas = componentSchemas(TV_COMPONENTS);
  // Samples are a step on the finished document: they read only what it says.
  return withCodeSamples(
    openApiDocument({
      title: 'TV API',
      version: TV_OPENAPI_VERSION,
      description: INFO_DESCRIPTION,
      server: { basePath: TV_API_BASE_PATH, description: 'TV API (no version segment).' },
      security: [{ channelKey: [] }],
      tags: [
        { name: 'Schedule', description: 'Public schedules: live, upcoming and single broadcasts.' },
        { name: 'Channels', description: 'Public channel pages.' },
        { name: 'Account', description: "The key's channel." },
        { name: 'Broadcasts', description: "Managing the channel's own broadcasts." },
        { name: 'Meta', description: 'This description.' },
      ],
      paths,
      schemas,
      parameters: parameterComponents(operations),
      requestBodies: requestBodyComponents(operations, schemas),
      responses: sharedResponses,
      headers: headerSpecs,
      securitySchemes: {
        channelKey: bearerScheme('A channel API key (`ck_...`) as a bearer token: `Authorization: Bearer <key>`.'),
      },
    }),
    { key: DEMO_CHANNEL_KEYS[0].token, origin: DEMO_ORIGIN },
  );
}

/** The document as written to `schema/openapi-tv.json` (and served at `/api/tv/openapi.json`). */
export function renderTvOpenApi(): string {
  return renderOpenApi(buildTvOpenApi());
}
