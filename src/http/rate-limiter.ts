import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger';
import type { Maybe } from '../lib/maybe';
import { MemoryWindowStore, type WindowStore } from './rate-limit-memory.store';
import { RedisWindowStore } from './rate-limit-redis.store';
import { assertValidLimit, describeDecision, secondAt, type LimitDecision } from './rate-limit-window';

export type { LimitDecision } from './rate-limit-window';

export interface LimiterHealth {
  /** Where decisions are meant to be made. */
  store: 'redis' | 'memory';
  /** True while the shared store is unreachable and the in-memory insurance store decides. */
  degraded: boolean;
  /** Calls to the shared store that failed, since start (a counter, for metrics). */
  storeErrors: number;
  /** Requests decided by the insurance store, since start (a counter, for metrics). */
  insuranceDecisions: number;
  /** Times the limiter went from healthy to degraded, since start (a counter, for metrics). */
  degradations: number;
}

export interface RateLimiter {
  /**
   * Decides one request for `key` (counts it when allowed; a refused request does not count): at
   * once when this process alone decides (no shared store), after the store's answer otherwise.
   */
  consume(key: string, limit: number): Maybe<LimitDecision>;
  /** Gives back one point of the key's newest counted second (when a 304 must not count); at once without a shared store. */
  refund(key: string): Maybe<void>;
  health(): LimiterHealth;
}

export interface RateLimiterOptions {
  keyPrefix: string;
  /** Shared store; in-process memory only when absent. */
  redis?: Redis;
  /** Another shared store (tests); `redis` wins when both are given. */
  store?: WindowStore;
  /** Unix milliseconds; injectable so tests control time. */
  now?: () => number;
  /** Degradation and recovery are logged (warn), once per transition. */
  logger?: Pick<Logger, 'warn'>;
  /** While degraded, the shared store is tried again at most this often (real time). Default 1000. */
  probeIntervalMs?: number;
  /** Real monotonic milliseconds, for the probe interval (tests). */
  monotonicNow?: () => number;
}

/** Keys carried back to the shared store per round of concurrent calls. */
const CARRY_BATCH = 64;

