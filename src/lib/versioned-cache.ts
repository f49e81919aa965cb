interface Entry<V> {
  version: number;
  at: number;
  value: Promise<V>;
  refreshing: boolean;
}

/**
 * A cache of values that depend on data with a version (a change-feed topic): an entry filled
 * under an older version is never served. `maxAgeMs` bounds staleness against writers this
 * process cannot hear; past it the entry is served while one background reload runs (0 turns
 * caching off). Concurrent misses share one load; a failed load is not kept.
 */
export class VersionedCache<V> {
  private readonly map = new Map<string, Entry<V>>();

  constructor(private readonly version: () => number, private readonly maxAgeMs: number, private readonly maxEntries = 5000) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const version = this.version();
    const hit = this.map.get(key);
    if (hit && hit.version === version && this.maxAgeMs > 0) {
      if (Date.now() - hit.at >= this.maxAgeMs && !hit.refreshing) this.refresh(key, hit, version, load);
      return hit.value;
    }
    return this.fill(key, version, load);
  }

  private fill(key: string, version: number, load: () => Promise<V>): Promise<V> {
    const entry: Entry<V> = { version, at: Date.now(), value: load(), refreshing: false };
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, entry);
    entry.value.catch(() => {
      if (this.map.get(key) === entry) this.map.delete(key);
    });
    return entry.value;
  }

  private refresh(key: string, stale: Entry<V>, version: number, load: () => Promise<V>): void {
    stale.refreshing = true;
    const next = load();
    next.then(
      () => {
        if (this.map.get(key) === stale) this.map.set(key, { version, at: Date.now(), value: next, refreshing: false });
      },
      () => {
        stale.refreshing = false;
        stale.at = Date.now();
      },
    );
  }

  clear(): void {
    this.map.clear();
  }
}
