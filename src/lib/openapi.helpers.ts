/**
 * The frame of the OpenAPI 3.0.3 documents, shared by the partner API's document
 * (src/rest/openapi.document.ts) and the TV API's (src/tv/openapi-tv.document.ts): references,
 * parameters, error answers and the document itself. The answers both APIs give alike are in
 * ./openapi.responses.ts; the operations come from their declarations (src/http/operation.openapi.ts);
 * the schemas of bodies are generated from zod (./openapi.zod.ts).
 *
 * Every builder returns a plain object whose key order is fixed by the code, so a document built
 * from them renders byte-for-byte deterministically.
 */

import type { Schema } from './openapi.zod';

export type { Schema };

export const ref = (kind: 'schemas' | 'parameters' | 'requestBodies' | 'responses' | 'headers', name: string): Schema => ({
  $ref: `#/components/${kind}/${name}`,
});
export const schemaRef = (name: string): Schema => ref('schemas', name);

// ---------------------------------------------------------------------------------------------
// Parameters, headers, responses
// ---------------------------------------------------------------------------------------------

export interface ParamSpec {
  name: string;
  in: 'query' | 'path' | 'header';
  description: string;
  schema: Schema;
  example?: unknown;
}

/** A Parameter Object: path parameters are required, query parameters are not. */
export function parameter(spec: ParamSpec): Schema {
  const out: Schema = { name: spec.name, in: spec.in, description: spec.description };
  if (spec.in === 'path') out.required = true;
  else if (spec.in === 'query') out.required = false;
  out.schema = spec.schema;
  if (spec.example !== undefined) out.example = spec.example;
  return out;
}

export interface HeaderSpec {
  description: string;
  schema: Schema;
}

/** `components.headers` from header specs: every documented response header is always sent. */
function headerComponents(specs: Record<string, HeaderSpec>): Schema {
  return Object.fromEntries(Object.entries(specs).map(([name, h]) => [name, { description: h.description, required: true, schema: h.schema }]));
}

export const headerRef = (name: string): Schema => ref('headers', name);
export const headerSet = (names: string[]): Schema => Object.fromEntries(names.map((n) => [n, headerRef(n)]));

/** A Media Type map with one `application/json` entry. */
export const json = (schema: Schema, example?: unknown): Schema => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

/** An error answer whose body is the `Error` schema with `error` one of `codes`. */
export function errorResponse(description: string, codes: string[], headers: string[]): Schema {
  return {
    description,
    headers: headerSet(headers),
    content: json(
      {
        allOf: [schemaRef('Error'), { type: 'object', properties: { error: { type: 'string', enum: [...codes] } } }],
      },
      { error: codes[0], message: 'See the description of this answer.' },
    ),
  };
}

/** Backticked codes for a description: `a`, `b`, `c`. */
export const codeList = (codes: readonly string[]): string => codes.map((c) => `\`${c}\``).join(', ');

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

/** A bearer-token security scheme. */
export const bearerScheme = (description: string): Schema => ({ type: 'http', scheme: 'bearer', description });

/** The 200 body of `GET /openapi.json` in both APIs. */
export const openApiDocumentBody = (): Schema => ({ type: 'object', description: 'An OpenAPI 3.0.3 document.' });

export interface DocumentParts {
  title: string;
  version: string;
  description: string;
  /** The base path of the API (`/api/v1`) and what it is. */
  server: { basePath: string; description: string };
  security: Schema[];
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Schema>;
  schemas: Record<string, Schema>;
  parameters: Record<string, ParamSpec>;
  requestBodies?: Record<string, Schema>;
  responses: Record<string, Schema>;
  headers: Record<string, HeaderSpec>;
  securitySchemes: Record<string, Schema>;
}

/**
 * Absolute servers, so that a generated client has a working base URL by default: first the demo
 * on this machine (generators that take the first server as it is, such as @hey-api/openapi-ts,
 * use it), then any deployment, its scheme and host as variables (its PUBLIC_URL).
 */
function serversOf(basePath: string, description: string): Schema[] {
  return [
    { url: `http://localhost:3000${basePath}`, description: `${description} The demo (\`npm start\`) on this machine.` },
    {
      url: `{scheme}://{host}${basePath}`,
      description: `${description} A deployment, at its public address.`,
      variables: {
        scheme: { enum: ['https', 'http'], default: 'https', description: '`https` in production.' },
        host: { default: 'localhost:3000', description: "The service's host (and port), as in its PUBLIC_URL." },
      },
    },
  ];
}

/** The OpenAPI 3.0.3 document: the frame (and its key order) is the same for both APIs. */
export function openApiDocument(parts: DocumentParts): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: parts.title, version: parts.version, description: parts.description },
    servers: serversOf(parts.server.basePath, parts.server.description),
    security: parts.security,
    tags: parts.tags,
    paths: parts.paths,
    components: {
      schemas: parts.schemas,
      parameters: Object.fromEntries(Object.entries(parts.parameters).map(([key, spec]) => [key, parameter(spec)])),
      ...(parts.requestBodies ? { requestBodies: parts.requestBodies } : {}),
      responses: parts.responses,
      headers: headerComponents(parts.headers),
      securitySchemes: parts.securitySchemes,
    },
  };
}

/** The document as checked in under schema/ and served: two-space JSON with a final newline. */
export const renderOpenApi = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;
