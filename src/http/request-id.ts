import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** Keeps a caller's well-formed X-Request-Id (useful behind a proxy), otherwise makes one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  req.id = given && SAFE_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  next();
}
