import etag from 'etag';
import Negotiator from 'negotiator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
export const MIN_GZIP_BYTES = 1024;

/** How answers are compressed, as both API documents say it. */
export const COMPRESSION_NOTE =
  `An answer of ${MIN_GZIP_BYTES} bytes or more is sent gzip-encoded (\`Content-Encoding: gzip\`) when the request's ` +
  '`Accept-Encoding` allows it, and as it is otherwise (`Vary: Accept-Encoding`). The gzip encoding has its own ' +
  '`ETag` (the plain one with `-gzip` before the closing quote); either tag of the same answer gives a 304.';

const gzipAsync = promisify(gzip);

/** A JSON body serialised once, with its ETag: what hot caches keep. */
export interface PreparedJson {
  readonly prepared: true;
  readonly body: Buffer;
  readonly etag: string;
  /** The gzip encoding of `body`, made on the first request that accepts it and kept with the body. */
  gzipped?: Promise<Buffer>;
}

export function prepareJson(value: unknown): PreparedJson {
  const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  return { prepared: true, body, etag: etag(body) };
}

function isPrepared(value: unknown): value is PreparedJson {
  return typeof value === 'object' && value !== null && (value as PreparedJson).prepared === true;
}

/** The ETag of the gzip encoding: another representation, so another strong validator. */
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
  const json = isPrepared(value) ? value : prepareJson(value);
  const compressible = json.body.length >= MIN_GZIP_BYTES;
  const encoded = compressible && acceptsGzip(req);
  if (compressible) addVary(res, 'Accept-Encoding');
  res.setHeader('ETag', encoded ? gzipEtag(json.etag) : json.etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  const ifNoneMatch = req.headers['if-none-match'];
  if (status === 200 && (matchesEtag(ifNoneMatch, json.etag) || (compressible && matchesEtag(ifNoneMatch, gzipEtag(json.etag))))) {
    await res.locals?.refundRateLimit?.();
    res.statusCode = 304;
    res.end();
    return;
  }
  const bytes = encoded ? await (json.gzipped ??= gzipAsync(json.body)) : json.body;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (encoded) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
