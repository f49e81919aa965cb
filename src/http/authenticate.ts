import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { DomainError, insufficientScope } from '../domain/errors';
import { clientIp, type TrustProxy } from '../lib/client-ip';
import { sendError } from './http-errors';
import type { Logger } from '../lib/logger';
import { isPromise, type Maybe } from '../lib/maybe';
import type { RateLimiter } from './rate-limiter';

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
 * Longest credential header accepted (Authorization, X-API-Key), in characters. Real keys and
 * session tokens are 43; anything longer is refused as 401 `unauthenticated` before any look-up,
 * so oversized values never reach a key store or its caches.
 */
export const MAX_CREDENTIAL_HEADER_LENGTH = 256;

/** Failed authentications (401) allowed per client IP per minute, over all doors. */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 30;

/** How many refused client addresses are remembered at most (the oldest is forgotten first). */
const MAX_REMEMBERED_REFUSALS = 10_000;

/** A client over its budget of failed authentications; answered 429 `rate_limited`. */
export class TooManyAuthFailures extends DomainError {
  constructor(
    readonly retryAfter: number,
    readonly limit: number,
    readonly resetAt: number,
  ) {
    super('rate_limited', `more than ${limit} failed authentications per minute from this address; retry in ${retryAfter} s`);
  }
}

/**
 * Counts failed authentications per client IP on every door and refuses a client that has used up
 * its budget without looking its credential up. Only failures are charged (one limiter call per
 * 401; a valid key costs nothing here). The failure that goes over the budget is answered 429 and
 * the address is then refused locally until the window lets it in again, so further attempts
 * cost no limiter round trip and no database look-up. Instances sharing the limiter's store share
 * the budget; each remembers its own refusals.
 */
export class AuthFailureGuard {
  private readonly refusedUntil = new Map<string, number>();
  private readonly now: () => number;

  constructor(
    private readonly opts: { limiter: Pick<RateLimiter, 'consume' | 'refund'>; trust: TrustProxy; perMinute: number; logger?: Logger; now?: () => number },
  ) {
    this.now = opts.now ?? Date.now;
  }

  get perMinute(): number {
    return this.opts.perMinute;
  }

  clientIp(req: IncomingMessage): string {
    return clientIp(req, this.opts.trust);
  }

  /** assertAllowed for a request's client; free while nobody is refused (the hot paths call it). */
  assertRequestAllowed(req: IncomingMessage): void {
    if (this.refusedUntil.size > 0) this.assertAllowed(this.clientIp(req));
  }

  /** Throws TooManyAuthFailures when `ip` is refused right now; no limiter call. */
  assertAllowed(ip: string): void {
    const until = this.refusedUntil.get(ip);
    if (until === undefined) return;
    const left = until - this.now();
    if (left <= 0) {
      this.refusedUntil.delete(ip);
      return;
    }
    throw new TooManyAuthFailures(Math.max(1, Math.ceil(left / 1000)), this.opts.perMinute, Math.ceil(until / 1000));
  }

  /**
   * Charges one failed authentication to `ip`. Throws TooManyAuthFailures when it is over the
   * budget. A limiter outage fails open (the 401 stands), loudly.
   */
  async recordFailure(ip: string): Promise<void> {
    let decision;
    try {
      decision = await this.opts.limiter.consume(`authfail:${ip}`, this.opts.perMinute);
    } catch (err) {
      this.opts.logger?.error({ err: (err as Error).message }, 'rate limiter unavailable (failed authentications)');
      return;
    }
    if (decision.allowed) return;
    const until = this.now() + decision.retryAfter * 1000;
    if (this.refusedUntil.size >= MAX_REMEMBERED_REFUSALS && !this.refusedUntil.has(ip)) {
      this.refusedUntil.delete(this.refusedUntil.keys().next().value as string);
    }
    this.refusedUntil.set(ip, until);
    throw new TooManyAuthFailures(decision.retryAfter, this.opts.perMinute, Math.ceil(until / 1000));
  }

  /**
   * Runs one authentication attempt for `ip`: refused up front when the address is over its
   * budget, charged when `isFailure(err)` says the attempt failed (the error is rethrown, or
   * TooManyAuthFailures when this failure went over the budget).
   */
  async attempt<T>(ip: string, run: () => Promise<T>, isFailure: (err: unknown) => boolean): Promise<T> {
    this.assertAllowed(ip);
    try {
      return await run();
    } catch (err) {
      if (isFailure(err)) await this.recordFailure(ip);
      throw err;
    }
  }
}

