import { COUNTED_SECONDS, describeDecision, firstCountedSecond, secondAt, type Bucket, type LimitDecision } from './rate-limit-window';

/** Where a limiter keeps its buckets (see rate-limit-window.ts). */
export interface WindowStore {
  readonly kind: 'redis' | 'memory';
  /**
   * Atomically: forget buckets older than `second - 60`; when the count plus one is within
   * `limit`, add one to bucket `second`. Returns whether it did and the buckets after.
   */
  consume(key: string, second: number, limit: number): Promise<{ allowed: boolean; buckets: Bucket[] }>;
  /** Takes one back from the newest counted bucket of `key`, if any. */
  refund(key: string, second: number): Promise<void>;
  /**
   * Carries counts decided elsewhere (by the insurance store, while this one was unreachable) into
   * `key`: each counted second becomes max(its count + `added`, `total`), so requests counted here
   * meanwhile are kept and none is counted twice. Entries older than `second - 60` are ignored.
   */
  merge(key: string, entries: readonly CarriedCount[], second: number): Promise<void>;
}

/** One second of a key as the insurance store saw it: its whole count, and what it added itself. */
export interface CarriedCount {
  second: number;
  total: number;
  added: number;
}

/** Keys whose newest bucket is this old are dropped by the periodic sweep. */
const SWEEP_EVERY_SECONDS = 61;

/**
 * In-process buckets: a Map from key to a flat, ascending list [second, count, second, count...].
 * Every operation is synchronous, so concurrent requests of one process can never overshoot a
 * limit. Idle keys are swept once a minute (by the injected clock), on the next call.
 */
export class MemoryWindowStore implements WindowStore {
  readonly kind = 'memory';
  private readonly keys = new Map<string, number[]>();
  private lastSweep = Number.NEGATIVE_INFINITY;

  consume(key: string, second: number, limit: number): Promise<{ allowed: boolean; buckets: Bucket[] }> {
    const flat = this.take(key, second, limit);
    return Promise.resolve({ allowed: flat.allowed, buckets: pairs(flat.buckets) });
  }

  refund(key: string, second: number): Promise<void> {
    this.refundNow(key, second);
    return Promise.resolve();
  }

  /**
   * `consume` and `describeDecision` in one synchronous step, for a limiter that decides in this
   * process: an admitted request is described from the stored list as it is (ascending, pruned,
   * no empty bucket), without copying it.
   */
  decide(key: string, nowMs: number, limit: number): LimitDecision {
    const { allowed, buckets } = this.take(key, secondAt(nowMs), limit);
    if (!allowed) return describeDecision(false, limit, pairs(buckets), nowMs);
    let count = 0;
    for (let i = 1; i < buckets.length; i += 2) count += buckets[i];
    return { allowed, limit, remaining: Math.max(0, limit - count), resetAt: buckets[0] + COUNTED_SECONDS, retryAfter: 0 };
  }

  refundNow(key: string, second: number): void {
    const flat = this.live(key, second);
    if (flat.length) {
      flat[flat.length - 1] -= 1;
      if (flat[flat.length - 1] <= 0) flat.length -= 2;
      if (!flat.length) this.keys.delete(key);
    }
  }

  private take(key: string, second: number, limit: number): { allowed: boolean; buckets: number[] } {
    this.sweep(second);
    const flat = this.live(key, second);
    let count = 0;
    for (let i = 1; i < flat.length; i += 2) count += flat[i];
    const allowed = count + 1 <= limit;
    if (allowed) {
      const last = flat.length - 2;
      // A clock that went back adds to the newest bucket: it then counts for longer, never less.
      if (last >= 0 && flat[last] >= second) flat[last + 1] += 1;
      else flat.push(second, 1);
      this.keys.set(key, flat);
    }
    return { allowed, buckets: flat };
  }

  merge(key: string, entries: readonly CarriedCount[], second: number): Promise<void> {
    const counts = new Map(pairs(this.live(key, second)));
    const first = firstCountedSecond(second);
    for (const e of entries) {
      if (e.second < first) continue;
      const had = counts.get(e.second) ?? 0;
      counts.set(e.second, Math.max(had + e.added, e.total));
    }
    this.store(
      key,
      [...counts].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]),
    );
    return Promise.resolve();
  }

  /**
   * Replaces the key's buckets with the shared store's answer (the insurance store keeps a copy of
   * what the shared store last said of each key, so that it starts from those counts if the
   * shared store fails, instead of from zero).
   */
  mirror(key: string, buckets: readonly Bucket[], second: number): void {
    this.sweep(second);
    const first = firstCountedSecond(second);
    this.store(
      key,
      buckets.filter(([s, c]) => s >= first && c > 0).sort((a, b) => a[0] - b[0]),
    );
  }

  /** The key's counted buckets at `second`, oldest first (a copy). */
  bucketsOf(key: string, second: number): Bucket[] {
    return pairs(this.live(key, second));
  }

  private store(key: string, buckets: readonly Bucket[]): void {
    if (buckets.length === 0) {
      this.keys.delete(key);
      return;
    }
    const flat: number[] = [];
    for (const [s, c] of buckets) flat.push(s, c);
    this.keys.set(key, flat);
  }

  /** Number of keys held (for tests). */
  size(): number {
    return this.keys.size;
  }

  /** The key's buckets still counted at `second` (the stored list, pruned in place). */
  private live(key: string, second: number): number[] {
    const flat = this.keys.get(key);
    if (!flat) return [];
    const first = firstCountedSecond(second);
    let drop = 0;
    while (drop < flat.length && flat[drop] < first) drop += 2;
    if (drop) flat.splice(0, drop);
    if (!flat.length) this.keys.delete(key);
    return flat;
  }

  private sweep(second: number): void {
    if (second - this.lastSweep < SWEEP_EVERY_SECONDS && second >= this.lastSweep) return;
    this.lastSweep = second;
    const first = firstCountedSecond(second);
    for (const [key, flat] of this.keys) if (flat[flat.length - 2] < first) this.keys.delete(key);
  }
}

function pairs(flat: readonly number[]): Bucket[] {
  const out: Bucket[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}
