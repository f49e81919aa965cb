/**
 * Pure arithmetic of the per-minute rate limit: a sliding log at one-second resolution.
 *
 * A key's state is a list of buckets `[second, count]`: how many requests were admitted during
 * each Unix second. At second `s` (the current time floored to a whole second) the buckets that
 * count are those of seconds `s - 60` .. `s` (61 buckets; later ones too, should a clock have
 * gone back). A request is admitted when their sum plus one is within the limit, and is then
 * added to bucket `s`. Refused requests are never added.
 *
 * Why no 60-second window can ever admit more than the limit: take any window (a, a + 60 s] and
 * the last request it admitted, at time t (second s). Every admitted request of the window lies
 * in (t - 60 s, t], hence in seconds s - 60 .. s, which are exactly the buckets counted when t
 * was decided, and all of them were already counted then (decisions happen in time order). That
 * count, t included, was at most the limit. The price is that a request may wait up to one
 * second longer than an exact log of timestamps would make it, never the other way round.
 *
 * It stays cheap whatever the limit: at most 61 numbers per key (the 1,000,000-per-minute bench
 * key included). No I/O and no clock here: everything comes in as arguments.
 */

export const WINDOW_SECONDS = 60;

/** How many one-second buckets count at any moment: seconds s - 60 .. s. */
export const COUNTED_SECONDS = WINDOW_SECONDS + 1;

/** One second's count of admitted requests. */
export type Bucket = readonly [second: number, count: number];

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests that would still be admitted right now (after this one). */
  remaining: number;
  /** Unix seconds: when refused, when one more request fits (now + retryAfter); when allowed,
   *  when the oldest counted request leaves the window, i.e. when `remaining` next goes up. */
  resetAt: number;
  /** Whole seconds (>= 1) until one more request fits when refused; 0 when allowed. */
  retryAfter: number;
}

/** The whole Unix second containing `nowMs`. */
export function secondAt(nowMs: number): number {
  return Math.floor(nowMs / 1000);
}

/** The oldest second still counted at `second`; older buckets can be forgotten. */
export function firstCountedSecond(second: number): number {
  return second - WINDOW_SECONDS;
}

export function assertValidLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`rate limit must be a non-negative integer, got ${limit}`);
  }
}

/** Requests counted at `second`. */
export function countAt(buckets: readonly Bucket[], second: number): number {
  const first = firstCountedSecond(second);
  let total = 0;
  for (const [s, c] of buckets) if (s >= first && c > 0) total += c;
  return total;
}

/** Would one more request be admitted at `second`? */
export function admits(buckets: readonly Bucket[], second: number, limit: number): boolean {
  return countAt(buckets, second) + 1 <= limit;
}

/**
 * The headers' numbers, from the buckets as they are after the decision (this request included
 * when it was allowed) at the instant `nowMs`.
 */
export function describeDecision(allowed: boolean, limit: number, buckets: readonly Bucket[], nowMs: number): LimitDecision {
  const second = secondAt(nowMs);
  const first = firstCountedSecond(second);
  const live = buckets.filter(([s, c]) => s >= first && c > 0).sort((x, y) => x[0] - y[0]);
  let count = 0;
  for (const [, c] of live) count += c;
  const remaining = Math.max(0, limit - count);

  if (allowed) {
    // `live` is never empty here: it holds this request.
    const oldest = live.length ? live[0][0] : second;
    return { allowed, limit, remaining, resetAt: oldest + COUNTED_SECONDS, retryAfter: 0 };
  }

  const retryAfter = secondsUntilOneMoreFits(live, count, second, limit);
  return { allowed, limit, remaining, resetAt: second + retryAfter, retryAfter };
}

/**
 * Whole seconds from `second` to the first second at which one more request fits, nothing else
 * being admitted meanwhile: buckets leave the count oldest first, bucket b at second b + 61.
 * Starting that second (its first millisecond), so Retry-After is exact in whole seconds.
 */
function secondsUntilOneMoreFits(live: readonly Bucket[], count: number, second: number, limit: number): number {
  if (limit < 1) return WINDOW_SECONDS; // never admitted: ask the client to come back in a minute
  let left = count;
  for (const [s, c] of live) {
    left -= c;
    if (left + 1 <= limit) return Math.max(1, s + COUNTED_SECONDS - second);
  }
  return 1; // only reached when something already fits; callers decide that first
}
