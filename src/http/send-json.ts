import Negotiator from 'negotiator';
import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
export const MIN_GZIP_BYTES = 1024;

/** How answers are compressed, as both API documents say it. */
export const COMPRESSION_NOTE =
  `An answer of ${MIN_GZIP_BYTES} bytes or more is sent gzip-encoded (\`Content-Encoding: gzip\`) when the request's ` +
  '`Accept-Encoding` allows it, and as it is otherwise (`Vary: Accept-Encoding`). The gzip encoding has its own ' +
  '`ETag` (the plain one with `-gzip` before the closing quote); either tag of the same answer gives a 304.';

const gzipAsync = promisify(gzip);

/**
 * Bodies up to this size are compressed on the event loop: for them zlib's thread-pool hop (a
 * handle, a task, a callback) costs more CPU than the compression (a 4 KB profile: about 45 µs
 * at once against 95 through the pool), and a cold read answers sooner.
 */
export const SYNC_GZIP_MAX_BYTES = 32 * 1024;

/**
 * The level of those: a 19 KB page of results takes about 45 µs at level 3 against 125 at the
 * default 6, for a stream 7% longer (a 3 KB profile: the same either way).
 */
const SYNC_GZIP_LEVEL = 3;

/**
 * The gzip encoding of a small body, with a window just large enough for it: deflate cannot
 * reach further back than the body's start anyway, and a smaller window is cheaper to set up.
 */
export function gzipSmall(body: Buffer): Buffer {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(body.length + 262))));
  return gzipSync(body, { windowBits, level: SYNC_GZIP_LEVEL });
}

/** A JSON body serialised once, with its ETag: what hot caches keep. */
export interface PreparedJson {
  readonly prepared: true;
  readonly body: Buffer;
  readonly etag: string;
  /** The gzip encoding of `body`, made on the first request that accepts it and kept with the body. */
  gzipped?: Promise<Buffer>;
  /** `gzipped` once made: lets an answer be written without awaiting. */
  gzippedBytes?: Buffer;
  /** The answer headers of each representation, made once (see `answerFor`). */
  heads?: { plain?: readonly string[]; gzip?: readonly string[]; plain304?: readonly string[]; gzip304?: readonly string[] };
}

export function prepareJson(value: unknown): PreparedJson {
  const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  return { prepared: true, body, etag: strongEtag(body) };
}

/** The ETag of an empty body (the SHA-1 of nothing). */
const EMPTY_ETAG = '"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';

/**
 * The strong ETag of a body: its length in hex and the first 27 base64 characters of its SHA-1,
 * the tag the `etag` package makes (and express would), made with the one-shot `crypto.hash`
 * (about a microsecond for a small body, against four to eight through a Hash object: every
 * answer not kept, `/me` on each request, pays it).
 */
export function strongEtag(body: Buffer): string {
  if (body.length === 0) return EMPTY_ETAG;
  return `"${body.length.toString(16)}-${hash('sha1', body, 'base64').substring(0, 27)}"`;
}

function isPrepared(value: unknown): value is PreparedJson {
  return typeof value === 'object' && value !== null && (value as PreparedJson).prepared === true;
}

/** The ETag of the gzip encoding: another representation, so another strong validator. */
/**
 * The bytes a kept body costs: the body, its gzip and prepared headers (made later, on the first
 * requests; counted up front at the body's size) and the object's overhead. For the byte budgets
 * of the caches that keep answers (src/lib/versioned-cache.ts).
 */
export function weightOfJson(json: unknown): number {
  return isPrepared(json) ? 2 * json.body.length + 512 : 2048;
}

export function gzipEtag(tag: string): string {
  return `${tag.slice(0, -1)}-gzip"`;
}

export function matchesEtag(ifNoneMatch: string | undefined, tag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === tag || t.trim() === '*');
}

// Clients send the same few Accept-Encoding values again and again: each is negotiated once.
const accepted = new Map<string, boolean>();

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (!header) return false;
  let yes = accepted.get(header);
  if (yes === undefined) {
    yes = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(['gzip', 'identity']) === 'gzip';
    if (accepted.size >= 256) accepted.clear();
    accepted.set(header, yes);
  }
  return yes;
}

function addVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) return void res.setHeader('Vary', field);
  const list = String(current);
  if (!list.split(',').some((f) => f.trim().toLowerCase() === field.toLowerCase() || f.trim() === '*')) res.setHeader('Vary', `${list}, ${field}`);
}

/** What to send for a prepared body: status, headers as a flat list (name, value, ...), and bytes (none for a 304). */
export interface JsonAnswer {
  status: number;
  headers: readonly string[];
  bytes: Buffer | null;
}

/**
 * The answer to this request for a prepared body, as `sendJson` sends it: 304 to a matching
 * If-None-Match, the gzip encoding to a client that accepts it when the body is MIN_GZIP_BYTES or
 * more. Null when that encoding is wanted but not made yet (`sendJson` makes it). The header
 * lists are made once per body and representation.
 */
