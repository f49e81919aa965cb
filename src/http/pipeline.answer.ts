/**
 * The last step of the pipeline (src/http/pipeline.ts): an answer or a refusal written in one
 * `writeHead` with the headers every answer of the operation carries (request id, rate limit,
 * CORS, deprecation), then one request-log line.
 */
import { isPromise, then, type Maybe } from '../lib/maybe';
import { TooManyAuthFailures } from './authenticate';
import { clientErrorOf, INTERNAL_MESSAGE, logInternal } from './error-handler';
import { UNAVAILABLE_RETRY_AFTER_S } from './http-errors';
import type { AnyOperation, Answer } from './operation';
import type { Exchange } from './pipeline';
import { rateLimitHeaders } from './rate-limit';
import { answerFor, answerWhenReady, prepareJson, type JsonAnswer, type PreparedJson } from './send-json';

/** Headers a web page may read from a public answer. */
export const PUBLIC_EXPOSED_HEADERS = ['ETag', 'Link', 'X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];

const CORS: Record<'public' | 'any', readonly string[]> = {
  public: ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', PUBLIC_EXPOSED_HEADERS.join(',')],
  any: ['Access-Control-Allow-Origin', '*'],
};

const JSON_TYPE = 'application/json; charset=utf-8';

const fixed = new WeakMap<AnyOperation, readonly string[]>();

/** The headers of every answer of an operation, whatever it says: CORS and deprecation (RFC 9745, RFC 8594). */
function fixedHeaders(op: AnyOperation): readonly string[] {
  let h = fixed.get(op);
  if (h === undefined) {
    const list = [...(op.cors ? CORS[op.cors] : [])];
    const d = op.deprecated;
    if (d) {
      list.push('Deprecation', `@${Math.floor(d.since.getTime() / 1000)}`);
      if (d.sunset) list.push('Sunset', d.sunset.toUTCString());
      if (d.link) list.push('Link', `<${d.link}>; rel="deprecation"`);
    }
    h = list;
    fixed.set(op, h);
  }
  return h;
}

function ownHeaders(x: Exchange, refunded: boolean): string[] {
  const h = ['X-Request-Id', x.reqId];
  const f = fixedHeaders(x.op);
  if (f.length) h.push(...f);
  if (x.limit) h.push(...rateLimitHeaders(x.limit.decision, refunded));
  return h;
}

function isPrepared(value: unknown): value is PreparedJson {
  return typeof value === 'object' && value !== null && (value as PreparedJson).prepared === true;
}

function write(x: Exchange, status: number, headers: readonly string[], bytes: Buffer | null): void {
  x.res.writeHead(status, headers as string[]);
  x.res.end(bytes ?? undefined);
  if (!x.viaExpress) x.door.requestLog.answered(x.req, x.res, x.route, x.started, x.reqId);
}

/**
 * Sends a handler's answer. A GET's body goes with its ETag, gzip-encoded when accepted, or as a
 * 304 to a matching If-None-Match, which is given back to the limiter (docs/decisions.md#check-order);
 * other methods answer plain JSON.
 */
export function send(x: Exchange, a: Answer): Maybe<void> {
  const status = a.status ?? x.op.status ?? 200;
  const extra = a.link ? ['Link', a.link, ...(a.headers ?? [])] : (a.headers ?? []);
  if (x.op.method !== 'GET') {
    const body = Buffer.from(JSON.stringify(a.json), 'utf8');
    return write(x, status, ownHeaders(x, false).concat(extra, ['Content-Type', JSON_TYPE, 'Content-Length', String(body.length)]), body);
  }
  const json = isPrepared(a.json) ? a.json : prepareJson(a.json);
  return then(answerFor(x.req, json, status) ?? answerWhenReady(x.req, json, status), (answer) => deliver(x, answer, extra));
}

function deliver(x: Exchange, answer: JsonAnswer, extra: readonly string[]): Maybe<void> {
  const out = (refunded: boolean) => write(x, answer.status, ownHeaders(x, refunded).concat(extra, answer.headers), answer.bytes);
  if (answer.status !== 304 || !x.limit) return out(false);
  let refunded: Maybe<void>;
  try {
    refunded = x.door.limiter.refund(x.limit.key);
  } catch {
    refunded = undefined;
  }
  return then(isPromise(refunded) ? refunded.catch(() => undefined) : refunded, () => out(true));
}

/** Answers a refusal or an error: the JSON error body of its code, never anything internal. */
export function fail(x: Exchange, err: unknown): void {
  if (x.res.headersSent) {
    x.res.destroy();
    return;
  }
  const h = ['X-Request-Id', x.reqId, ...fixedHeaders(x.op)];
  let status: number;
  let body: Record<string, unknown>;
  if (err instanceof TooManyAuthFailures) {
    status = 429;
    body = { error: 'rate_limited', message: err.message };
    h.push(
      'X-RateLimit-Limit',
      String(err.limit),
      'X-RateLimit-Remaining',
      '0',
      'X-RateLimit-Reset',
      String(err.resetAt),
      'Retry-After',
      String(err.retryAfter),
    );
  } else {
    const known = clientErrorOf(err, x.req);
    if (known) {
      status = known.status;
      body = { error: known.code, message: known.message };
    } else {
      logInternal(x.door.logger, err, x.reqId);
      status = 500;
      body = { error: 'internal', message: INTERNAL_MESSAGE, request_id: x.reqId };
    }
    if (x.limit) h.push(...rateLimitHeaders(x.limit.decision));
    if (status === 429 && x.limit) h.push('Retry-After', String(x.limit.decision.retryAfter));
    if (status === 503) h.push('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
    if (status === 401) h.push('WWW-Authenticate', 'Bearer');
  }
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  write(x, status, h.concat('Content-Type', JSON_TYPE, 'Content-Length', String(bytes.length)), bytes);
}
