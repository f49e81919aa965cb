import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createSlidingWindowLimiter, type SlidingWindowLimiter } from './sliding-window.limiter';

// 2030-01-01T00:00:00Z: the start of an aligned 60 s window.
const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const T0s = T0 / 1000;

interface Harness {
  limiter: SlidingWindowLimiter;
  /** moves the injected clock to T0 + ms */
  setElapsed(ms: number): void;
}

type MakeLimiter = (now: () => number) => SlidingWindowLimiter;

function defineSuite(makeLimiter: () => MakeLimiter): void {
  function harness(startElapsedMs: number): Harness {
    let nowMs = T0 + startElapsedMs;
    return {
      limiter: makeLimiter()(() => nowMs),
      setElapsed(ms: number) {
        nowMs = T0 + ms;
      },
    };
  }

  async function consumeTimes(limiter: SlidingWindowLimiter, key: string, limit: number, times: number) {
    const out = [];
    for (let i = 0; i < times; i++) out.push(await limiter.consume(key, limit));
    return out;
  }

  it('limit 5: five allowed, the sixth refused with Retry-After', async () => {
    const { limiter } = harness(10_000);
    const first = await consumeTimes(limiter, 'key-a', 5, 5);
    expect(first).toEqual(
      [4, 3, 2, 1, 0].map((remaining) => ({ allowed: true, limit: 5, remaining, resetAt: T0s + 60, retryAfter: 0 })),
    );
    // 5 in this window; they become the previous window at 60 s and one more fits at 72 s
    expect(await limiter.consume('key-a', 5)).toEqual({
      allowed: false,
      limit: 5,
      remaining: 0,
      resetAt: T0s + 10 + 62,
      retryAfter: 62,
    });
  });

  it('refused requests do not count', async () => {
    const h = harness(10_000);
    await consumeTimes(h.limiter, 'key-a', 5, 5);
    const refused = await consumeTimes(h.limiter, 'key-a', 5, 20);
    expect(refused.every((d) => !d.allowed && d.retryAfter === 62)).toBe(true);

    // If the 20 refused requests had counted (25 in the window), nothing would fit in the next
    // window before 25 * (1 - e/60) <= 4, i.e. e >= 50.4 s.
    h.setElapsed(71_000);
    expect(await h.limiter.consume('key-a', 5)).toMatchObject({ allowed: false, retryAfter: 1, resetAt: T0s + 72 });
    h.setElapsed(72_000);
    expect(await h.limiter.consume('key-a', 5)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 0, // 5 * 48/60 + 1 = 5
      resetAt: T0s + 120,
      retryAfter: 0,
    });
    expect(await h.limiter.consume('key-a', 5)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('refund gives one point back', async () => {
    const { limiter } = harness(10_000);
    await consumeTimes(limiter, 'key-r', 5, 5);
    await limiter.refund('key-r');
    expect(await limiter.consume('key-r', 5)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('key-r', 5)).toMatchObject({ allowed: false, retryAfter: 62 });
  });

  it('refund of a key with nothing counted gives no extra room', async () => {
    const { limiter } = harness(10_000);
    await limiter.refund('key-r');
    await limiter.refund('key-r');
    const decisions = await consumeTimes(limiter, 'key-r', 5, 6);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions[0].remaining).toBe(4);
  });

  it('refund right after the window boundary gives the point back to the previous window', async () => {
    const h = harness(50_000);
    await consumeTimes(h.limiter, 'key-b', 5, 5);
    h.setElapsed(60_500); // 0.5 s into the next window, nothing counted in it yet
    await h.limiter.refund('key-b');
    // previous 4: 4 * 59.5/60 + 1 = 4.97 <= 5 (with 5 it would be 5.96 > 5)
    expect(await h.limiter.consume('key-b', 5)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 0,
      resetAt: T0s + 120,
      retryAfter: 0,
    });
  });

  it('the previous window decays: requests are allowed again as time passes', async () => {
    const h = harness(0);
    await consumeTimes(h.limiter, 'key-d', 5, 5);
    expect(await h.limiter.consume('key-d', 5)).toMatchObject({ allowed: false, retryAfter: 72, resetAt: T0s + 72 });

    h.setElapsed(60_000); // boundary: previous 5 with full weight
    expect(await h.limiter.consume('key-d', 5)).toMatchObject({ allowed: false, retryAfter: 12, resetAt: T0s + 72 });
    h.setElapsed(72_000); // 5 * 0.8 + 1 = 5
    expect(await h.limiter.consume('key-d', 5)).toMatchObject({ allowed: true, remaining: 0 });
    h.setElapsed(90_000); // 5 * 0.5 + 1 + 1 = 4.5
    expect(await h.limiter.consume('key-d', 5)).toMatchObject({ allowed: true, remaining: 0 });
    h.setElapsed(108_000); // 5 * 0.2 + 2 + 1 = 4
    expect(await h.limiter.consume('key-d', 5)).toMatchObject({ allowed: true, remaining: 1, resetAt: T0s + 120 });

    // two windows later everything from before has gone: the full budget again
    h.setElapsed(180_000);
    const fresh = await consumeTimes(h.limiter, 'key-d', 5, 6);
    expect(fresh.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(fresh.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(fresh[0].resetAt).toBe(T0s + 240);
  });

  it('separate keys are separate, and each key gets its own limit', async () => {
    const { limiter } = harness(5_000);
    await consumeTimes(limiter, 'key-x', 5, 5);
    expect(await limiter.consume('key-x', 5)).toMatchObject({ allowed: false });
    expect(await limiter.consume('key-y', 5)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await limiter.consume('key-z', 1_000_000)).toMatchObject({
      allowed: true,
      limit: 1_000_000,
      remaining: 999_999,
    });
    expect(await limiter.consume('key-x:1', 60)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('concurrent requests never exceed the limit', async () => {
    const { limiter } = harness(30_000);
    const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.consume('key-c', 5)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    // Refused requests that raced each other may see each other's not-yet-returned points, which
    // can only lengthen their Retry-After; once settled, the count is back to exactly 5.
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfter >= 42)).toBe(true);
    expect(await limiter.consume('key-c', 5)).toMatchObject({ allowed: false, retryAfter: 42 });
  });

  it('rejects an invalid limit without counting', async () => {
    const { limiter } = harness(0);
    await expect(limiter.consume('key-i', -1)).rejects.toThrow(RangeError);
    await expect(limiter.consume('key-i', 2.5)).rejects.toThrow(RangeError);
    expect(await limiter.consume('key-i', 1)).toMatchObject({ allowed: true, remaining: 0 });
  });
}

describe('createSlidingWindowLimiter (memory store, injected clock)', () => {
  defineSuite(() => (now) => createSlidingWindowLimiter({ keyPrefix: 'test', now }));

  it('rejects a bad window', () => {
    expect(() => createSlidingWindowLimiter({ keyPrefix: 'test', windowSeconds: 0 })).toThrow(RangeError);
    expect(() => createSlidingWindowLimiter({ keyPrefix: 'test', windowSeconds: 1.5 })).toThrow(RangeError);
  });

  it('honours windowSeconds', async () => {
    let nowMs = T0 + 2_000;
    const limiter = createSlidingWindowLimiter({ keyPrefix: 'test', windowSeconds: 10, now: () => nowMs });
    expect(await limiter.consume('k', 1)).toEqual({ allowed: true, limit: 1, remaining: 0, resetAt: T0s + 10, retryAfter: 0 });
    // 1 counted: fits again at the end of the next 10 s window
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: false, retryAfter: 18, resetAt: T0s + 20 });
    nowMs = T0 + 20_000;
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: true });
  });

  it('works with the real clock by default', async () => {
    const limiter = createSlidingWindowLimiter({ keyPrefix: 'test' });
    const before = Math.floor(Date.now() / 1000);
    const d = await limiter.consume('k', 2);
    expect(d).toMatchObject({ allowed: true, limit: 2 });
    expect(d.resetAt).toBeGreaterThan(before);
    expect(d.resetAt).toBeLessThanOrEqual(before + 61);
    expect(d.resetAt % 60).toBe(0);
  });

  it('instances with the memory store do not share counts', async () => {
    const now = () => T0;
    const a = createSlidingWindowLimiter({ keyPrefix: 'test', now });
    const b = createSlidingWindowLimiter({ keyPrefix: 'test', now });
    expect(await a.consume('k', 1)).toMatchObject({ allowed: true });
    expect(await b.consume('k', 1)).toMatchObject({ allowed: true });
  });
});

