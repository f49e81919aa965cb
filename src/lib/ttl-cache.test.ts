import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  afterEach(() => jest.useRealTimers());

  it('shares one load between concurrent misses', async () => {
    const cache = new TtlCache<number>(1000);
    let loads = 0;
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 5));
    const values = await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(values).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it('serves the stale value while one background refresh runs, then the new one', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const cache = new TtlCache<number>(1000);
    let n = 0;
    const load = async () => ++n;
    expect(await cache.get('k', load)).toBe(1);
    jest.advanceTimersByTime(1500);
    const during = await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(during).toEqual([1, 1, 1]);
    expect(n).toBe(2);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not keep a failed load, and keeps the last good value when a refresh fails', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const cache = new TtlCache<number>(1000);
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('k', async () => 7)).toBe(7);
    jest.advanceTimersByTime(1500);
    expect(await cache.get('k', () => Promise.reject(new Error('db down')))).toBe(7);
    await Promise.resolve();
    expect(await cache.get('k', async () => 8)).toBe(7);
  });

  it('serves a stale value at once (no promise) while its refresh runs', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = new TtlCache<number>(1000);
    expect(await cache.get('k', async () => 1)).toBe(1);
    jest.advanceTimersByTime(1500);
    let refreshed!: (v: number) => void;
    let loads = 0;
    const slow = () => {
      loads += 1;
      return new Promise<number>((r) => {
        refreshed = r;
      });
    };
    expect(cache.get('k', slow)).toBe(1);
    expect(cache.get('k', slow)).toBe(1);
    expect(loads).toBe(1);
    refreshed(2);
    await Promise.resolve();
    expect(cache.get('k', slow)).toBe(2);
  });

  it('with a zero ttl, loads every time', async () => {
    const cache = new TtlCache<number>(0);
    let n = 0;
    await cache.get('k', async () => ++n);
    await cache.get('k', async () => ++n);
    expect(n).toBe(2);
  });

  it('get: the value itself (no promise) for a fresh entry once loaded; a promise while loading or once stale', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = new TtlCache<number>(1000);
    let resolve!: (v: number) => void;
    const pending = cache.get(
      'k',
      () =>
        new Promise<number>((r) => {
          resolve = r;
        }),
    );
    const never = async () => -1;
    expect(cache.get('k', never)).toBeInstanceOf(Promise);
    resolve(1);
    await pending;
    expect(cache.get('k', never)).toBe(1);
    jest.advanceTimersByTime(999);
    expect(cache.get('k', never)).toBe(1);
    jest.advanceTimersByTime(1);
    // get starts the refresh and serves the stale value; it answers at once again once it landed
    expect(await cache.get('k', async () => 2)).toBe(1);
    await Promise.resolve();
    expect(cache.get('k', never)).toBe(2);
  });
});
