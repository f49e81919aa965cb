import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { assertValidLimit, assertValidWindowMs, evaluateSlidingWindow, windowIndexAt } from './sliding-window.math';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds */
  resetAt: number;
  /** Whole seconds, >= 1 when refused; 0 when allowed */
  retryAfter: number;
}

export interface SlidingWindowLimiter {
  /** Decides one request for `key` (counts it when allowed; a refused request does not count). */
  consume(key: string, limit: number): Promise<LimitDecision>;
  /** Gives back one point of the current window (used when a 304 must not count). */
  refund(key: string): Promise<void>;
}

export interface SlidingWindowOptions {
  keyPrefix: string;
  /** default 60 */
  windowSeconds?: number;
  /** shared store; in-process memory when absent */
  redis?: Redis;
  /** Unix milliseconds, for tests */
  now?: () => number;
}

/**
 * Counters outlive their window by one more window (they are read as the "previous" window) plus
 * a few seconds of slack for clock skew between API instances sharing Redis. Counter TTLs are
 * set once, when the counter is created, and never extended.
 */
const EXPIRY_SLACK_SECONDS = 5;

/**
 * Points ceiling of the underlying rate-limiter-flexible limiter: high enough that it never
 * rejects. It is only used as an atomic, expiring counter; the limit decision is made here.
 */
const NEVER_REJECT_POINTS = Number.MAX_SAFE_INTEGER;

type Store = RateLimiterMemory | RateLimiterRedis;

/**
 * Sliding-window-counter limiter on top of rate-limiter-flexible. Each (key, aligned window)
 * pair is a separate rate-limiter-flexible key `${keyPrefix}:${key}:${windowIndex}`, so the
 * counts depend only on the window index computed from `now()` (the memory store expires keys
 * with the real clock, which an injected clock does not move; reading by index keeps the counts
 * right either way).
 *
 * Flow of consume: read the previous window's count and atomically increment the current one
 * (one Redis round trip, pipelined), decide with the incremented value, and give the point back
 * when refused. Concurrent requests each see a distinct count, so the limit is never exceeded;
 * under contention a request may rarely be refused because another, itself refused, had not given
 * its point back yet.
 *
 * Storage errors (e.g. Redis down) are propagated; the caller decides whether to fail open.
 */
export function createSlidingWindowLimiter(options: SlidingWindowOptions): SlidingWindowLimiter {
  const windowSeconds = options.windowSeconds ?? 60;
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds <= 0) {
    throw new RangeError(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  }
  const windowMs = windowSeconds * 1000;
  assertValidWindowMs(windowMs);
  const now = options.now ?? Date.now;

  const storeOptions = {
    keyPrefix: options.keyPrefix,
    points: NEVER_REJECT_POINTS,
    duration: 2 * windowSeconds + EXPIRY_SLACK_SECONDS,
  };
  const store: Store = options.redis
    ? new RateLimiterRedis({ ...storeOptions, storeClient: options.redis, useRedisPackage: false })
    : new RateLimiterMemory(storeOptions);

  const counterKey = (key: string, index: number): string => `${key}:${index}`;

  const count = async (key: string): Promise<number> => {
    const res = await store.get(key);
    return res ? res.consumedPoints : 0;
  };

  /** Increment (never rejects with the ceiling above, but accept a RateLimiterRes rejection anyway). */
  const increment = (key: string): Promise<RateLimiterRes> =>
    store.consume(key, 1).catch((err: unknown) => {
      if (err instanceof RateLimiterRes) return err;
      throw err;
    });

  /** Takes one point back from a counter unless it is already at 0; returns whether it did. */
  const giveBack = async (key: string): Promise<boolean> => {
    const res = await store.reward(key, 1);
    if (res.consumedPoints >= 0) return true;
    await store.penalty(key, 1); // it was empty (or raced to empty): undo
    return false;
  };

  return {
    async consume(key: string, limit: number): Promise<LimitDecision> {
      assertValidLimit(limit);
      const nowMs = Math.floor(now());
      const index = windowIndexAt(nowMs, windowMs);
      const currentKey = counterKey(key, index);

      const [previousCount, incremented] = await Promise.all([
        count(counterKey(key, index - 1)),
        increment(currentKey),
      ]);

      const decision = evaluateSlidingWindow({
        limit,
        previousCount,
        currentCount: incremented.consumedPoints - 1, // excluding this request
        nowMs,
        windowMs,
      });
      if (!decision.allowed) await store.reward(currentKey, 1); // a refused request does not count

      return {
        allowed: decision.allowed,
        limit: decision.limit,
        remaining: decision.remaining,
        resetAt: decision.resetAt,
        retryAfter: decision.retryAfter,
      };
    },

    async refund(key: string): Promise<void> {
      const index = windowIndexAt(Math.floor(now()), windowMs);
      if (await giveBack(counterKey(key, index))) return;
      // Nothing counted in the current window: the request being refunded was counted just before
      // the window boundary, so give its point back to the previous window (which is still read).
      const previousKey = counterKey(key, index - 1);
      if ((await count(previousKey)) > 0) await giveBack(previousKey);
    },
  };
}
