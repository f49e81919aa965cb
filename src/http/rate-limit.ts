import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../domain/errors';
import { isPromise, type Maybe } from '../lib/maybe';
import { sendError } from './http-errors';
import type { Logger } from '../lib/logger';
import type { LimitDecision, RateLimiter } from './rate-limiter';
import { setHeaders } from './send-json';

declare module 'express-serve-static-core' {
  interface Locals {
    refundRateLimit?: () => Promise<void>;
  }
}

/**
 * The X-RateLimit-* headers of a decision, as a flat list (name, value, ...). A request given back
 * to the limiter (a 304, docs/decisions.md#check-order) shows the point it got back.
 */
export function rateLimitHeaders(decision: LimitDecision, refunded = false): string[] {
  const remaining = refunded ? Math.min(decision.limit, decision.remaining + 1) : decision.remaining;
  return ['X-RateLimit-Limit', String(decision.limit), 'X-RateLimit-Remaining', String(remaining), 'X-RateLimit-Reset', String(decision.resetAt)];
}

/** A refused request's 429 (docs/decisions.md#rate-limits), with `Retry-After`; its rate headers are the caller's. */
export function rateLimited(limit: number, decision: LimitDecision): DomainError {
  return new DomainError('rate_limited', `rate limit of ${limit} requests per minute exceeded; retry in ${decision.retryAfter} s`, {
    retryAfter: decision.retryAfter,
  });
}

/**
 * Charges one request to a bucket, for every door: the decision (at once with the in-process
 * store), or null when the limiter is out of order (Redis down: the API fails open, loudly, rather
 * than going down with it).
 */
export function chargeRequest(limiter: RateLimiter, logger: Logger, key: string, limit: number, reqId: string | undefined): Maybe<LimitDecision | null> {
  const failOpen = (err: unknown) => {
    logger.error({ req_id: reqId, err: (err as Error).message }, 'rate limiter unavailable');
    return null;
  };
  try {
    const decision = limiter.consume(key, limit);
    return isPromise(decision) ? decision.catch(failOpen) : decision;
  } catch (err) {
    return failOpen(err);
  }
}

/**
 * `chargeRequest` as express middleware (the studio's door): sets the X-RateLimit-* headers,
 * answers 429, and leaves the 304 refund hook for sendJson. `bucketOf` picks the bucket (a
 * session, a client IP) and its per-minute size.
 */
export function rateLimit(limiter: RateLimiter, logger: Logger, bucketOf: (req: Request) => { key: string; limit: number }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const { key, limit } = bucketOf(req);
    const decision = await chargeRequest(limiter, logger, key, limit, req.id);
    if (!decision) return next();
    setHeaders(res, rateLimitHeaders(decision));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.retryAfter));
      sendError(res, 429, 'rate_limited', rateLimited(limit, decision).message);
      return;
    }
    res.locals.refundRateLimit = async () => {
      await Promise.resolve(limiter.refund(key)).catch(() => undefined);
      setHeaders(res, rateLimitHeaders(decision, true));
    };
    next();
  };
}
