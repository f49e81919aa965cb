/**
 * The OpenAPI `paths` and `components/parameters` of a door, derived from its operation
 * declarations (src/http/operation.ts): what an operation answers follows from what it declares
 * (a key: 401; a scope: 403; a limit: 429 and the rate headers; path parameters: 400
 * `invalid_path`; a body: 400 `invalid_json`, 413, 415; query parameters: 422 `invalid_<name>`;
 * a GET: ETag and 304; a page: `Link`; a create: `Location`; deprecated: `deprecated: true` and
 * the `Deprecation`/`Sunset` headers). Only the prose is the declaration's own.
 */
import { errorResponse, json, ref, type ParamSpec, type Schema } from '../lib/openapi.helpers';
import { ID_AND_RATE_HEADERS, notModifiedFor, RATE_HEADERS, successResponse } from '../lib/openapi.responses';
import { parameterSchema } from '../lib/openapi.zod';
import type { AnyOperation, PathParam, QueryParam } from './operation';

/** How a door words what its operations share. */
export interface DocumentConventions {
  /** How the operation is authorised, in words (appended to its description). */
  scopeText(op: AnyOperation): string;
  /** The description of every path item (the partner API's note on methods). */
  pathDescription?: string;
  /** A shared 400 answer for operations whose only 400 is `invalid_path`. */
  badPathRef?: string;
  /** A shared 422 answer for query parameters that have one (`InvalidPaging`). */
  invalidRef?: (codes: string[]) => string | undefined;
  /** Real answers of the demo, by operationId (scripts/capture-examples.ts): the success answers' examples. */
  examples?: Record<string, { body: unknown }>;
}

export const IF_NONE_MATCH: ParamSpec = {
  name: 'If-None-Match',
  in: 'header',
  description: 'An `ETag` from an earlier answer; when it still matches, the answer is 304 with no body.',
  schema: { type: 'string' },
};

/** The Parameter spec of a query parameter: its schema from its parser, its prose followed by what the parser accepts. */
function querySpec(name: string, q: QueryParam): ParamSpec {
  const spec: ParamSpec = { name, in: 'query', description: `${q.prose} Must be ${q.parser.accepts}.`, schema: parameterSchema(q.parser.schema) };
  if (q.example !== undefined) spec.example = q.example;
  return spec;
}

function pathSpec(name: string, p: PathParam): ParamSpec {
  const spec: ParamSpec = { name, in: 'path', description: p.description, schema: p.schema ?? { type: 'string' } };
  if (p.example !== undefined) spec.example = p.example;
  return spec;
}

/** `components/parameters` of the operations, by component name, in order of first use. */
export function parameterComponents(ops: readonly AnyOperation[]): Record<string, ParamSpec> {
  const out: Record<string, ParamSpec> = {};
  for (const op of ops) {
    for (const [name, p] of Object.entries((op.params ?? {}) as Record<string, PathParam>)) out[p.component] ??= pathSpec(name, p);
    for (const [name, q] of Object.entries((op.query ?? {}) as Record<string, QueryParam>)) out[q.component] ??= querySpec(name, q);
  }
  if (ops.some((op) => op.method === 'GET')) out.IfNoneMatch = IF_NONE_MATCH;
  if (ops.some((op) => op.idempotent)) out.IdempotencyKey = IDEMPOTENCY_KEY;
  return out;
}

export const IDEMPOTENCY_KEY: ParamSpec = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    "Makes a retry safe (Stripe's semantics): the first request with a key runs and its answer is kept 24 hours for " +
    'this credential; a repeat of the same request (method, path, body) gets that answer again with ' +
    '`Idempotent-Replayed: true` instead of running twice. The same key with another request: 422 ' +
    '`idempotency_key_reused`; while the first is still running: 409 `idempotency_key_in_progress` (retry shortly). ' +
    'A refused request is not kept. 1 to 255 visible ASCII characters (a UUID), else 400 `invalid_idempotency_key`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  example: '5f2b0c7e-9a34-4c1e-8d6b-2f9e1a7c3b40',
};

/** Adds `codes` (and a sentence) to an inline error answer; a new answer when there is none. A shared ($ref) answer must name them itself. */
function withCodes(existing: Schema | undefined, sentence: string, codes: string[]): Schema {
  if (!existing) return errorResponse(sentence, codes, ID_AND_RATE_HEADERS);
  if ('$ref' in existing) return existing;
  // the shape errorResponse (src/lib/openapi.helpers.ts) writes
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const media = (existing as any).content['application/json'];
  const error = media.schema.allOf[1].properties.error;
  const schema = { allOf: [media.schema.allOf[0], { type: 'object', properties: { error: { ...error, enum: [...error.enum, ...codes] } } }] };
  return { ...existing, description: `${existing.description as string} ${sentence}`, content: { 'application/json': { ...media, schema } } };
}

const BAD_REQUEST: Record<string, string> = {
  invalid_idempotency_key: 'the `Idempotency-Key` is empty, longer than 255 characters or not visible ASCII: `invalid_idempotency_key`',
  invalid_json: 'the body is not valid JSON, or cannot be decoded under its `Content-Encoding`: `invalid_json`',
  invalid_path: 'a path value is not valid percent-encoding: `invalid_path`',
};

