import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { createRateLimiter, type RateLimiter } from './rate-limiter';
import { MemoryWindowStore } from './rate-limit-memory.store';
import { describeDecision, secondAt } from './rate-limit-window';

// 2030-01-01T00:00:00Z, the start of a clock minute.
const T0 = Date.UTC(2030, 0, 1);
const T0s = T0 / 1000;

interface Harness {
  limiter: RateLimiter;
  /** moves the injected clock to T0 + ms */
  set(ms: number): void;
}

type MakeLimiter = (now: () => number) => RateLimiter;

function defineSuite(makeLimiter: () => MakeLimiter, propertyRuns: number): void {
  function harness(startMs: number): Harness {
    let nowMs = T0 + startMs;
    return {
      limiter: makeLimiter()(() => nowMs),
      set: (ms) => {
        nowMs = T0 + ms;
      },
    };
  }

  async function times(limiter: RateLimiter, key: string, limit: number, n: number) {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await limiter.consume(key, limit));
    return out;
  }

  it('limit 5: five allowed counting down, the sixth refused until the first ones leave the window', async () => {
    const { limiter } = harness(10_500);
    expect(await times(limiter, 'k', 5, 5)).toEqual(
      [4, 3, 2, 1, 0].map((remaining) => ({ allowed: true, limit: 5, remaining, resetAt: T0s + 71, retryAfter: 0 })),
    );
    expect(await limiter.consume('k', 5)).toEqual({ allowed: false, limit: 5, remaining: 0, resetAt: T0s + 71, retryAfter: 61 });
  });

  it('across a clock-minute boundary: 5 per minute means 5 in any 60 s (the old limiter let 7 through in 30 s)', async () => {
    const h = harness(45_000);
    expect((await times(h.limiter, 'k', 5, 5)).every((d) => d.allowed)).toBe(true);
    for (const ms of [60_000, 61_000, 75_000, 100_000, 105_999]) {
      h.set(ms);
      expect([ms, await h.limiter.consume('k', 5)]).toEqual([
        ms,
        { allowed: false, limit: 5, remaining: 0, resetAt: T0s + 106, retryAfter: 106 - Math.floor(ms / 1000) },
      ]);
    }
    h.set(106_000);
    expect(await h.limiter.consume('k', 5)).toEqual({ allowed: true, limit: 5, remaining: 4, resetAt: T0s + 167, retryAfter: 0 });
  });

  it('refused requests do not count', async () => {
    const h = harness(0);
    await times(h.limiter, 'k', 3, 3);
    h.set(30_000);
    expect((await times(h.limiter, 'k', 3, 20)).every((d) => !d.allowed && d.retryAfter === 31)).toBe(true);
    h.set(61_000);
    expect((await times(h.limiter, 'k', 3, 4)).map((d) => d.allowed)).toEqual([true, true, true, false]);
  });

  it('remaining rises as seconds leave the window', async () => {
    const h = harness(0);
    await times(h.limiter, 'k', 10, 4);
    h.set(20_000);
    await times(h.limiter, 'k', 10, 3);
    h.set(61_000); // the 4 of second 0 have left
    expect(await h.limiter.consume('k', 10)).toMatchObject({ allowed: true, remaining: 6, resetAt: T0s + 81 });
  });

  it('refund gives one point back; a key with nothing counted gains nothing from one', async () => {
    const { limiter } = harness(10_000);
    await times(limiter, 'r', 2, 2);
    await limiter.refund('r');
    expect(await limiter.consume('r', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('r', 2)).toMatchObject({ allowed: false });

    await limiter.refund('empty');
    await limiter.refund('empty');
    expect(await times(limiter, 'empty', 2, 3)).toMatchObject([{ allowed: true }, { allowed: true }, { allowed: false }]);
  });

  it('keys are independent', async () => {
    const { limiter } = harness(0);
    await times(limiter, 'a', 1, 1);
    expect(await limiter.consume('a', 1)).toMatchObject({ allowed: false });
    expect(await limiter.consume('b', 1)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('concurrent requests never exceed the limit', async () => {
    const { limiter } = harness(0);
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume('c', 10)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });

  it('a large limit stays exact: 3,000 requests over 90 s against 1,000,000 per minute', async () => {
    const h = harness(0);
    let last;
    for (let i = 0; i < 3000; i++) {
      h.set(i * 30); // one every 30 ms
      last = await h.limiter.consume('big', 1_000_000);
    }
    // At 89.97 s the requests of seconds 29 .. 89 count: 2000 of them (30..89.97 s) plus second 29's 33.
    const counted = 3000 - Math.ceil(29_000 / 30);
    expect(last).toEqual({ allowed: true, limit: 1_000_000, remaining: 1_000_000 - counted, resetAt: T0s + 29 + 61, retryAfter: 0 });
  });

  it('property: no 60-second window ever admits more than the limit, and a refusal means the limit is reached', async () => {
    const step = fc.record({
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 40_000 })),
      burst: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 59_999 }),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        async (limit, startMs, steps) => {
          const h = harness(startMs);
          const key = `p-${randomUUID()}`;
          const admitted: number[] = [];
          let now = T0 + startMs;
          for (const { advanceMs, burst } of steps) {
            now += advanceMs;
            h.set(now - T0);
            for (let i = 0; i < burst; i++) {
              const d = await h.limiter.consume(key, limit);
              const sec = Math.floor(now / 1000);
              const inLast61Seconds = admitted.filter((t) => Math.floor(t / 1000) >= sec - 60).length;
              if (d.allowed) admitted.push(now);
              else expect(inLast61Seconds).toBe(limit);
              expect(d.remaining).toBe(limit - inLast61Seconds - (d.allowed ? 1 : 0));
            }
          }
          for (const end of admitted) {
            expect(admitted.filter((t) => t > end - 60_000 && t <= end).length).toBeLessThanOrEqual(limit);
          }
        },
      ),
      { numRuns: propertyRuns },
    );
  });
}

