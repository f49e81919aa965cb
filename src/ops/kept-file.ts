import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * The headers every page and file of the service's browser surfaces (/docs, /studio) carries: its
 * Content-Security-Policy and the usual hardening. One home, so both surfaces change together.
 */
export function secureBrowserResponse(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** A file's body made once and kept, with its gzip encoding, sent with the security headers. */
export class KeptFile {
  private readonly gzipped: Buffer;
  constructor(
    readonly type: string,
    readonly body: Buffer,
  ) {
    this.gzipped = gzipSync(body, { level: 9 });
  }
  send(req: Request, res: Response, cache: string, csp: string): void {
    secureBrowserResponse(res, csp);
    res.setHeader('Cache-Control', cache);
    res.setHeader('Vary', 'Accept-Encoding');
    res.type(this.type);
    if (req.acceptsEncodings('gzip') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      res.send(this.gzipped);
    } else res.send(this.body);
  }
}
