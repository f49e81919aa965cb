import {
  estimateCount,
  evaluateSlidingWindow,
  msUntilAllowed,
  windowIndexAt,
  type SlidingWindowInput,
} from './sliding-window.math';

const W = 60_000;
// 2030-01-01T00:00:00Z, a multiple of the window: the start of an aligned window.
const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const T0s = T0 / 1000;
const at = (elapsedMs: number): number => T0 + elapsedMs;

function decide(limit: number, previousCount: number, currentCount: number, elapsedMs: number) {
  return evaluateSlidingWindow({ limit, previousCount, currentCount, nowMs: at(elapsedMs), windowMs: W });
}

/**
 * Independent reference: the exact rule "one more request fits when
 * previous * (1 - elapsed/W) + current + 1 <= limit", in integers scaled by W, evaluated at an
 * arbitrary later instant with the counts shifted as windows pass and nothing else counted.
 */
function fitsLater(limit: number, previous: number, current: number, startElapsedMs: number, waitMs: number): boolean {
  const t = startElapsedMs + waitMs;
  const windowsPassed = Math.floor(t / W);
  const elapsed = t - windowsPassed * W;
  const [p, c] = windowsPassed === 0 ? [previous, current] : windowsPassed === 1 ? [current, 0] : [0, 0];
  return p * (W - elapsed) + (c + 1) * W <= limit * W;
}

describe('windowIndexAt / estimateCount', () => {
  it('aligns windows to the clock', () => {
    expect(windowIndexAt(T0, W)).toBe(T0 / W);
    expect(windowIndexAt(T0 + 59_999, W)).toBe(T0 / W);
    expect(windowIndexAt(T0 + 60_000, W)).toBe(T0 / W + 1);
    expect(windowIndexAt(T0 - 1, W)).toBe(T0 / W - 1);
    expect(windowIndexAt(0, W)).toBe(0);
  });

  it('weights the previous window by the part of it still inside the sliding window', () => {
    expect(estimateCount(10, 3, 0, W)).toBe(13);
    expect(estimateCount(10, 3, 15_000, W)).toBe(10.5);
    expect(estimateCount(10, 3, 30_000, W)).toBe(8);
    expect(estimateCount(10, 3, 45_000, W)).toBe(5.5);
    expect(estimateCount(10, 3, 59_999, W)).toBeCloseTo(3 + 10 / 60_000, 12);
    expect(estimateCount(0, 0, 12_345, W)).toBe(0);
  });
});

