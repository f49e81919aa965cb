import etag from 'etag';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A JSON body serialised once, with its ETag: what hot caches keep. */
export interface PreparedJson {
  readonly prepared: true;
  readonly body: Buffer;
  readonly etag: string;
}

export function prepareJson(value: unknown): PreparedJson {
  const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  return { prepared: true, body, etag: etag(body) };
}

function isPrepared(value: unknown): value is PreparedJson {
  return typeof value === 'object' && value !== null && (value as PreparedJson).prepared === true;
}

export function matchesEtag(ifNoneMatch: string | undefined, tag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === tag || t.trim() === '*');
}

/**
 * Sends a JSON body with a strong ETag and answers 304 to a matching If-None-Match. A 304 does
 * not count against the rate limit (docs/decisions.md#check-order), so the refund hook runs first. Node omits the body
 * of a HEAD answer by itself.
 */
export async function sendJson(
  req: IncomingMessage,
  res: ServerResponse & { locals?: { refundRateLimit?: () => Promise<void> } },
  value: unknown,
  status = 200,
): Promise<void> {
  const json = isPrepared(value) ? value : prepareJson(value);
  res.setHeader('ETag', json.etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if (status === 200 && matchesEtag(req.headers['if-none-match'], json.etag)) {
    await res.locals?.refundRateLimit?.();
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', json.body.length);
  res.end(json.body);
}
