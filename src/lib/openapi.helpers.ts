/**
 * The hand-written frame of the OpenAPI 3.0.3 documents, shared by the partner API's document
 * (src/rest/openapi.document.ts) and the TV API's (src/tv/openapi-tv.document.ts): parameters,
 * headers, the answers both APIs give alike (401, 403, 404, 429, 500, 304), the Operation Object
 * and the document. The schemas of bodies are not written here: they are generated from zod
 * (./openapi.zod.ts; docs/adr/0008-layering.md, "Schemas are the source").
 *
 * Every builder returns a plain object whose key order is fixed by the code, so a document built
 * from them renders byte-for-byte deterministically.
 */

import type { z } from 'zod';
import { parameterSchema, type Schema } from './openapi.zod';

export type { Schema };

export const ref = (kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): Schema => ({
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
        allOf: [
          schemaRef('Error'),
          { type: 'object', properties: { error: { type: 'string', enum: [...codes] } } },
        ],
      },
      { error: codes[0], message: 'See the description of this answer.' },
    ),
  };
}

/** Backticked codes for a description: `a`, `b`, `c`. */
export const codeList = (codes: readonly string[]): string => codes.map((c) => `\`${c}\``).join(', ');

// ---------------------------------------------------------------------------------------------
// What both APIs answer alike
// ---------------------------------------------------------------------------------------------

/** What a request parameter's parser says of it (src/http/query.ts `ParamSpec`). */
export interface ParsedParam {
  schema: z.ZodType;
  /** What the parser accepts, in words, as its 422 message says it. */
  accepts: string;
}

/**
 * A query parameter described from its parser: the schema is generated from the parser's zod
 * schema, and the description is the document's prose followed by what the parser accepts (in the words
 * of the 422 message).
 */
export function queryParameter(name: string, parsed: ParsedParam, prose: string, example?: unknown): ParamSpec {
  const spec: ParamSpec = { name, in: 'query', description: `${prose} Must be ${parsed.accepts}.`, schema: parameterSchema(parsed.schema) };
  if (example !== undefined) spec.example = example;
  return spec;
}

/** `Page` and `PerPage`: the paging parameters of every list endpoint, from their parsers. */
export function pagingParameterSpecs(page: ParsedParam, perPage: ParsedParam): Record<'Page' | 'PerPage', ParamSpec> {
  return {
    Page: queryParameter('page', page, 'Page number, from 1.'),
    PerPage: queryParameter('per_page', perPage, 'Page size, 1 to 100.'),
  };
}

/** `If-None-Match`, which every GET takes (conditional requests work the same in both APIs). */
export function ifNoneMatchParameterSpec(): ParamSpec {
  return {
    name: 'If-None-Match',
    in: 'header',
    description: 'An `ETag` from an earlier answer; when it still matches, the answer is 304 with no body.',
    schema: { type: 'string' },
  };
}

export interface HeaderSpec {
  description: string;
  schema: Schema;
}

export const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
export const ID_AND_RATE_HEADERS = ['X-Request-Id', ...RATE_HEADERS];

/**
 * The response headers both APIs send. Only how `X-RateLimit-Limit` is counted differs (per key, or
 * per key and per client IP), so its description is the caller's.
 */
export function commonHeaderSpecs(rateLimitDescription: string): Record<string, HeaderSpec> {
  return {
    'X-Request-Id': { description: 'Id of the request; every answer carries it.', schema: { type: 'string' } },
    'X-RateLimit-Limit': { description: rateLimitDescription, schema: { type: 'integer' } },
    'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
    'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the window has room again.', schema: { type: 'integer' } },
    ETag: { description: 'Entity tag of the answer, for `If-None-Match`.', schema: { type: 'string' } },
    Link: {
      description:
        'Pagination links (RFC 8288), as GitHub sends them: `<url>; rel="first"`, `rel="prev"` (not on page 1), ' +
        '`rel="next"` (not on the last page) and `rel="last"`, comma-separated. Absolute URLs with the ' +
        'request\'s own query, only `page` replaced; parameters the endpoint does not know (and ignores) are left out.',
      schema: { type: 'string', example: '<https://api.example/api/v1/fighters?country=germany&page=2>; rel="next"' },
    },
    'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string', example: 'Bearer' } },
    'Retry-After': { description: 'Whole seconds (at least 1) to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  };
}

/** `components.headers` from header specs: every documented response header is always sent. */
function headerComponents(specs: Record<string, HeaderSpec>): Schema {
  return Object.fromEntries(
    Object.entries(specs).map(([name, h]) => [name, { description: h.description, required: true, schema: h.schema }]),
  );
}

const NOT_MODIFIED = 'Not Modified: the `If-None-Match` header matched the current `ETag`. No body.';

/** A 304; without rate headers for an operation that no rate limit counts. */
function notModifiedResponse(rateLimited = true): Schema {
  return {
    description: NOT_MODIFIED,
    headers: headerSet(['X-Request-Id', 'ETag', ...(rateLimited ? RATE_HEADERS : [])]),
  };
}

