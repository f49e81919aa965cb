import etag from 'etag';
import type { Request, Response } from 'express';

/**
 * Sends a JSON body with a strong ETag and answers 304 to a matching If-None-Match. A 304 does
 * not count against the rate limit (D4.3), so the caller's refund hook runs first.
 */
export async function sendJson(req: Request, res: Response, body: unknown, status = 200): Promise<void> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const tag = etag(payload);
  res.setHeader('ETag', tag);
  res.setHeader('Cache-Control', 'private, no-cache');
  const inm = req.get('if-none-match');
  if (status === 200 && inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === tag || t.trim() === '*')) {
    await res.locals.refundRateLimit?.();
    res.status(304).end();
    return;
  }
  res.status(status).type('application/json; charset=utf-8').send(payload);
}
