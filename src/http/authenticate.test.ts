import { AuthFailureGuard, TooManyAuthFailures } from './authenticate';
import { parseTrustProxy } from '../lib/client-ip';
import type { LimitDecision, RateLimiter } from './rate-limiter';
type FakeableLimiter = Pick<RateLimiter, 'consume' | 'refund'>;

/** A fixed-window counter on an injected clock, enough to drive the guard. */
function fakeLimiter(now: () => number): FakeableLimiter & { consumed: string[] } {
  const counts = new Map<string, number>();
  const consumed: string[] = [];
  return {
    consumed,
    async consume(key, limit): Promise<LimitDecision> {
      consumed.push(key);
      const window = Math.floor(now() / 60_000);
      const k = `${key}:${window}`;
      const n = (counts.get(k) ?? 0) + 1;
      const resetAt = (window + 1) * 60;
      if (n > limit) return { allowed: false, limit, remaining: 0, resetAt, retryAfter: Math.max(1, Math.ceil(resetAt - now() / 1000)) };
      counts.set(k, n);
      return { allowed: true, limit, remaining: limit - n, resetAt, retryAfter: 0 };
    },
    async refund() {},
  };
}

describe('AuthFailureGuard', () => {
  let now = 1_800_000_000_000; // on a minute boundary
  const clock = () => now;
  const fail = () => Promise.reject(Object.assign(new Error('bad key'), { failure: true }));
  const isFailure = (err: unknown) => (err as { failure?: boolean }).failure === true;

  it('lets the budget of failures through, refuses the next one, then refuses locally until the window moves on', async () => {
    const limiter = fakeLimiter(clock);
    const guard = new AuthFailureGuard({ limiter, trust: parseTrustProxy('0'), perMinute: 2, now: clock });
    await expect(guard.attempt('a', fail, isFailure)).rejects.toThrow('bad key');
    await expect(guard.attempt('a', fail, isFailure)).rejects.toThrow('bad key');
    const over = await guard.attempt('a', fail, isFailure).catch((e) => e);
    expect(over).toBeInstanceOf(TooManyAuthFailures);
    expect(over.retryAfter).toBe(60);
    expect(limiter.consumed).toHaveLength(3);
    // refused without running the attempt or asking the limiter
    const run = jest.fn(async () => 'ok');
    now += 30_000;
    await expect(guard.attempt('a', run, isFailure)).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 30 });
    expect(run).not.toHaveBeenCalled();
    expect(limiter.consumed).toHaveLength(3);
    // another address is unaffected, and successes are never charged
    await expect(guard.attempt('b', run, isFailure)).resolves.toBe('ok');
    expect(limiter.consumed).toHaveLength(3);
    // a new window: allowed again
    now += 30_000;
    await expect(guard.attempt('a', run, isFailure)).resolves.toBe('ok');
  });

  it('errors that are not failed authentications are not charged', async () => {
    const limiter = fakeLimiter(clock);
    const guard = new AuthFailureGuard({ limiter, trust: parseTrustProxy('0'), perMinute: 1, now: clock });
    await expect(guard.attempt('c', () => Promise.reject(new Error('db down')), isFailure)).rejects.toThrow('db down');
    expect(limiter.consumed).toHaveLength(0);
  });

  it('a limiter outage fails open: the failure stands as it is', async () => {
    const limiter: FakeableLimiter = { consume: () => Promise.reject(new Error('redis down')), refund: async () => {} };
    const guard = new AuthFailureGuard({ limiter, trust: parseTrustProxy('0'), perMinute: 1, now: clock });
    for (let i = 0; i < 3; i++) await expect(guard.attempt('d', fail, isFailure)).rejects.toThrow('bad key');
  });
});