/** The 304 of a GET: the shared `NotModified` answer, or its copy without rate headers. */
export const notModifiedFor = (rateLimited: boolean): Schema =>
  rateLimited ? ref('responses', 'NotModified') : notModifiedResponse(false);

/** How a document words the answers every API has; their codes and headers are the same everywhere. */
export interface StandardResponseWords {
  /** The `invalid_key` half of the 401 (the `unauthenticated` half is the same in both APIs). */
  invalidKey: string;
  forbidden: string;
  notFound: string;
  tooManyRequests: string;
}

/**
 * `components.responses`: the answers every API has, with the document's own (`own`) between the
 * 404 and the 429, so that the list reads in status order.
 */
export function standardResponses(words: StandardResponseWords, own: Record<string, Schema>): Record<string, Schema> {
  return {
    NotModified: notModifiedResponse(),
    Unauthorized: errorResponse(
      `No key, or an \`Authorization\` header that is not \`Bearer <token>\`: \`unauthenticated\`. ${words.invalidKey}`,
      ['unauthenticated', 'invalid_key'],
      ['X-Request-Id', 'WWW-Authenticate'],
    ),
    Forbidden: errorResponse(words.forbidden, ['insufficient_scope'], ID_AND_RATE_HEADERS),
    NotFound: errorResponse(words.notFound, ['not_found'], ID_AND_RATE_HEADERS),
    ...own,
    // A 429 always says when to retry.
    TooManyRequests: errorResponse(words.tooManyRequests, ['rate_limited'], ['X-Request-Id', 'Retry-After', ...RATE_HEADERS]),
    InternalError: errorResponse('Unexpected error; `request_id` identifies it.', ['internal'], ['X-Request-Id']),
  };
}

/** The success answer of an operation; its body is the name of a schema, or an inline schema. */
export function successResponse(description: string, headers: string[], body: string | Schema): Schema {
  return {
    description,
    headers: headerSet(headers),
    content: json(typeof body === 'string' ? schemaRef(body) : body),
  };
}

// ---------------------------------------------------------------------------------------------
// Operations and the document
// ---------------------------------------------------------------------------------------------

/** What every operation spec of both documents has, and is written as it is. */
export interface OperationText {
  tag: string;
  summary: string;
  description: string;
  operationId: string;
}

/** What each document works out for an operation from its own spec. */
export interface OperationParts {
  /** How the operation is authorised, in words: appended to the description. */
  scopeText: string;
  /** Written as `x-required-scope`. */
  requiredScope?: string;
  /** No key at all: `security: []` overrides the document's. */
  isPublic: boolean;
  /** Keys of `components.parameters`. */
  params: string[];
  requestBody?: Schema;
  /** Already in document order. */
  responses: Schema;
}

/** An Operation Object; the key order is the same for every operation of both documents. */
export function operationObject(text: OperationText, parts: OperationParts): Schema {
  const op: Schema = {
    tags: [text.tag],
    summary: text.summary,
    description: `${text.description}\n\n${parts.scopeText}`,
    operationId: text.operationId,
  };
  if (parts.requiredScope !== undefined) op['x-required-scope'] = parts.requiredScope;
  if (parts.isPublic) op.security = [];
  if (parts.params.length > 0) op.parameters = parts.params.map((key) => ref('parameters', key));
  if (parts.requestBody !== undefined) op.requestBody = parts.requestBody;
  op.responses = parts.responses;
  return op;
}

/** A bearer-token security scheme. */
export const bearerScheme = (description: string): Schema => ({ type: 'http', scheme: 'bearer', description });

/** The 200 body of `GET /openapi.json` in both APIs. */
export const openApiDocumentBody = (): Schema => ({ type: 'object', description: 'An OpenAPI 3.0.3 document.' });

export interface DocumentParts {
  title: string;
  version: string;
  description: string;
  server: { url: string; description: string };
  security: Schema[];
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Schema>;
  schemas: Record<string, Schema>;
  parameters: Record<string, ParamSpec>;
  responses: Record<string, Schema>;
  headers: Record<string, HeaderSpec>;
  securitySchemes: Record<string, Schema>;
}

/** The OpenAPI 3.0.3 document: the frame (and its key order) is the same for both APIs. */
export function openApiDocument(parts: DocumentParts): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: parts.title, version: parts.version, description: parts.description },
    servers: [parts.server],
    security: parts.security,
    tags: parts.tags,
    paths: parts.paths,
    components: {
      schemas: parts.schemas,
      parameters: Object.fromEntries(Object.entries(parts.parameters).map(([key, spec]) => [key, parameter(spec)])),
      responses: parts.responses,
      headers: headerComponents(parts.headers),
      securitySchemes: parts.securitySchemes,
    },
  };
}

/** The document as checked in under schema/ and served: two-space JSON with a final newline. */
export const renderOpenApi = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;
