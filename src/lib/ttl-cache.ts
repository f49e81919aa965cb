import { type Maybe } from './maybe';

interface Entry<V> {
  at: number;
  value: Promise<V>;
  refreshing: boolean;
  /** Set once the load has succeeded: `get` then answers the value itself. */
  settled?: { value: V };
}

/**
 * A small bounded cache for values that may be up to `ttlMs` stale. Concurrent misses share one
 * load (no stampede when an entry expires under load), and an expired entry that loaded fine is
 * served while a single background refresh runs, so hot reads never wait for the database.
 */
export class TtlCache<V> {
  private readonly map = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
  ) {}

  /** The value at once when an entry has loaded (a stale one is served at once while it is refreshed), else the promise of it. */
  get(key: string, load: () => Promise<V>): Maybe<V> {
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.settled ? hit.settled.value : hit.value;
    if (hit && this.ttlMs > 0) {
      if (!hit.refreshing) this.refresh(key, hit, load);
      // the stale value itself while it is refreshed: a hot path does not go through a promise meanwhile
      return hit.settled ? hit.settled.value : hit.value;
    }
    return this.fill(key, load, now).value;
  }

  private fill(key: string, load: () => Promise<V>, now: number): Entry<V> {
    const entry: Entry<V> = { at: now, value: load(), refreshing: false };
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, entry);
    entry.value.then(
      (value) => {
        entry.settled = { value };
      },
      () => {
        // a failed load must not be served from the cache
        if (this.map.get(key) === entry) this.map.delete(key);
      },
    );
    return entry;
  }

  private refresh(key: string, stale: Entry<V>, load: () => Promise<V>): void {
    stale.refreshing = true;
    const next = load();
    next.then(
      (value) => this.map.set(key, { at: Date.now(), value: next, refreshing: false, settled: { value } }),
      () => {
        // keep serving the last good value; try again on the next expiry check
        stale.refreshing = false;
        stale.at = Date.now();
      },
    );
  }

  clear(): void {
    this.map.clear();
  }
}
