import { LocalChangeFeed } from '../db/change-feed';
import { VersionedCache } from './versioned-cache';

function setup(opts: { fallbackTtlMs?: number; liveTtlMs?: number; maxEntries?: number } = {}) {
  const feed = new LocalChangeFeed();
  let t = 1_000_000;
  const clock = {
    advance: (ms: number) => {
      t += ms;
    },
  };
  const cache = new VersionedCache<number>({
    feed,
    topics: ['partner_keys', 'channel_keys'],
    fallbackTtlMs: opts.fallbackTtlMs ?? 1000,
    liveTtlMs: opts.liveTtlMs ?? 60_000,
    maxEntries: opts.maxEntries,
    now: () => t,
  });
  let loads = 0;
  const load = async () => ++loads;
  return { feed, clock, cache, load, loads: () => loads };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('VersionedCache', () => {
  it('while the feed is live, keeps an entry until one of its topics changes, however long', async () => {
    const { feed, clock, cache, load } = setup();
    expect(await cache.get('k', load)).toBe(1);
    clock.advance(59_000);
    expect(await cache.get('k', load)).toBe(1);
    feed.bump('tv');
    expect(await cache.get('k', load)).toBe(1);
    feed.bump('channel_keys');
    expect(await cache.get('k', load)).toBe(2);
    feed.bump('partner_keys');
    expect(await cache.get('k', load)).toBe(3);
    expect(await cache.get('k', load)).toBe(3);
  });

  it('while live, still reloads after the safety TTL', async () => {
    const { clock, cache, load } = setup();
    await cache.get('k', load);
    clock.advance(60_000);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('while the feed is down, falls back to the short TTL, and to the long one once live again', async () => {
    const { feed, clock, cache, load } = setup();
    feed.live = false;
    expect(await cache.get('k', load)).toBe(1);
    clock.advance(999);
    expect(await cache.get('k', load)).toBe(1);
    clock.advance(1);
    expect(await cache.get('k', load)).toBe(2);
    feed.live = true;
    clock.advance(5000);
    expect(await cache.get('k', load)).toBe(2);
    // an entry loaded while live expires at the short TTL as soon as the feed goes down
    feed.live = false;
    expect(await cache.get('k', load)).toBe(3);
  });

  it('never serves a load that started before a change as current after it', async () => {
    const { feed, cache } = setup();
    const first = deferred<number>();
    const before = cache.get('k', () => first.promise);
    feed.bump('partner_keys');
    const after = cache.get('k', async () => 2);
    first.resolve(1);
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(await cache.get('k', async () => 3)).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const { cache } = setup();
    const d = deferred<number>();
    let loads = 0;
    const load = () => {
      loads++;
      return d.promise;
    };
    const all = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    d.resolve(7);
    expect(await all).toEqual([7, 7, 7]);
    expect(loads).toBe(1);
  });

  it('does not keep a failed load', async () => {
    const { cache } = setup();
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('k', async () => 5)).toBe(5);
  });

  it('is bounded, dropping the least recently used entry', async () => {
    const { cache, load } = setup({ maxEntries: 2 });
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('a', load);
    await cache.get('c', load);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(4);
  });

  it('keeps the LRU order when the youngest entry is hit again and again', async () => {
    const { cache, load } = setup({ maxEntries: 3 });
    await cache.get('a', load); // 1
    await cache.get('b', load); // 2
    await cache.get('c', load); // 3
    for (let i = 0; i < 5; i++) expect(cache.get('c', load)).toBe(3);
    expect(cache.get('a', load)).toBe(1); // a is now the youngest: b the oldest
    expect(cache.get('a', load)).toBe(1);
    await cache.get('d', load); // 4: drops b
    expect(cache.size).toBe(3);
    expect([cache.get('a', load), cache.get('c', load), cache.get('d', load)]).toEqual([1, 3, 4]);
    expect(await cache.get('b', load)).toBe(5); // reloaded: it was dropped, and a went (the oldest then)
    expect(await cache.get('a', load)).toBe(6);
  });

  it('with a zero fallback TTL, loads every time', async () => {
    const { cache, load } = setup({ fallbackTtlMs: 0 });
    await cache.get('k', load);
    expect(await cache.get('k', load)).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('peek: answers at once what get would, only once the load has succeeded', async () => {
    const { feed, clock, cache } = setup();
    const d = deferred<number>();
    const pending = cache.get('k', () => d.promise);
    expect(cache.peek('k')).toBeUndefined();
    d.resolve(7);
    await pending;
    expect(cache.peek('k')).toBe(7);
    clock.advance(59_000);
    expect(cache.peek('k')).toBe(7);
    feed.bump('partner_keys');
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.get('k', async () => 8)).toBe(8);
    expect(cache.peek('k')).toBe(8);
    clock.advance(60_000);
    expect(cache.peek('k')).toBeUndefined();
    expect(cache.peek('other')).toBeUndefined();
  });

  it('peek: never answers a failed load, nor anything with the cache off', async () => {
    const { cache } = setup();
    await expect(
      cache.get('k', async () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    expect(cache.peek('k')).toBeUndefined();
    const off = setup({ fallbackTtlMs: 0 });
    await off.cache.get('k', off.load);
    expect(off.cache.peek('k')).toBeUndefined();
  });

  it('peek: a null value is a value (an unknown key is cached as null)', async () => {
    const feed = new LocalChangeFeed();
    const cache = new VersionedCache<number | null>({ feed, topics: ['partner_keys'], fallbackTtlMs: 1000 });
    await cache.get('k', async () => null);
    expect(cache.peek('k')).toBeNull();
  });
});

describe('VersionedCache with a byte budget', () => {
  const bodies = (maxBytes: number) => {
    const feed = new LocalChangeFeed();
    const cache = new VersionedCache<string>({
      feed,
      topics: ['catalog'],
      fallbackTtlMs: 1000,
      maxEntries: 1000,
      maxBytes,
      weigh: ((v: string) => v.length) as (value: never) => number,
    });
    let loads = 0;
    const get = async (key: string, size: number) =>
      cache.get(key, async () => {
        loads += 1;
        return key[0].repeat(size);
      });
    return { feed, cache, get, loads: () => loads };
  };

  it('drops the least recently used bodies while they weigh more than the budget, whatever their count', async () => {
    const { cache, get, loads } = bodies(1000);
    for (const key of ['a', 'b', 'c', 'd']) await get(key, 300);
    expect([cache.size, cache.weight]).toEqual([3, 900]); // 'a' went when 'd' came
    await get('b', 300); // a hit, now the most recent
    expect(loads()).toBe(4);
    await get('e', 600); // 'c' and 'd' make room
    expect([cache.size, cache.weight]).toEqual([2, 900]);
    await get('b', 300);
    expect(loads()).toBe(5);
    await get('c', 300);
    expect(loads()).toBe(6); // was dropped
  });

  it('serves a body heavier than the whole budget without keeping it', async () => {
    const { cache, get, loads } = bodies(1000);
    await get('a', 100);
    expect((await get('z', 5000)).length).toBe(5000);
    expect([cache.size, cache.weight]).toEqual([1, 100]);
    await get('z', 5000);
    expect(loads()).toBe(3);
  });

  it('holds many small bodies and few large ones in the same bytes, and its weight follows replacements and clearing', async () => {
    const { feed, cache, get } = bodies(10_000);
    for (let i = 0; i < 500; i++) await get(`s${i}`, 10);
    expect([cache.size, cache.weight]).toEqual([500, 5000]);
    feed.bump('catalog'); // every entry stale: reloaded and replaced, not added
    for (let i = 0; i < 500; i++) await get(`s${i}`, 10);
    expect([cache.size, cache.weight]).toEqual([500, 5000]);
    for (let i = 0; i < 10; i++) await get(`L${i}`, 2000);
    expect(cache.weight).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeLessThan(500);
    cache.clear();
    expect([cache.size, cache.weight]).toEqual([0, 0]);
  });

  it('refuses a byte budget without a way to weigh', () => {
    expect(() => new VersionedCache({ feed: new LocalChangeFeed(), topics: [], fallbackTtlMs: 1000, maxBytes: 10 })).toThrow('maxBytes and weigh go together');
  });
});
