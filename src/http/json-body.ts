import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { HttpError } from './http-errors';

/** The largest request body the REST doors read (docs/decisions.md#broadcast-create). */
export const MAX_JSON_BODY = '64kb';

const parse = express.json({ limit: MAX_JSON_BODY, strict: false });

/** A request that carries a body (RFC 9112: a length or a transfer coding) of media type application/json. */
function isJsonRequest(req: IncomingMessage): boolean {
  const hasBody = req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return hasBody && type === 'application/json';
}

/**
 * The JSON body of a request: 415 `unsupported_media_type` for anything but JSON; body-parser's
 * errors (413 past 64 KiB, 400 `invalid_json`, an encoding it cannot decode) are mapped by
 * http/error-handler.ts `clientErrorOf`.
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  if (!isJsonRequest(req)) {
    return Promise.reject(new HttpError('unsupported_media_type', 'send the body as JSON with "Content-Type: application/json"'));
  }
  return new Promise((resolve, reject) => {
    parse(req as express.Request, res as express.Response, (err?: unknown) => (err ? reject(err) : resolve((req as { body?: unknown }).body)));
  });
}
