/** A tiny bounded cache for values that may be up to `ttlMs` stale. */
export class TtlCache<V> {
  private readonly map = new Map<string, { at: number; value: Promise<V> }>();

  constructor(private readonly ttlMs: number, private readonly maxEntries = 5000) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, { at: now, value });
    // a failed load must not be served from the cache
    value.catch(() => this.map.delete(key));
    return value;
  }

  clear(): void {
    this.map.clear();
  }
}