const redisUrl = process.env.REDIS_URL;
(redisUrl ? describe : describe.skip)('createSlidingWindowLimiter (Redis store, injected clock)', () => {
  let redis: Redis;
  let prefix = '';

  beforeAll(() => {
    redis = new Redis(redisUrl as string, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });

  beforeEach(() => {
    prefix = `test:rl:${randomUUID()}`;
  });

  afterAll(async () => {
    await redis.quit();
  });

  defineSuite(() => (now) => createSlidingWindowLimiter({ keyPrefix: prefix, redis, now }));

  it('instances sharing one Redis share one budget', async () => {
    const now = () => T0 + 1_000;
    const a = createSlidingWindowLimiter({ keyPrefix: prefix, redis, now });
    const b = createSlidingWindowLimiter({ keyPrefix: prefix, redis, now });
    expect((await a.consume('shared', 5)).remaining).toBe(4);
    expect((await b.consume('shared', 5)).remaining).toBe(3);
    expect((await a.consume('shared', 5)).remaining).toBe(2);
    expect((await b.consume('shared', 5)).remaining).toBe(1);
    expect((await a.consume('shared', 5)).remaining).toBe(0);
    expect(await b.consume('shared', 5)).toMatchObject({ allowed: false, retryAfter: 71 });
    await b.refund('shared');
    expect(await a.consume('shared', 5)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('stores one expiring counter per key and aligned window', async () => {
    const now = () => T0 + 1_000;
    const limiter = createSlidingWindowLimiter({ keyPrefix: prefix, redis, now });
    await limiter.consume('k', 5);
    await limiter.consume('k', 5);
    await limiter.consume('k', 0); // refused: given back
    const counterKey = `${prefix}:k:${T0 / 60_000}`;
    expect(await redis.keys(`${prefix}:*`)).toEqual([counterKey]);
    expect(await redis.get(counterKey)).toBe('2');
    const ttl = await redis.pttl(counterKey);
    expect(ttl).toBeGreaterThan(120_000);
    expect(ttl).toBeLessThanOrEqual(125_000);
  });
});