describe('rate limiter, memory store', () => {
  defineSuite(() => (now) => createRateLimiter({ keyPrefix: 'test', now }), 200);

  it('property: its synchronous decision is describeDecision of the same buckets, refunds and a clock going back included', async () => {
    const op = fc.record({ advanceMs: fc.integer({ min: -3_000, max: 30_000 }), refund: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 6 }), fc.array(op, { minLength: 1, maxLength: 60 }), async (limit, ops) => {
        const fast = new MemoryWindowStore();
        const reference = new MemoryWindowStore();
        let now = T0;
        for (const { advanceMs, refund } of ops) {
          now += advanceMs;
          const second = secondAt(now);
          if (refund) {
            fast.refundNow('k', second);
            await reference.refund('k', second);
            continue;
          }
          const { allowed, buckets } = await reference.consume('k', second, limit);
          expect(fast.decide('k', now, limit)).toEqual(describeDecision(allowed, limit, buckets, now));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('decides at once without a shared store, never with one', () => {
    const local = createRateLimiter({ keyPrefix: 'test', now: () => T0 });
    expect(local.consume('k', 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(local.refund('k')).toBeUndefined();
    expect(local.consume('k', 2)).toMatchObject({ allowed: true, remaining: 1 });
    const shared = createRateLimiter({ keyPrefix: 'test', now: () => T0, store: new MemoryWindowStore() });
    expect(shared.consume('k', 2)).toBeInstanceOf(Promise);
    expect(shared.refund('k')).toBeInstanceOf(Promise);
  });

  it('forgets idle keys', async () => {
    let now = T0;
    const limiter = createRateLimiter({ keyPrefix: 'test', now: () => now });
    await limiter.consume('idle', 5);
    now += 200_000;
    await limiter.consume('other', 5);
    expect(await limiter.consume('idle', 5)).toMatchObject({ allowed: true, remaining: 4 });
    expect(limiter.health()).toEqual({ store: 'memory', degraded: false, storeErrors: 0, insuranceDecisions: 0, degradations: 0 });
  });
});

const redisUrl = process.env.REDIS_URL;
(redisUrl ? describe : describe.skip)('rate limiter, Redis store', () => {
  let redis: Redis;
  const prefix = `test-limiter-${randomUUID()}`;
  beforeAll(() => {
    redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  defineSuite(() => (now) => createRateLimiter({ keyPrefix: `${prefix}:${randomUUID()}`, redis, now }), 30);

  it('keeps at most 61 one-second fields per key, with an expiry', async () => {
    let now = T0;
    const limiter = createRateLimiter({ keyPrefix: prefix, redis, now: () => now });
    for (let i = 0; i < 150; i++) {
      now = T0 + i * 1000;
      await limiter.consume('fields', 1_000_000);
    }
    const [key] = await redis.keys(`${prefix}:*:fields`);
    expect(await redis.hlen(key)).toBeLessThanOrEqual(61);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(68_000);
    expect(limiter.health()).toMatchObject({ store: 'redis', degraded: false, storeErrors: 0 });
  });
});
