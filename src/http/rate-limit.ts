import type { NextFunction, Request, Response } from 'express';
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

/**
 * Charges one request to a bucket and sets the X-RateLimit-* headers. `bucketOf` picks the
 * bucket (an API key, a session, a client IP) and its per-minute size.
 */
export function rateLimit(limiter: RateLimiter, logger: Logger, bucketOf: (req: Request) => { key: string; limit: number }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const { key, limit } = bucketOf(req);
    let decision;
    try {
      decision = await limiter.consume(key, limit);
    } catch (err) {
      // A limiter outage (Redis down) must not take the API down with it: fail open, loudly.
      logger.error({ req_id: req.id, err: (err as Error).message }, 'rate limiter unavailable');
      next();
      return;
    }
    setHeaders(res, rateLimitHeaders(decision));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.retryAfter));
      sendError(res, 429, 'rate_limited', `rate limit of ${limit} requests per minute exceeded; retry in ${decision.retryAfter} s`);
      return;
    }
    res.locals.refundRateLimit = async () => {
      await limiter.refund(key).catch(() => undefined);
      setHeaders(res, rateLimitHeaders(decision, true));
    };
    next();
  };
}
