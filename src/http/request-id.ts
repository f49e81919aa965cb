import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** A caller's well-formed X-Request-Id (useful behind a proxy), otherwise a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/** Sets the answer's X-Request-Id (see `requestIdOf`). */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader('X-Request-Id', id);
  return id;
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.id = assignRequestId(req, res);
  next();
}