describe('evaluateSlidingWindow', () => {
  it('allows the first request of a fresh key', () => {
    expect(decide(5, 0, 0, 10_000)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 4,
      resetAt: T0s + 60,
      retryAfter: 0,
      estimate: 1,
    });
  });

  it('counts down remaining to 0 exactly at the limit, then refuses one over', () => {
    const remaining = [0, 1, 2, 3, 4].map((c) => decide(5, 0, c, 10_000));
    expect(remaining.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
    expect(remaining.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(remaining.map((d) => d.resetAt)).toEqual(Array(5).fill(T0s + 60));

    // Sixth request at 10 s into the window: the 5 current requests become "previous" at 60 s and
    // one more fits when 5 * (1 - e/60) + 1 <= 5, i.e. at e = 12 s of the next window: 62 s.
    expect(decide(5, 0, 5, 10_000)).toEqual({
      allowed: false,
      limit: 5,
      remaining: 0,
      resetAt: T0s + 10 + 62,
      retryAfter: 62,
      estimate: 5,
    });
  });

  it('refuses with remaining 0 when already far over (counts never make remaining negative)', () => {
    const d = decide(5, 40, 9, 30_000);
    expect(d.allowed).toBe(false);
    expect(d.remaining).toBe(0);
    expect(d.estimate).toBe(29);
    // 9 current > limit - 1: next window, 9 * (1 - e/60) + 1 <= 5 at e = 60 * 5/9 = 33.334 s
    expect(d.retryAfter).toBe(Math.ceil((30_000 + Math.ceil((W * 5) / 9)) / 1000));
    expect(d.retryAfter).toBe(64);
  });

  it('decays the previous window across the window', () => {
    // limit 10, previous window full (10), nothing yet in the current one
    const rows = [0, 1, 5_999, 6_000, 12_000, 30_000, 45_000, 54_000, 59_999].map((e) => {
      const d = decide(10, 10, 0, e);
      return [e, d.allowed, d.remaining, d.retryAfter];
    });
    expect(rows).toEqual([
      [0, false, 0, 6], // 10 + 1 > 10; fits once 10 * (1 - e/60) <= 9 -> e >= 6 s
      [1, false, 0, 6], // 5.999 s -> ceil 6
      [5_999, false, 0, 1], // 1 ms to go -> still at least 1 s
      [6_000, true, 0, 0], // 9 + 1 = 10
      [12_000, true, 1, 0], // 8 + 1 = 9
      [30_000, true, 4, 0], // 5 + 1 = 6
      [45_000, true, 6, 0], // 2.5 + 1 = 3.5 -> floor(6.5)
      [54_000, true, 8, 0], // 1 + 1 = 2
      [59_999, true, 8, 0], // 1.000167 -> floor(8.99983)
    ]);
  });

  it('remaining never decreases as the previous window decays (same counts)', () => {
    // [limit, previous, current, remaining at e = 59 750 ms]
    for (const [limit, previous, current, finalRemaining] of [
      [5, 5, 0, 3], // 5 * 250/60000 + 1 = 1.02
      [60, 60, 10, 48], // 0.25 + 11
      [120, 200, 3, 115], // 0.83 + 4
      [1_000_000, 999_999, 0, 995_832], // 4166.66 + 1
    ]) {
      let last = -1;
      for (let e = 0; e < W; e += 250) {
        const d = decide(limit, previous, current, e);
        if (d.allowed) {
          expect(d.remaining).toBeGreaterThanOrEqual(last);
          last = d.remaining;
        }
      }
      expect(last).toBe(finalRemaining);
    }
  });

  it('uses the previous window and the current one together', () => {
    // 30 s into the window: estimate = 4 * 0.5 + 2 (+1 for this request) = 5
    expect(decide(5, 4, 2, 30_000)).toMatchObject({ allowed: true, remaining: 0, estimate: 5 });
    // one more: 4 * 0.5 + 3 + 1 = 6 > 5 -> refused. In this window: headroom 5-3-1 = 1,
    // 4 * (1 - e/60) <= 1 -> e >= 45 s, i.e. 15 s from now.
    expect(decide(5, 4, 3, 30_000)).toMatchObject({
      allowed: false,
      remaining: 0,
      retryAfter: 15,
      resetAt: T0s + 30 + 15,
      estimate: 5,
    });
  });

  it('handles the boundary: the current count becomes the previous one', () => {
    // Refused late in a window: 5 requests in the window, 1 s before its end.
    const before = decide(5, 0, 5, 59_000);
    // at 60 s (boundary): previous 5 with full weight; fits at 12 s of the next window -> 13 s from now
    expect(before).toMatchObject({ allowed: false, retryAfter: 13, resetAt: T0s + 59 + 13 });

    // Right after the boundary the caller reads the old current count as previous.
    const after = evaluateSlidingWindow({ limit: 5, previousCount: 5, currentCount: 0, nowMs: at(W), windowMs: W });
    expect(after).toMatchObject({ allowed: false, retryAfter: 12, resetAt: T0s + 60 + 12, estimate: 5 });
    const allowedLater = evaluateSlidingWindow({
      limit: 5,
      previousCount: 5,
      currentCount: 0,
      nowMs: at(W + 12_000),
      windowMs: W,
    });
    expect(allowedLater).toEqual({
      allowed: true,
      limit: 5,
      remaining: 0,
      resetAt: T0s + 120,
      retryAfter: 0,
      estimate: 5,
    });
  });

  it('when the current window alone is full, looks past the boundary even if the previous weight decays', () => {
    // previous 3, current 5 = limit: no decay of previous can help in this window
    const d = decide(5, 3, 5, 20_000);
    expect(d.allowed).toBe(false);
    expect(d.retryAfter).toBe(40 + 12);
  });

  it('limit 1: one per window, allowed again once the previous weight is 0', () => {
    expect(decide(1, 0, 0, 0)).toMatchObject({ allowed: true, remaining: 0, resetAt: T0s + 60 });
    // one counted at the window: next fits when 1 * (1 - e/60) + 1 <= 1 -> at the end of the next window
    expect(decide(1, 0, 1, 0)).toMatchObject({ allowed: false, retryAfter: 120, resetAt: T0s + 120 });
    expect(decide(1, 0, 1, 30_000)).toMatchObject({ allowed: false, retryAfter: 90 });
    expect(decide(1, 1, 0, 59_999)).toMatchObject({ allowed: false, retryAfter: 1 });
  });

  it('limit 0 refuses everything and asks to come back in a window', () => {
    expect(decide(0, 0, 0, 10_000)).toEqual({
      allowed: false,
      limit: 0,
      remaining: 0,
      resetAt: T0s + 10 + 60,
      retryAfter: 60,
      estimate: 0,
    });
  });

  it('works for large limits', () => {
    expect(decide(1_000_000, 0, 0, 1)).toMatchObject({ allowed: true, remaining: 999_999 });
    expect(decide(1_000_000, 1_000_000, 0, 30_000)).toMatchObject({ allowed: true, remaining: 499_999 });
    const over = decide(1_000_000, 1_000_000, 999_999, 0);
    expect(over).toMatchObject({ allowed: false, remaining: 0 });
    // 999 999 current: next window, 999999 * (1 - e/60) + 1 <= 1e6 -> e >= 0 -> at the boundary
    expect(over.retryAfter).toBe(60);
  });

  it('resetAt when limited is the first whole second at or after now + retryAfter', () => {
    // now = T0 + 10.4 s, 62 s wait from the sixth request example minus 0.4 s
    const d = decide(5, 0, 5, 10_400);
    expect(d.retryAfter).toBe(Math.ceil((50_000 - 400 + 12_000) / 1000)); // 61.6 -> 62
    expect(d.retryAfter).toBe(62);
    expect(d.resetAt).toBe(Math.ceil((at(10_400) + 62_000) / 1000));
    expect(d.resetAt).toBe(T0s + 73);
  });

  it('ignores negative counts (an over-eager refund never buys extra room)', () => {
    expect(decide(5, -3, -2, 0)).toEqual(decide(5, 0, 0, 0));
  });

  it('rejects invalid inputs', () => {
    const ok: SlidingWindowInput = { limit: 5, previousCount: 0, currentCount: 0, nowMs: T0, windowMs: W };
    expect(() => evaluateSlidingWindow({ ...ok, limit: -1 })).toThrow(RangeError);
    expect(() => evaluateSlidingWindow({ ...ok, limit: 1.5 })).toThrow(RangeError);
    expect(() => evaluateSlidingWindow({ ...ok, limit: Number.NaN })).toThrow(RangeError);
    expect(() => evaluateSlidingWindow({ ...ok, windowMs: 0 })).toThrow(RangeError);
    expect(() => evaluateSlidingWindow({ ...ok, nowMs: Number.NaN })).toThrow(RangeError);
    expect(() => evaluateSlidingWindow({ ...ok, currentCount: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });

  describe('Retry-After against a brute-force scan', () => {
    const elapsedPoints = [0, 1, 999, 1_000, 1_001, 15_000, 29_999, 30_000, 45_500, 59_000, 59_999];
    const cases: Array<[number, number, number, number]> = [];
    for (const limit of [1, 2, 3, 5, 7]) {
      for (let previous = 0; previous <= 2 * limit + 2; previous++) {
        for (let current = 0; current <= limit + 2; current++) {
          for (const e of elapsedPoints) cases.push([limit, previous, current, e]);
        }
      }
    }
    for (const previous of [0, 30, 59, 60, 61, 90, 120, 500]) {
      for (const current of [0, 1, 30, 58, 59, 60, 61, 100]) {
        for (const e of elapsedPoints) cases.push([60, previous, current, e]);
      }
    }

    it(`is exact to the millisecond (msUntilAllowed) and minimal in whole seconds (${cases.length} cases)`, () => {
      let refused = 0;
      for (const [limit, previous, current, e] of cases) {
        const d = decide(limit, previous, current, e);
        expect(d.allowed).toBe(fitsLater(limit, previous, current, e, 0));
        if (d.allowed) {
          expect(d.retryAfter).toBe(0);
          expect(d.resetAt).toBe(T0s + 60);
          continue;
        }
        refused++;
        const ms = msUntilAllowed(limit, previous, current, e, W);
        // exact: allowed at now + ms, refused 1 ms earlier
        expect(ms).toBeGreaterThan(0);
        expect(fitsLater(limit, previous, current, e, ms)).toBe(true);
        expect(fitsLater(limit, previous, current, e, ms - 1)).toBe(false);
        // whole seconds: the smallest s >= 1 with one more request allowed at now + s
        let expected = 1;
        while (!fitsLater(limit, previous, current, e, expected * 1000)) expected++;
        expect(d.retryAfter).toBe(expected);
        expect(d.retryAfter).toBeGreaterThanOrEqual(1);
        expect(d.retryAfter).toBeLessThanOrEqual(120);
        expect(d.remaining).toBe(0);
        expect(d.resetAt).toBe(Math.ceil((at(e) + d.retryAfter * 1000) / 1000));
      }
      expect(refused).toBeGreaterThan(1000);
    });
  });
});
