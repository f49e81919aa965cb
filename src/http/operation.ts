/**
 * An operation of a REST door, declared once (docs/adr/0010-operations.md): method, path,
 * credential, scope, limit, the zod-described parameters and body, cacheability, deprecation,
 * the handler, and the document's words beside them. From the declarations come the routing
 * (src/http/operation-router.ts), the one request pipeline with its kept-answer step
 * (src/http/pipeline.ts), both OpenAPI documents (src/lib/openapi/) and the contract-test tables
 * (test/e2e/contract.test.ts).
 */
import type { Maybe } from '../lib/maybe';
import type { Schema } from '../lib/openapi.zod';
import type { ParamSpec as QueryParser } from './query';
import type { PreparedJson } from './send-json';

export type Method = 'GET' | 'POST' | 'PATCH';

/** Who may call: a partner key, a channel key, or anyone (no key read at all). */
export type Credential = 'partner-key' | 'channel-key' | 'none';

/** What a request is charged to: its key, its client address (public endpoints), or nothing. */
export type LimitPolicy = 'key' | 'client-ip' | 'none';

/** A query parameter: its parser (http/query.ts `params`, whose 422 message says what it accepts) and the document's words. */
export interface QueryParam<T = unknown> {
  /** Its name under `components/parameters`, shared by the operations that take it. */
  component: string;
  parser: QueryParser<T>;
  prose: string;
  example?: unknown;
}

/** A path parameter: a non-empty, percent-decoded segment. */
export interface PathParam {
  component: string;
  description: string;
  schema?: Schema;
  example?: unknown;
}

/** A JSON request body: the schema the document shows and the reader that turns it into the domain's input (422s). */
export interface BodyDecl<B> {
  /** Name of the body's schema under `components/schemas`. */
  component: string;
  read(raw: unknown): B;
}

/** What a handler answers: a body (prepared for GETs: ETag, gzip, 304), its status and own headers. */
export interface Answer {
  status?: number;
  json: PreparedJson | unknown;
  /** The `Link` header of a list page. */
  link?: string | null;
  /** Further headers, as a flat list (`Location`, ...). */
  headers?: readonly string[];
}

/** What the pipeline hands a handler: everything parsed and checked. */
export interface Input<Q, B, P> {
  params: Record<string, string>;
  query: Q;
  body: B;
  /** The door's principal (null for a public operation). */
  principal: P;
  /** Path and query as sent. */
  url: string;
}

/** A deprecated operation answers `Deprecation` (RFC 9745) and, with a date, `Sunset` (RFC 8594). */
export interface Deprecation {
  /** When it was deprecated; the `Deprecation` header's date. */
  since: Date;
  /** When it stops answering, if decided. */
  sunset?: Date;
  /** Where the replacement is described (a `Link` with `rel="deprecation"`). */
  link?: string;
}

/** The document's words and shapes for an operation besides what the declaration already says. */
export interface OperationDoc {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  okDescription: string;
  /** Name of the success body's schema, or an inline schema. */
  body: string | Schema;
  /** The operation can answer 404 (an unknown subject). */
  notFound?: boolean;
  /** 422 codes besides `invalid_<parameter>` of the query parameters (a shared response name, or codes). */
  invalid?: string[] | { ref: string };
  /** Error answers besides the derived ones, by status. */
  errors?: Record<string, Schema>;
}

/** A query as its parameters' declarations parse it: each declared key, optional, of its parser's type. */
export type Parsed<S> = { [K in keyof S]?: S[K] extends QueryParam<infer T> ? T : never };

export interface Operation<D = never, S extends Record<string, QueryParam> = Record<string, QueryParam>, B = unknown, P = unknown> {
  method: Method;
  /** Relative to the door's base, `{name}` for a path parameter (as the document writes it). */
  path: string;
  credential: Credential;
  /** The scope the key needs; null: any valid key (or none, for a public operation). */
  scope: string | null;
  limit: LimitPolicy;
  /** `public`: any origin, with the headers a page may read; `any`: any origin (a document). */
  cors?: 'public' | 'any';
  params?: Record<string, PathParam>;
  query?: S;
  body?: BodyDecl<B>;
  /** `201` for a create. */
  status?: 200 | 201;
  /**
   * A write that takes `Idempotency-Key` (docs/decisions.md#idempotency): a repeat with the same key
   * and request gets the first answer again (`Idempotent-Replayed: true`) instead of running twice.
   */
  idempotent?: boolean;
  /** A GET whose whole answer may be kept by URL until its data moves (docs/adr/0005-rankings-fast-path.md). */
  kept?: boolean;
  deprecated?: Deprecation;
  handler(deps: D, input: Input<Parsed<S>, B, P>): Maybe<Answer>;
  doc: OperationDoc;
}

/** Declares an operation with its handler's input typed by its own parameters and body. */
export function defineOperation<D, S extends Record<string, QueryParam> = Record<string, never>, B = undefined, P = unknown>(
  op: Operation<D, S, B, P>,
): Operation<D, S, B, P> {
  return op;
}

/** An operation of any deps, as routers and documents take it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any, any>;

/** `/fighters/{slug}` → `/fighters/:slug` (express's way). */
export const expressPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');