/** The 429 of the failed-authentication budget, with the usual rate-limit headers. */
export function sendTooManyAuthFailures(res: Response, err: TooManyAuthFailures): void {
  res.setHeader('X-RateLimit-Limit', String(err.limit));
  res.setHeader('X-RateLimit-Remaining', '0');
  res.setHeader('X-RateLimit-Reset', String(err.resetAt));
  res.setHeader('Retry-After', String(err.retryAfter));
  sendError(res, 429, 'rate_limited', err.message);
}

export const isAuthFailure = (err: unknown) => err instanceof DomainError && (err.code === 'unauthenticated' || err.code === 'invalid_key');

/**
 * Reads the credential of a door: `Authorization: Bearer <token>` (which wins when both are
 * sent) or, where allowed, `X-API-Key`. Tokens of another door's prefix are refused as unknown.
 */
export function extractToken(req: IncomingMessage, allowApiKeyHeader: boolean): string {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    if (auth.length > MAX_CREDENTIAL_HEADER_LENGTH) {
      throw new DomainError('unauthenticated', `the Authorization header is longer than ${MAX_CREDENTIAL_HEADER_LENGTH} characters`);
    }
    const m = BEARER.exec(auth.trim());
    if (!m) throw new DomainError('unauthenticated', 'the Authorization header must be "Bearer <API key>"');
    return m[1];
  }
  const header = req.headers['x-api-key'];
  const apiKey = allowApiKeyHeader ? (Array.isArray(header) ? header.join(', ') : header) : undefined;
  if (apiKey !== undefined && apiKey.length > MAX_CREDENTIAL_HEADER_LENGTH) {
    throw new DomainError('unauthenticated', `the X-API-Key header is longer than ${MAX_CREDENTIAL_HEADER_LENGTH} characters`);
  }
  if (apiKey !== undefined && apiKey.trim() !== '') return apiKey.trim();
  throw new DomainError(
    'unauthenticated',
    allowApiKeyHeader
      ? 'an API key is required: send "Authorization: Bearer <API key>" or "X-API-Key: <API key>"'
      : 'a key is required: send "Authorization: Bearer <key>"',
  );
}

export interface CredentialRule {
  allowApiKeyHeader: boolean;
  tokenPrefix: string;
  failures: AuthFailureGuard;
}

/**
 * The door's key check, written once for every door: the client's budget of failed
 * authentications (a client over it gets 429 `rate_limited` before its credential is read), the
 * credential header, the door's token prefix, then `resolve` (at once for a cached key). Every
 * 401 is charged to the client address's budget; the error thrown is the 401's DomainError, or
 * TooManyAuthFailures when that failure went over the budget.
 */
export function authenticateRequest<P>(req: IncomingMessage, rule: CredentialRule, resolve: (token: string) => Maybe<P>): Maybe<P> {
  let found: Maybe<P>;
  try {
    rule.failures.assertRequestAllowed(req);
    const token = extractToken(req, rule.allowApiKeyHeader);
    if (!token.startsWith(rule.tokenPrefix)) throw new DomainError('invalid_key', 'the key is not recognised');
    found = resolve(token);
  } catch (err) {
    return charged(req, rule, err);
  }
  return isPromise(found) ? found.catch((err: unknown) => charged(req, rule, err)) : found;
}

function charged(req: IncomingMessage, rule: CredentialRule, err: unknown): Promise<never> {
  if (!isAuthFailure(err)) return Promise.reject(err);
  return rule.failures.recordFailure(rule.failures.clientIp(req)).then(() => Promise.reject(err));
}

/** The 401 and 429 answers of a failed authentication, as express middleware answers them. */
function sendAuthRefusal(res: Response, err: unknown): boolean {
  if (err instanceof TooManyAuthFailures) {
    sendTooManyAuthFailures(res, err);
    return true;
  }
  if (err instanceof DomainError && isAuthFailure(err)) {
    sendError(res, 401, err.code, err.message);
    return true;
  }
  return false;
}

/** `authenticateRequest` as express middleware (the studio's door); the REST doors run it in src/http/pipeline.ts. */
export function authenticate(resolve: (token: string, req: Request) => Maybe<Principal>, rule: CredentialRule) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      req.principal = await authenticateRequest(req, rule, (token) => resolve(token, req));
      next();
    } catch (err) {
      if (!sendAuthRefusal(res, err)) next(err);
    }
  };
}

/** The scope refusal of a principal, or null when it may go on. */
export function scopeRefusal(scope: string | null, scopes: readonly string[] | undefined): DomainError | null {
  return scope && !scopes?.includes(scope) ? insufficientScope(scope, scopes ?? []) : null;
}

export function requireScope(scope: string | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const refusal = scopeRefusal(scope, req.principal?.scopes);
    if (refusal) {
      sendError(res, 403, 'insufficient_scope', refusal.message);
      return;
    }
    next();
  };
}
