import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../domain/errors';
import { sendError } from './http-errors';

export interface Principal {
  kind: string;
  /** The rate-limit bucket and its size. */
  limitKey: string;
  limitPerMinute: number;
  scopes: readonly string[];
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

// The scheme name is case-insensitive (RFC 7235 2.1): clients that send `bearer` are not malformed.
const BEARER = /^Bearer ([A-Za-z0-9_.~+/-]{1,200}=*)$/i;

/**
 * Reads the credential of a door: `Authorization: Bearer <token>` (which wins when both are
 * sent) or, where allowed, `X-API-Key`. Tokens of another door's prefix are refused as unknown.
 */
export function extractToken(req: IncomingMessage, allowApiKeyHeader: boolean): string {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    const m = BEARER.exec(auth.trim());
    if (!m) throw new DomainError('unauthenticated', 'the Authorization header must be "Bearer <API key>"');
    return m[1];
  }
  const header = req.headers['x-api-key'];
  const apiKey = allowApiKeyHeader ? (Array.isArray(header) ? header.join(', ') : header) : undefined;
  if (apiKey !== undefined && apiKey.trim() !== '') return apiKey.trim();
  throw new DomainError('unauthenticated', allowApiKeyHeader
    ? 'an API key is required: send "Authorization: Bearer <API key>" or "X-API-Key: <API key>"'
    : 'a key is required: send "Authorization: Bearer <key>"');
}

export function authenticate(
  resolve: (token: string, req: Request) => Promise<Principal>,
  opts: { allowApiKeyHeader: boolean; tokenPrefix: string },
) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const token = extractToken(req, opts.allowApiKeyHeader);
      if (!token.startsWith(opts.tokenPrefix)) throw new DomainError('invalid_key', 'the key is not recognised');
      req.principal = await resolve(token, req);
      next();
    } catch (err) {
      if (err instanceof DomainError && (err.code === 'unauthenticated' || err.code === 'invalid_key')) {
        sendError(res, 401, err.code, err.message);
        return;
      }
      next(err);
    }
  };
}

export function requireScope(scope: string | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (scope && !req.principal?.scopes.includes(scope)) {
      sendError(res, 403, 'insufficient_scope', `this endpoint needs the "${scope}" scope; the key has: ${req.principal?.scopes.join(', ') || 'none'}`);
      return;
    }
    next();
  };
}
