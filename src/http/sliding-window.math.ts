/**
 * Pure arithmetic of the sliding-window-counter rate limit (the approximation Cloudflare
 * describes): windows are aligned to the clock, and the number of requests "in the last window"
 * is estimated as
 *
 *   estimate = previousWindowCount * (1 - elapsedFractionOfCurrentWindow) + currentWindowCount
 *
 * All comparisons are done on integers scaled by the window length in milliseconds
 * (previous * (windowMs - elapsedMs) + current * windowMs versus limit * windowMs), so there is
 * no floating-point rounding at the exact boundaries.
 *
 * No I/O and no clock here: everything comes in as arguments, so it can be tested exhaustively.
 */

export interface SlidingWindowInput {
  /** Requests allowed per window (a non-negative integer; 0 refuses everything). */
  limit: number;
  /** Requests counted in the previous aligned window. */
  previousCount: number;
  /** Requests already counted in the current aligned window, NOT including the one being decided. */
  currentCount: number;
  /** Current time in Unix milliseconds. */
  nowMs: number;
  /** Window length in milliseconds (60 000 for the API). */
  windowMs: number;
}

export interface SlidingWindowDecision {
  allowed: boolean;
  limit: number;
  /** max(0, floor(limit - estimate)) after this request (a refused request does not count). */
  remaining: number;
  /** Unix seconds: when limited, the first whole second at or after now + retryAfter;
   *  otherwise the end of the current aligned window. */
  resetAt: number;
  /** Whole seconds (>= 1) until one more request would be allowed; 0 when allowed. */
  retryAfter: number;
  /** The estimate after this request (a refused request does not count). */
  estimate: number;
}

/** Index of the clock-aligned window containing `nowMs`. */
export function windowIndexAt(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs);
}

/** The weighted estimate: previous * (1 - elapsed / window) + current. */
export function estimateCount(previousCount: number, currentCount: number, elapsedMs: number, windowMs: number): number {
  return (previousCount * (windowMs - elapsedMs) + currentCount * windowMs) / windowMs;
}

/** Would one more request fit? (exact integer comparison, see the module comment) */
function fits(limit: number, previousCount: number, currentCount: number, elapsedMs: number, windowMs: number): boolean {
  return previousCount * (windowMs - elapsedMs) + (currentCount + 1) * windowMs <= limit * windowMs;
}

/**
 * Milliseconds from now until one more request would be allowed, assuming nothing else is
 * counted meanwhile (refused requests are never counted, so this holds while a client is
 * limited). 0 when a request is allowed right now.
 *
 * The estimate never increases while no request is counted: inside a window the previous
 * count's weight decays linearly, and at the boundary the current count becomes the previous
 * one with full weight (continuous: previous * 0 + current === current * 1 + 0). So the first
 * allowed instant is found in the current window or, failing that, in the next one; a limit of
 * at least 1 always fits in the next window at the latest at its end (both counts 0 afterwards).
 */
export function msUntilAllowed(
  limit: number,
  previousCount: number,
  currentCount: number,
  elapsedMs: number,
  windowMs: number,
): number {
  if (fits(limit, previousCount, currentCount, elapsedMs, windowMs)) return 0;
  if (limit < 1) return windowMs; // never allowed: ask the client to come back in a window

  // Still in the current window: previous * (W - e') + (current + 1) * W <= limit * W
  //   <=> e' >= W * (previous - headroom) / previous, where headroom = limit - current - 1.
  const headroom = limit - currentCount - 1;
  if (headroom >= 0 && previousCount > 0) {
    const neededElapsed = Math.ceil((windowMs * (previousCount - headroom)) / previousCount);
    // Not allowed now implies neededElapsed > elapsedMs.
    if (neededElapsed < windowMs) return neededElapsed - elapsedMs;
  }

  // In the next window the current count becomes the previous one and the current count is 0:
  //   current * (W - e'') + W <= limit * W  <=>  e'' >= W * (current - (limit - 1)) / current.
  const untilBoundary = windowMs - elapsedMs;
  if (currentCount <= 0) return untilBoundary;
  const neededNext = Math.max(0, Math.ceil((windowMs * (currentCount - (limit - 1))) / currentCount));
  return untilBoundary + neededNext; // neededNext <= windowMs because limit >= 1
}

function assertCount(name: string, value: number): void {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
}

export function assertValidLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`rate limit must be a non-negative integer, got ${limit}`);
  }
}

export function assertValidWindowMs(windowMs: number): void {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`window must be a positive whole number of milliseconds, got ${windowMs}`);
  }
}

/**
 * Decides one request. `currentCount` excludes the request being decided; when it is allowed it
 * counts (remaining/estimate include it), when it is refused it does not.
 */
export function evaluateSlidingWindow(input: SlidingWindowInput): SlidingWindowDecision {
  const { limit, windowMs } = input;
  assertValidLimit(limit);
  assertValidWindowMs(windowMs);
  assertCount('nowMs', input.nowMs);
  assertCount('previousCount', input.previousCount);
  assertCount('currentCount', input.currentCount);

  const nowMs = Math.floor(input.nowMs);
  // Counts can dip below 0 in storage after an over-eager refund; never let that buy extra room.
  const previousCount = Math.max(0, Math.floor(input.previousCount));
  const currentCount = Math.max(0, Math.floor(input.currentCount));

  const index = windowIndexAt(nowMs, windowMs);
  const elapsedMs = nowMs - index * windowMs;
  const allowed = fits(limit, previousCount, currentCount, elapsedMs, windowMs);
  const countedCurrent = allowed ? currentCount + 1 : currentCount;

  const scaledEstimate = previousCount * (windowMs - elapsedMs) + countedCurrent * windowMs;
  const estimate = scaledEstimate / windowMs;
  const remaining = Math.max(0, Math.floor((limit * windowMs - scaledEstimate) / windowMs));

  if (allowed) {
    return {
      allowed,
      limit,
      remaining,
      resetAt: Math.ceil(((index + 1) * windowMs) / 1000),
      retryAfter: 0,
      estimate,
    };
  }

  const waitMs = msUntilAllowed(limit, previousCount, currentCount, elapsedMs, windowMs);
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    allowed,
    limit,
    remaining,
    resetAt: Math.ceil((nowMs + retryAfter * 1000) / 1000),
    retryAfter,
    estimate,
  };
}
