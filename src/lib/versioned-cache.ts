import { type Maybe } from './maybe';

/** What a cache needs of a change feed (src/db/change-feed.ts): versions that rise on every change. */
export interface VersionSource {
  version(topic: string): number;
  readonly live: boolean;
}

export interface VersionedCacheOptions {
  /** Where versions come from; only `version` and `live` are read. */
  feed: VersionSource;
  /** The topics whose changes make an entry stale. */
  topics: readonly string[];
  /**
   * How long an entry may be served while the feed is not live (no notification can be heard).
   * 0 turns the cache off: every call loads.
   */
  fallbackTtlMs: number;
  /** A safety net while the feed is live: entries are reloaded at least this often. */
  liveTtlMs?: number;
  /** Least recently used entries are dropped beyond this many. */
  maxEntries?: number;
  /**
   * Least recently used entries are dropped while the loaded values weigh more than this (bytes,
   * as `weigh` estimates them): a count alone does not bound memory when values are bodies of any
   * size. A value heavier than the whole budget is served but not kept.
   */
  maxBytes?: number;
  /** The weight of a loaded value in bytes (required with `maxBytes`). */
  weigh?: (value: never) => number;
  /** Milliseconds; injected by tests. */
  now?: () => number;
}

interface Entry<V> {
  version: number;
  /** When the load started: an entry is never younger than the data it holds. */
  at: number;
  value: Promise<V>;
  /** Set once the load has succeeded: `get` and `peek` then answer the value itself. */
  settled: boolean;
  resolved?: V;
  /** Bytes counted in the cache's weight (0 until loaded, or when there is no byte budget). */
  weight: number;
}

export const LIVE_SAFETY_TTL_MS = 60_000;

/** One number for several topics: versions only rise, so their sum moves whenever any of them does. */
export function versionOf(feed: VersionSource, topics: readonly string[]): number {
  let v = 0;
  for (const t of topics) v += feed.version(t);
  return v;
}

/**
 * A bounded cache whose entries stay valid until the data they were loaded from changes: each
 * entry remembers the version of its topics when its load started, and is reloaded once the
 * version has moved (a load that started before a change is never served after it). While the
 * change feed is down it degrades to a short TTL. Concurrent misses share one load; a failed
 * load is not kept.
 */
export class VersionedCache<V> {
  private readonly map = new Map<string, Entry<V>>();
  private readonly now: () => number;
  private readonly liveTtlMs: number;
  private readonly maxEntries: number;
  private readonly weigh: ((value: V) => number) | null;
  private readonly maxBytes: number;
  private bytes = 0;
  /** The entry last inserted or moved: the young end of the LRU order, unless it was removed since. */
  private youngest: Entry<V> | undefined;

  constructor(private readonly opts: VersionedCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.liveTtlMs = Math.max(opts.liveTtlMs ?? LIVE_SAFETY_TTL_MS, opts.fallbackTtlMs);
    this.maxEntries = Math.max(1, opts.maxEntries ?? 5000);
    if ((opts.maxBytes === undefined) !== (opts.weigh === undefined)) throw new Error('maxBytes and weigh go together');
    this.weigh = (opts.weigh as ((value: V) => number) | undefined) ?? null;
    this.maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /**
   * The value for `key`: at once when it is loaded and still valid, else the promise of its
   * (shared) load. A value, not a promise, lets a hot path answer without awaiting.
   */
  get(key: string, load: () => Promise<V>): Maybe<V> {
    if (this.opts.fallbackTtlMs <= 0) return load();
    const version = this.version();
    const now = this.now();
    const hit = this.fresh(key, version, now);
    if (hit) return hit.settled ? (hit.resolved as V) : hit.value;
    const entry: Entry<V> = { version, at: now, value: load(), settled: false, weight: 0 };
    this.remove(key);
    this.map.set(key, entry);
    this.youngest = entry;
    if (this.map.size > this.maxEntries) this.remove(this.map.keys().next().value as string);
    entry.value.then(
      (value) => {
        entry.resolved = value;
        entry.settled = true;
        if (this.weigh && this.map.get(key) === entry) this.account(key, entry, this.weigh(value));
      },
      () => {
        if (this.map.get(key) === entry) this.remove(key);
      },
    );
    return entry.value;
  }

  /** Counts a loaded entry's weight, then drops the least recently used entries while over the budget. */
  private account(key: string, entry: Entry<V>, weight: number): void {
    entry.weight = weight;
    this.bytes += weight;
    if (weight > this.maxBytes) {
      this.remove(key);
      return;
    }
    while (this.bytes > this.maxBytes && this.map.size > 0) this.remove(this.map.keys().next().value as string);
  }

  private remove(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.bytes -= entry.weight;
    this.map.delete(key);
    if (entry === this.youngest) this.youngest = undefined;
  }

  /** Bytes the loaded values weigh, as `weigh` estimates them (0 without a byte budget). */
  get weight(): number {
    return this.bytes;
  }

  /**
   * The value `get` would answer right now without loading, when its load has already succeeded;
   * undefined otherwise (missing, stale, or still loading). Whether something is cached, without
   * loading it (a kept answer is looked for, never made, before the request is parsed).
   */
  peek(key: string): V | undefined {
    if (this.opts.fallbackTtlMs <= 0) return undefined;
    const hit = this.fresh(key, this.version(), this.now());
    return hit?.settled ? hit.resolved : undefined;
  }

  /** The entry still valid for this version and time, moved to the young end of the LRU order. */
  private fresh(key: string, version: number, now: number): Entry<V> | undefined {
    const hit = this.map.get(key);
    if (!hit || hit.version !== version || now - hit.at >= this.ttl()) return undefined;
    // re-inserted: Map order is the LRU order. Not when it is the youngest already (a hot key, hit
    // again and again): there a delete and a set would change nothing but cost a rehash of the Map.
    if (hit !== this.youngest) {
      this.map.delete(key);
      this.map.set(key, hit);
      this.youngest = hit;
    }
    return hit;
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.youngest = undefined;
    this.bytes = 0;
  }

  private version(): number {
    return versionOf(this.opts.feed, this.opts.topics);
  }

  private ttl(): number {
    return this.opts.feed.live ? this.liveTtlMs : this.opts.fallbackTtlMs;
  }
}
