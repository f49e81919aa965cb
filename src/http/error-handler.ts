import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { isDbUnavailable, UNAVAILABLE_MESSAGE } from '../domain/storage-errors';
import { DomainError } from '../domain/errors';
import { HttpError, sendError, statusFor } from './http-errors';
import type { Logger } from '../lib/logger';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

const PARSER_ERRORS: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'invalid_json', 'the request body is not valid JSON'],
  'entity.too.large': [413, 'payload_too_large', 'the request body is larger than 64 KiB'],
  'encoding.unsupported': [415, 'unsupported_media_type', 'unsupported content encoding'],
  'charset.unsupported': [415, 'unsupported_media_type', 'unsupported charset'],
  'request.aborted': [400, 'request_aborted', 'the request was aborted'],
};

const isEncoded = (req: IncomingMessage): boolean => {
  const encoding = req.headers['content-encoding'];
  return typeof encoding === 'string' && encoding.trim().toLowerCase() !== 'identity';
};

/** What a client is told of an error: its status, code and message; null for an internal error (a 500). */
export interface ClientError {
  status: number;
  code: string;
  message: string;
}

/** The 503 answer when `err` says the database cannot be reached (classified in src/db/pg-errors.ts), else null. */
export function unavailableError(err: unknown): ClientError | null {
  if (err instanceof DomainError) return err.code === 'unavailable' ? { status: statusFor(err.code), code: err.code, message: err.message } : null;
  return isDbUnavailable(err) ? { status: statusFor('unavailable'), code: 'unavailable', message: UNAVAILABLE_MESSAGE } : null;
}

/** The one mapping of errors to answers, for express and the REST pipeline alike. */
export function clientErrorOf(err: unknown, req: IncomingMessage): ClientError | null {
  if (err instanceof DomainError || err instanceof HttpError) return { status: statusFor(err.code), code: err.code, message: err.message };
  // The database cannot be reached (a restart, a cut connection): every door answers 503 the same way.
  const unavailable = unavailableError(err);
  if (unavailable) return unavailable;
  const parserError = err as BodyParserError;
  if (parserError?.type && PARSER_ERRORS[parserError.type]) {
    const [status, code, message] = PARSER_ERRORS[parserError.type];
    const limit =
      parserError.type === 'entity.too.large' && parserError.limit ? `the request body is larger than ${Math.round(parserError.limit / 1024)} KiB` : message;
    return { status, code, message: limit };
  }
  // A body that its Content-Encoding (gzip, deflate, br) cannot decode: body-parser passes the
  // decompressor's error on with status 400 and no type. It is no more JSON than a malformed one.
  if (parserError?.status === 400 && !parserError.type && isEncoded(req)) {
    return { status: 400, code: 'invalid_json', message: `the request body cannot be decoded as "${req.headers['content-encoding']}"` };
  }
  if (parserError?.status === 400 && parserError instanceof URIError) return { status: 400, code: 'invalid_path', message: 'the request path is not valid' };
  return null;
}

export const INTERNAL_MESSAGE = 'an internal error occurred; quote the request id when reporting it';

/** Logs an internal error with its stack (never sent to the client). */
export function logInternal(logger: Logger, err: unknown, reqId: string | undefined): void {
  logger.error({ req_id: reqId, err: { message: (err as Error)?.message, name: (err as Error)?.name, stack: (err as Error)?.stack } }, 'unhandled error');
}

/** Maps every error to a JSON body; nothing internal (stack, SQL) ever reaches a client. */
export function errorHandler(logger: Logger) {
  // express recognises error middleware by its four parameters
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const known = clientErrorOf(err, req);
    if (known) {
      sendError(res, known.status, known.code, known.message);
      return;
    }
    logInternal(logger, err, req.id);
    sendError(res, 500, 'internal', INTERNAL_MESSAGE, { request_id: req.id });
  };
}