function responses(op: AnyOperation, conv: DocumentConventions): Schema {
  const isGet = op.method === 'GET';
  const limited = op.limit !== 'none';
  const hasPath = Object.keys(op.params ?? {}).length > 0;
  const query = Object.entries((op.query ?? {}) as Record<string, QueryParam>);
  const ok = String(op.status ?? 200);
  const okHeaders = [
    'X-Request-Id',
    ...(isGet ? ['ETag'] : []),
    ...(query.some(([n]) => n === 'page') ? ['Link'] : []),
    ...(ok === '201' ? ['Location'] : []),
    ...(limited ? RATE_HEADERS : []),
  ];
  const out: Record<string, Schema> = { [ok]: successResponse(op.doc.okDescription, okHeaders, op.doc.body, conv.examples?.[op.doc.operationId]?.body) };
  if (isGet) out['304'] = notModifiedFor(limited);
  const bad = [...(op.idempotent ? ['invalid_idempotency_key'] : []), ...(op.body ? ['invalid_json'] : []), ...(hasPath ? ['invalid_path'] : [])];
  if (bad.length === 1 && bad[0] === 'invalid_path' && conv.badPathRef) out['400'] = ref('responses', conv.badPathRef);
  else if (bad.length) {
    const words = bad.map((code) => BAD_REQUEST[code]).join('; ');
    out['400'] = errorResponse(`${words.charAt(0).toUpperCase()}${words.slice(1)}.`, bad, ['X-Request-Id']);
  }
  if (op.credential !== 'none') out['401'] = ref('responses', 'Unauthorized');
  if (op.credential !== 'none' && op.scope) out['403'] = ref('responses', 'Forbidden');
  if (op.doc.notFound) out['404'] = ref('responses', 'NotFound');
  if (op.body) {
    out['413'] = ref('responses', 'PayloadTooLarge');
    out['415'] = ref('responses', 'UnsupportedMediaType');
  }
  const invalid = op.doc.invalid;
  if (invalid && !Array.isArray(invalid)) out['422'] = ref('responses', invalid.ref);
  else {
    const codes = [...query.map(([name]) => `invalid_${name}`), ...(invalid ?? [])];
    const shared = conv.invalidRef?.(codes);
    if (shared) out['422'] = ref('responses', shared);
    else if (codes.length) {
      out['422'] = errorResponse(
        `A parameter has a bad value or is given twice: ${codes.map((c) => `\`${c}\``).join(', ')}. The message names the parameter and the accepted values.`,
        codes,
        ID_AND_RATE_HEADERS,
      );
    }
  }
  if (limited) out['429'] = ref('responses', 'TooManyRequests');
  out['500'] = ref('responses', 'InternalError');
  // Every operation that reads or writes the database (all but the documents themselves, which no limit counts).
  if (limited) out['503'] = ref('responses', 'ServiceUnavailable');
  Object.assign(out, op.doc.errors ?? {});
  if (op.idempotent) {
    out['409'] = withCodes(out['409'], 'A request with the same `Idempotency-Key` is still running: `idempotency_key_in_progress` (retry shortly).', [
      'idempotency_key_in_progress',
    ]);
    out['422'] = withCodes(out['422'], 'The `Idempotency-Key` was sent before with another request (method, path or body): `idempotency_key_reused`.', [
      'idempotency_key_reused',
    ]);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

/** An Operation Object; the key order is the same for every operation of both documents. */
function operationObject(op: AnyOperation, conv: DocumentConventions): Schema {
  const o: Schema = {
    tags: [op.doc.tag],
    summary: op.doc.summary,
    description: `${op.doc.description}\n\n${conv.scopeText(op)}`,
    operationId: op.doc.operationId,
  };
  if (op.deprecated) o.deprecated = true;
  if (op.credential !== 'none' && op.scope) o['x-required-scope'] = op.scope;
  if (op.credential === 'none') o.security = [];
  const params = [
    ...Object.values((op.params ?? {}) as Record<string, PathParam>).map((p) => p.component),
    ...Object.values((op.query ?? {}) as Record<string, QueryParam>).map((q) => q.component),
    ...(op.method === 'GET' ? ['IfNoneMatch'] : []),
    ...(op.idempotent ? ['IdempotencyKey'] : []),
  ];
  if (params.length) o.parameters = params.map((name) => ref('parameters', name));
  if (op.body) o.requestBody = ref('requestBodies', op.body.component);
  o.responses = responses(op, conv);
  return o;
}

/** `paths` of a door's operations, in declaration order; operations on one path share its item. */
export function operationPaths(ops: readonly AnyOperation[], conv: DocumentConventions): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, conv);
  }
  for (const [path, item] of Object.entries(paths)) {
    const methods = Object.keys(item);
    const head: Schema = methods.length === 1 ? { summary: (item[methods[0]] as Schema).summary } : {};
    if (conv.pathDescription) head.description = conv.pathDescription;
    paths[path] = { ...head, ...item };
  }
  return paths;
}

/**
 * `components/requestBodies` of the operations' bodies, their schemas taken out of `schemas`
 * (in place): a request body's schema written inside its Request Body Object is one that client
 * generators read as a request (openapi-typescript then keeps a field with a `default` optional).
 */
export function requestBodyComponents(ops: readonly AnyOperation[], schemas: Record<string, Schema>): Record<string, Schema> | undefined {
  const names = [...new Set(ops.flatMap((op) => (op.body ? [op.body.component] : [])))];
  if (!names.length) return undefined;
  const out: Record<string, Schema> = {};
  for (const name of names) {
    out[name] = { required: true, description: 'A JSON object (`Content-Type: application/json`), at most 64 KiB.', content: json(schemas[name]) };
    delete schemas[name];
  }
  return out;
}
