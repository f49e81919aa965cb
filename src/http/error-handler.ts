import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../domain/errors';
import { sendError, statusFor } from './http-errors';
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

const isEncoded = (req: Request): boolean => {
  const encoding = req.headers['content-encoding'];
  return typeof encoding === 'string' && encoding.trim().toLowerCase() !== 'identity';
};

/** Maps every error to a JSON body; nothing internal (stack, SQL) ever reaches a client. */
export function errorHandler(logger: Logger) {
  // express recognises error middleware by its four parameters
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof DomainError) {
      sendError(res, statusFor(err.code), err.code, err.message);
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError?.type && PARSER_ERRORS[parserError.type]) {
      const [status, code, message] = PARSER_ERRORS[parserError.type];
      const limit = parserError.type === 'entity.too.large' && parserError.limit ? `the request body is larger than ${Math.round(parserError.limit / 1024)} KiB` : message;
      sendError(res, status, code, limit);
      return;
    }
    // A body that its Content-Encoding (gzip, deflate, br) cannot decode: body-parser passes the
    // decompressor's error on with status 400 and no type. It is no more JSON than a malformed one.
    if (parserError?.status === 400 && !parserError.type && isEncoded(req)) {
      sendError(res, 400, 'invalid_json', `the request body cannot be decoded as "${req.headers['content-encoding']}"`);
      return;
    }
    if (parserError?.status === 400 && parserError instanceof URIError) {
      sendError(res, 400, 'invalid_path', 'the request path is not valid');
      return;
    }
    logger.error({ req_id: req.id, err: { message: (err as Error)?.message, name: (err as Error)?.name, stack: (err as Error)?.stack } }, 'unhandled error');
    sendError(res, 500, 'internal', 'an internal error occurred; quote the request id when reporting it', { request_id: req.id });
  };
}
