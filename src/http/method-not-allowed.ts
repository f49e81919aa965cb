import type { RequestHandler } from 'express';
import { sendError } from './http-errors';

/** A 405 with its Allow header; `note` says why, e.g. that the partner API is read-only. */
export function methodNotAllowed(allow: string, note: string | null = 'the partner API is read-only'): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allow);
    sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here${note ? `; ${note}` : ''} (allowed: ${allow})`);
  };
}