export function answerFor(req: IncomingMessage, json: PreparedJson, status = 200): JsonAnswer | null {
  const compressible = json.body.length >= MIN_GZIP_BYTES;
  const encoded = compressible && acceptsGzip(req);
  const ifNoneMatch = req.headers['if-none-match'];
  const heads = (json.heads ??= {});
  if (status === 200 && ifNoneMatch && (matchesEtag(ifNoneMatch, json.etag) || (compressible && matchesEtag(ifNoneMatch, gzipEtag(json.etag))))) {
    const headers = encoded ? (heads.gzip304 ??= validators(json, true)) : (heads.plain304 ??= validators(json, false));
    return { status: 304, headers, bytes: null };
  }
  if (encoded) {
    const bytes = json.gzippedBytes;
    if (!bytes) return null;
    return {
      status,
      headers: (heads.gzip ??= [...validators(json, true), 'Content-Type', JSON_TYPE, 'Content-Encoding', 'gzip', 'Content-Length', String(bytes.length)]),
      bytes,
    };
  }
  return {
    status,
    headers: (heads.plain ??= [...validators(json, false), 'Content-Type', JSON_TYPE, 'Content-Length', String(json.body.length)]),
    bytes: json.body,
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Vary (a body with two representations), ETag (of the representation sent) and Cache-Control. */
function validators(json: PreparedJson, gzipped: boolean): string[] {
  const vary = json.body.length >= MIN_GZIP_BYTES ? ['Vary', 'Accept-Encoding'] : [];
  return [...vary, 'ETag', gzipped ? gzipEtag(json.etag) : json.etag, 'Cache-Control', 'private, no-cache'];
}

/** Makes (once per body) the gzip encoding `answerFor` needs: at once for a small body, else off the event loop. */
function encodeGzip(json: PreparedJson): Promise<void> | undefined {
  if (json.gzippedBytes) return;
  if (json.body.length <= SYNC_GZIP_MAX_BYTES) {
    json.gzippedBytes = gzipSmall(json.body);
    return;
  }
  return (json.gzipped ??= gzipAsync(json.body)).then((bytes) => {
    json.gzippedBytes = bytes;
  });
}

/** `answerFor`, once the gzip encoding it needs is made (at once when it is, is not wanted, or the body is small). */
export function answerWhenReady(req: IncomingMessage, json: PreparedJson, status = 200): JsonAnswer | Promise<JsonAnswer> {
  const answer = answerFor(req, json, status);
  if (answer) return answer;
  const encoding = encodeGzip(json);
  return encoding ? encoding.then(() => answerFor(req, json, status)!) : answerFor(req, json, status)!;
}

/**
 * Sends a JSON body with a strong ETag and answers 304 to a matching If-None-Match. A body of
 * MIN_GZIP_BYTES or more goes gzip-encoded to a client that accepts it (its own ETag; either
 * ETag of the same body answers 304). A 304 does not count against the rate limit
 * (docs/decisions.md#check-order), so the refund hook runs first. Node omits the body of a HEAD
 * answer by itself.
 */
export async function sendJson(
  req: IncomingMessage,
  res: ServerResponse & { locals?: { refundRateLimit?: () => Promise<void> } },
  value: unknown,
  status = 200,
): Promise<void> {
  const answer = await answerWhenReady(req, isPrepared(value) ? value : prepareJson(value), status);
  if (answer.status === 304) await res.locals?.refundRateLimit?.();
  setHeaders(res, answer.headers);
  res.statusCode = answer.status;
  res.end(answer.bytes ?? undefined);
}

/** Sets a flat header list (name, value, ...) one by one, adding to a Vary already set. */
export function setHeaders(res: ServerResponse, headers: readonly string[]): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === 'Vary') addVary(res, headers[i + 1]);
    else res.setHeader(headers[i], headers[i + 1]);
  }
}

/**
 * A handler run before express (partner and TV fast paths): true when it answered, false when
 * express must (nothing was sent, counted or charged), or a promise of either.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** Fast paths keep whole answers by URL up to this length; longer URLs are answered, not kept. */
export const MAX_KEPT_URL_LENGTH = 1024;

/**
 * Writes an answer at once, the caller's own headers (request id, rate limit, Link...) first, in
 * one writeHead: for fast paths, on a response nothing else has set a header on.
 */
export function writeAnswer(res: ServerResponse, answer: JsonAnswer, own: readonly string[]): void {
  res.writeHead(answer.status, own.concat(answer.headers));
  res.end(answer.bytes ?? undefined);
}

const onceByText = new Map<string, PreparedJson>();

/** A fixed JSON text (an OpenAPI document) prepared once: its ETag and gzip encoding are made once. */
export function preparedOnce(text: string): PreparedJson {
  let json = onceByText.get(text);
  if (!json) {
    json = prepareJson(text);
    if (onceByText.size >= 16) onceByText.clear();
    onceByText.set(text, json);
  }
  return json;
}