/**
 * The per-key, per-minute limit: exact over any 60-second window (see rate-limit-window.ts).
 *
 * With a shared store (Redis), an in-memory insurance store stands by: when a Redis call fails
 * (down, timed out, not connected), that request is decided in memory instead of failing open or
 * waiting, the limiter reports itself degraded and Redis is tried again at most once per
 * `probeIntervalMs`; the first success ends the degraded mode. While degraded each API instance
 * limits on its own, so N instances admit up to N times a limit.
 *
 * Counts move with the decisions, so that an outage never resets a key's minute (docs/adr/0002):
 * - the insurance store keeps a copy of what the shared store last answered for each key, so
 *   when Redis fails this instance goes on from those counts, not from zero;
 * - what the insurance store admits while degraded is carried back to Redis before Redis decides
 *   again (each second becomes max(Redis + added here, the insurance store's count)): a 5/min key
 *   gets no more than 5 in a minute across an outage from one instance.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const monotonicNow = options.monotonicNow ?? (() => performance.now());
  const probeIntervalMs = options.probeIntervalMs ?? 1000;
  const logger = options.logger;
  const primary: WindowStore = options.redis ? new RedisWindowStore(options.redis, options.keyPrefix) : (options.store ?? new MemoryWindowStore());
  const shared = primary.kind === 'redis' || options.store !== undefined;
  const insurance = shared ? new MemoryWindowStore() : null;
  /** The store when it is this process's own memory: decisions need no await. */
  const local = !shared && primary instanceof MemoryWindowStore ? primary : null;

  const stats = { storeErrors: 0, insuranceDecisions: 0, degradations: 0 };
  /** Per key, per second: requests the insurance store admitted (less refunds) not yet carried back. */
  const carry = new Map<string, Map<number, number>>();
  let carrying: Promise<void> | null = null;

  const noteInsured = (key: string, second: number, delta: number): void => {
    let added = carry.get(key);
    if (!added) carry.set(key, (added = new Map()));
    if (delta < 0) {
      // A refund takes from the newest second, as the store does.
      const newest = Math.max(...added.keys());
      if (Number.isFinite(newest)) second = newest;
    }
    const next = (added.get(second) ?? 0) + delta;
    if (next > 0) added.set(second, next);
    else added.delete(second);
    if (added.size === 0) carry.delete(key);
  };

  /** Carries the insured counts back to the shared store, a batch of keys at a time; fails as the store does. */
  const carryBack = (): Promise<void> => {
    carrying ??= (async () => {
      try {
        while (carry.size > 0) {
          const second = secondAt(Math.floor(now()));
          const batch = [...carry].slice(0, CARRY_BATCH);
          for (const [key] of batch) carry.delete(key);
          try {
            await Promise.all(
              batch.map(([key, added]) => {
                const entries = insurance!.bucketsOf(key, second).map(([s, total]) => ({ second: s, total, added: added.get(s) ?? 0 }));
                return primary.merge(key, entries, second);
              }),
            );
          } catch (err) {
            // Not carried: kept (with what was added meanwhile) for the next attempt.
            for (const [key, added] of batch) for (const [s, n] of added) noteInsured(key, s, n);
            throw err;
          }
        }
      } finally {
        carrying = null;
      }
    })();
    return carrying;
  };
  let degraded = false;
  let nextProbeAt = Number.NEGATIVE_INFINITY;

  const degrade = (reason: string): void => {
    nextProbeAt = monotonicNow() + probeIntervalMs;
    if (degraded) return;
    degraded = true;
    stats.degradations += 1;
    logger?.warn({ store: primary.kind, reason }, 'rate limiter degraded: the shared store is unavailable, limits are kept in memory by this instance');
  };
  const recover = (): void => {
    if (!degraded) return;
    degraded = false;
    logger?.warn({ store: primary.kind }, 'rate limiter recovered: limits are kept in the shared store again');
  };
  if (primary instanceof RedisWindowStore) {
    primary.watch((up) => {
      if (up)
        nextProbeAt = Number.NEGATIVE_INFINITY; // try it on the next request
      else degrade('connection closed');
    });
  }

  /** Runs `op` on the shared store, or on the insurance store when it fails or is resting. */
  async function withInsurance<T>(op: (store: WindowStore) => Promise<T>): Promise<{ value: T; insured: boolean }> {
    if (!insurance) return { value: await op(primary), insured: false };
    if (!degraded || monotonicNow() >= nextProbeAt) {
      if (degraded) nextProbeAt = monotonicNow() + probeIntervalMs; // one probe at a time
      try {
        // What memory decided goes back first, so that the shared store decides with it.
        if (carry.size > 0 || carrying) await carryBack();
        const value = await op(primary);
        recover();
        return { value, insured: false };
      } catch (err) {
        stats.storeErrors += 1;
        degrade((err as Error).message);
      }
    }
    return { value: await op(insurance), insured: true };
  }

  return {
    consume(key: string, limit: number): Maybe<LimitDecision> {
      assertValidLimit(limit);
      const nowMs = Math.floor(now());
      if (local) return local.decide(key, nowMs, limit);
      const second = secondAt(nowMs);
      return withInsurance((store) => store.consume(key, second, limit)).then(({ value, insured }) => {
        if (insured) {
          stats.insuranceDecisions += 1;
          if (value.allowed) noteInsured(key, second, 1);
        } else {
          insurance?.mirror(key, value.buckets, second);
        }
        return describeDecision(value.allowed, limit, value.buckets, nowMs);
      });
    },

    refund(key: string): Maybe<void> {
      const second = secondAt(Math.floor(now()));
      if (local) return local.refundNow(key, second);
      return withInsurance((store) => store.refund(key, second)).then(({ insured }) => {
        if (insured) noteInsured(key, second, -1);
        else void insurance?.refund(key, second); // the copy follows the shared store
      });
    },

    health(): LimiterHealth {
      return { store: primary.kind, degraded, ...stats };
    },
  };
}
