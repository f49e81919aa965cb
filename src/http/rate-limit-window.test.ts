import { admits, assertValidLimit, countAt, describeDecision, secondAt, type Bucket } from './rate-limit-window';

// 2030-01-01T00:00:00Z
const T0s = Date.UTC(2030, 0, 1) / 1000;
const at = (seconds: number) => (T0s + seconds) * 1000;

describe('countAt / admits', () => {
  const buckets: Bucket[] = [
    [T0s - 1, 7],
    [T0s, 2],
    [T0s + 30, 1],
    [T0s + 60, 1],
  ];

  it('counts the buckets of seconds now-60 .. now and nothing older', () => {
    expect(countAt(buckets, T0s + 59)).toBe(7 + 2 + 1 + 1);
    expect(countAt(buckets, T0s + 60)).toBe(2 + 1 + 1);
    expect(countAt(buckets, T0s + 61)).toBe(1 + 1);
    expect(countAt(buckets, T0s + 121)).toBe(0);
  });

  it('counts buckets later than now (a clock that went back) rather than forgetting them', () => {
    expect(countAt([[T0s + 10, 3]], T0s)).toBe(3);
  });

  it('admits when the count plus one is within the limit', () => {
    expect(admits([[T0s, 4]], T0s + 1, 5)).toBe(true);
    expect(admits([[T0s, 5]], T0s + 1, 5)).toBe(false);
    expect(admits([[T0s, 5]], T0s + 61, 5)).toBe(true);
    expect(admits([], T0s, 0)).toBe(false);
  });

  it('refuses limits that are not non-negative integers', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => assertValidLimit(bad)).toThrow(RangeError);
    expect(() => assertValidLimit(0)).not.toThrow();
  });
});

describe('describeDecision', () => {
  it('allowed: remaining after this request, reset when the oldest counted request leaves', () => {
    expect(describeDecision(true, 5, [[T0s, 1]], at(0.4))).toEqual({ allowed: true, limit: 5, remaining: 4, resetAt: T0s + 61, retryAfter: 0 });
    expect(
      describeDecision(
        true,
        5,
        [
          [T0s, 2],
          [T0s + 20, 1],
        ],
        at(20.9),
      ),
    ).toEqual({ allowed: true, limit: 5, remaining: 2, resetAt: T0s + 61, retryAfter: 0 });
  });

  it('refused: Retry-After is the whole seconds until one more fits, and Reset that second', () => {
    // 5 at second 0: they leave the count at second 61.
    expect(describeDecision(false, 5, [[T0s, 5]], at(0.5))).toEqual({ allowed: false, limit: 5, remaining: 0, resetAt: T0s + 61, retryAfter: 61 });
    expect(describeDecision(false, 5, [[T0s, 5]], at(30.2))).toEqual({ allowed: false, limit: 5, remaining: 0, resetAt: T0s + 61, retryAfter: 31 });
    expect(describeDecision(false, 5, [[T0s, 5]], at(60.999))).toMatchObject({ resetAt: T0s + 61, retryAfter: 1 });
    // 2 at 0 and 3 at 10: one more fits when the first two leave, at 61.
    expect(
      describeDecision(
        false,
        5,
        [
          [T0s, 2],
          [T0s + 10, 3],
        ],
        at(40),
      ),
    ).toMatchObject({ resetAt: T0s + 61, retryAfter: 21 });
  });

  it('refused after a limit was lowered: waits until enough buckets have left', () => {
    // 10 counted, new limit 4: one more fits once at most 3 are counted, i.e. when the bucket of
    // second 10 leaves (at 71), the 2 + 1 of seconds 20 and 30 remaining.
    const buckets: Bucket[] = [
      [T0s, 4],
      [T0s + 10, 3],
      [T0s + 20, 2],
      [T0s + 30, 1],
    ];
    expect(describeDecision(false, 4, buckets, at(35))).toEqual({ allowed: false, limit: 4, remaining: 0, resetAt: T0s + 71, retryAfter: 36 });
  });

  it('limit 0 refuses with a one-minute Retry-After', () => {
    expect(describeDecision(false, 0, [], at(5))).toEqual({ allowed: false, limit: 0, remaining: 0, resetAt: T0s + 65, retryAfter: 60 });
  });

  it('ignores buckets that no longer count and the order they come in', () => {
    expect(
      describeDecision(
        true,
        3,
        [
          [T0s + 70, 1],
          [T0s, 9],
          [T0s + 65, 1],
        ],
        at(70),
      ),
    ).toEqual({ allowed: true, limit: 3, remaining: 1, resetAt: T0s + 65 + 61, retryAfter: 0 });
  });

  it('Retry-After is the fewest whole seconds after which one more fits (one second less is too early)', () => {
    const buckets: Bucket[] = [
      [T0s, 3],
      [T0s + 7, 2],
    ];
    const refused = describeDecision(false, 5, buckets, at(12.345));
    const fitsAtMs = at(12.345) + refused.retryAfter * 1000;
    expect(secondAt(fitsAtMs)).toBe(refused.resetAt);
    expect(admits(buckets, secondAt(at(12.345)) + refused.retryAfter - 1, 5)).toBe(false);
    expect(admits(buckets, secondAt(at(12.345)) + refused.retryAfter, 5)).toBe(true);
  });
});
