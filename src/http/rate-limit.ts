import type { NextFunction, Request, Response } from 'express';
import { sendError } from './http-errors';
import type { Logger } from '../lib/logger';
import type { RateLimiter } from './rate-limiter';

declare module 'express-serve-static-core' {
  interface Locals {
    refundRateLimit?: () => Promise<void>;
  }
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
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.retryAfter));
      sendError(res, 429, 'rate_limited', `rate limit of ${limit} requests per minute exceeded; retry in ${decision.retryAfter} s`);
      return;
    }
    const remaining = decision.remaining;
    res.locals.refundRateLimit = async () => {
      await limiter.refund(key).catch(() => undefined);
      res.setHeader('X-RateLimit-Remaining', String(Math.min(limit, remaining + 1)));
    };
    next();
  };
}
