import { Redis } from 'ioredis';
import { MemoryWindowStore, type CarriedCount, type WindowStore } from './rate-limit-memory.store';
import { createRateLimiter } from './rate-limiter';

const T0 = Date.UTC(2030, 0, 1);

/** A shared store that works like the memory one until told to fail. */
class FlakyStore implements WindowStore {
  readonly kind = 'redis';
  failing = false;
  calls = 0;
  private readonly inner = new MemoryWindowStore();
  consume(key: string, second: number, limit: number) {
    this.calls += 1;
    return this.failing ? Promise.reject(new Error('Connection is closed.')) : this.inner.consume(key, second, limit);
  }
  refund(key: string, second: number) {
    this.calls += 1;
    return this.failing ? Promise.reject(new Error('Connection is closed.')) : this.inner.refund(key, second);
  }
  merge(key: string, entries: readonly CarriedCount[], second: number) {
    this.calls += 1;
    this.merges += 1;
    return this.failing ? Promise.reject(new Error('Connection is closed.')) : this.inner.merge(key, entries, second);
  }
  merges = 0;
}

function setUp(probeIntervalMs = 1000) {
  const store = new FlakyStore();
  const warn = jest.fn();
  let realMs = 0;
  const limiter = createRateLimiter({ keyPrefix: 't', store, now: () => T0, logger: { warn }, probeIntervalMs, monotonicNow: () => realMs });
  return {
    store,
    warn,
    limiter,
    advanceRealTime: (ms: number) => {
      realMs += ms;
    },
  };
}

describe('the in-memory insurance of a shared store', () => {
  it('decides in memory while the shared store fails, still enforcing the limit, and says so once', async () => {
    const { store, warn, limiter } = setUp();
    store.failing = true;
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.consume('k', 3));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(decisions[3].retryAfter).toBe(61);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatch(/^rate limiter degraded/);
    expect(limiter.health()).toEqual({ store: 'redis', degraded: true, storeErrors: 1, insuranceDecisions: 5, degradations: 1 });
  });

  it('tries the shared store again at most once per probe interval, and recovers on the first success', async () => {
    const { store, warn, limiter, advanceRealTime } = setUp(1000);
    store.failing = true;
    await limiter.consume('k', 10);
    for (let i = 0; i < 5; i++) await limiter.consume('k', 10);
    expect(store.calls).toBe(1); // resting: the other five went straight to memory

    advanceRealTime(1000);
    await limiter.consume('k', 10); // a probe, failing
    expect([store.calls, limiter.health().degraded]).toEqual([2, true]);

    store.failing = false;
    advanceRealTime(999);
    await limiter.consume('k', 10);
    expect(store.calls).toBe(2);
    advanceRealTime(1);
    const back = await limiter.consume('k', 10);
    expect([store.calls, store.merges]).toEqual([4, 2]); // the failed probe was a carry-back; now the carry-back, then the request
    expect(back).toMatchObject({ allowed: true, remaining: 1 }); // 8 decided in memory while degraded, and this one
    expect(limiter.health()).toEqual({ store: 'redis', degraded: false, storeErrors: 2, insuranceDecisions: 8, degradations: 1 });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1][1]).toMatch(/^rate limiter recovered/);
  });

  it('carries the counts decided in memory back when the shared store returns: a 3/min key gets 3 in a minute across the outage, not 6', async () => {
    const { store, limiter, advanceRealTime } = setUp(1000);
    store.failing = true;
    const during = [];
    for (let i = 0; i < 4; i++) during.push((await limiter.consume('k', 3)).allowed);
    expect(during).toEqual([true, true, true, false]);
    store.failing = false;
    advanceRealTime(1000);
    const after = await limiter.consume('k', 3);
    expect([after.allowed, after.retryAfter, limiter.health().degraded]).toEqual([false, 61, false]);
    expect((await limiter.consume('other', 3)).remaining).toBe(2); // other keys are untouched
  });

  it("starts from the shared store's last counts when it fails: 2 counted there leave 1 in memory, not 3", async () => {
    const { store, limiter } = setUp(1000);
    expect((await limiter.consume('k', 3)).remaining).toBe(2);
    expect((await limiter.consume('k', 3)).remaining).toBe(1);
    store.failing = true;
    expect((await limiter.consume('k', 3)).allowed).toBe(true);
    expect((await limiter.consume('k', 3)).allowed).toBe(false);
  });

  it('carries back only what memory added: counts the shared store kept through the outage are not counted twice', async () => {
    const { store, limiter, advanceRealTime } = setUp(1000);
    await limiter.consume('k', 5);
    await limiter.consume('k', 5); // 2 in the shared store, copied in memory
    store.failing = true;
    await limiter.consume('k', 5); // 3 in memory, 1 of them added there
    store.failing = false;
    advanceRealTime(1000);
    expect(await limiter.consume('k', 5)).toMatchObject({ allowed: true, remaining: 1 }); // 2 + 1 carried + this one
  });

  it('keeps the counts for a later try when carrying them back fails, and refunds made in memory are carried less', async () => {
    const { store, limiter, advanceRealTime } = setUp(1000);
    store.failing = true;
    for (let i = 0; i < 3; i++) await limiter.consume('k', 5);
    await limiter.refund('k'); // 2 left to carry
    advanceRealTime(1000);
    await limiter.consume('k', 5); // the probe fails while carrying: still degraded, now 3 in memory
    expect(limiter.health().degraded).toBe(true);
    store.failing = false;
    advanceRealTime(1000);
    expect(await limiter.consume('k', 5)).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.health().degraded).toBe(false);
  });

  it('refunds go to the store that decides', async () => {
    const { store, limiter } = setUp();
    store.failing = true;
    await limiter.consume('k', 1);
    await limiter.refund('k');
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: true });
  });

  it('a memory-only limiter has no insurance and is never degraded', async () => {
    const limiter = createRateLimiter({ keyPrefix: 't', now: () => T0 });
    await limiter.consume('k', 1);
    expect(limiter.health()).toEqual({ store: 'memory', degraded: false, storeErrors: 0, insuranceDecisions: 0, degradations: 0 });
  });
});

describe('with an ioredis client whose server is down (a closed port)', () => {
  let redis: Redis;
  beforeAll(() => {
    // The service's fail-fast options: no offline queue, so commands fail at once while disconnected.
    redis = new Redis('redis://127.0.0.1:6390', { commandTimeout: 200, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 1000 });
    redis.on('error', () => undefined);
  });
  afterAll(() => redis.disconnect());

  it('answers every request from the insurance store, limit enforced, and reports degraded', async () => {
    const warn = jest.fn();
    const limiter = createRateLimiter({ keyPrefix: 't', redis, now: () => T0, logger: { warn } });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('k', 3));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    await limiter.refund('k');
    expect(limiter.health()).toMatchObject({ store: 'redis', degraded: true, insuranceDecisions: 4, degradations: 1 });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
