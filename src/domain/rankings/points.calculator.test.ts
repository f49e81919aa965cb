import { type EventLevel, type Outcome, basePoints, isKnockout, levelMultiplier, resultPoints, roundPoints, timeValue } from './points.calculator';

describe('levelMultiplier (docs/decisions.md#points)', () => {
  test.each<[EventLevel | null, number]>([
    ['national', 1.0],
    ['international', 1.5],
    ['continental', 2.0],
    ['worldcup', 2.5],
    ['world', 3.0],
    [null, 1.0],
  ])('%s -> %d', (level, expected) => {
    expect(levelMultiplier(level)).toBe(expected);
  });

  test('an unknown level from the database fails loudly instead of scoring', () => {
    expect(() => levelMultiplier('regional' as EventLevel)).toThrow(RangeError);
    expect(() => levelMultiplier('toString' as EventLevel)).toThrow(RangeError);
  });
});

describe('isKnockout', () => {
  test.each(['KO', 'TKO', 'ko', 'tko', 'Ko', 'tKo', ' KO ', 'TKO\n'])('%j is a knockout', (method) => {
    expect(isKnockout(method)).toBe(true);
  });

  test.each([null, '', 'Decision', 'Submission', 'DQ', 'KO/TKO', 'TKO (doctor)', 'K O', 'RSC'])('%j is not a knockout', (method) => {
    expect(isKnockout(method)).toBe(false);
  });
});

describe('basePoints (docs/decisions.md#points)', () => {
  test.each<[Outcome, string | null, number]>([
    ['W', null, 10],
    ['W', 'Decision', 10],
    ['W', 'Submission', 10],
    ['W', 'KO', 12],
    ['W', 'TKO', 12],
    ['W', 'ko', 12],
    ['W', 'Tko', 12],
    ['D', null, 5],
    ['D', 'Decision', 5],
    ['L', null, 2],
    ['L', 'KO', 2],
    ['L', 'TKO', 2],
    ['NC', null, 0],
    ['NC', 'KO', 0],
  ])('%s by %j -> %d', (outcome, method, expected) => {
    expect(basePoints(outcome, method)).toBe(expected);
  });

  test('an unknown outcome fails loudly', () => {
    expect(() => basePoints('X' as Outcome, null)).toThrow(RangeError);
    expect(() => basePoints('w' as Outcome, 'KO')).toThrow(RangeError);
  });
});

describe('timeValue (docs/decisions.md#points), by calendar months', () => {
  test.each([
    ['2024-03-15', '2024-03-15', 1.0, 'same day'],
    ['2024-03-15', '2025-03-14', 1.0, 'the day before 12 months'],
    ['2024-03-15', '2025-03-15', 0.5, 'exactly 12 months'],
    ['2024-03-15', '2025-03-16', 0.5, 'a day past 12 months'],
    ['2024-03-15', '2026-03-14', 0.5, 'the day before 24 months'],
    ['2024-03-15', '2026-03-15', 0, 'exactly 24 months'],
    ['2024-03-15', '2031-01-01', 0, 'years old'],
    ['2024-03-16', '2024-03-15', 1.0, 'an event the day after as_of'],
    ['2030-01-01', '2024-03-15', 1.0, 'an event years after as_of'],
    ['2023-12-31', '2024-12-30', 1.0, 'year end, the day before 12 months'],
    ['2023-12-31', '2024-12-31', 0.5, 'year end, exactly 12 months'],
    ['2023-01-31', '2024-01-31', 0.5, 'a 31st, exactly 12 months'],
  ])('event %s at %s -> %d (%s)', (eventDate, asOf, expected) => {
    expect(timeValue(eventDate, asOf)).toBe(expected);
  });

  describe('leap day', () => {
    // 2024-02-29 + 12 months clamps to 2025-02-28 and + 24 months to 2026-02-28.
    test.each([
      ['2025-02-27', 1.0],
      ['2025-02-28', 0.5],
      ['2025-03-01', 0.5],
      ['2026-02-27', 0.5],
      ['2026-02-28', 0],
    ])('event 2024-02-29 at %s -> %d', (asOf, expected) => {
      expect(timeValue('2024-02-29', asOf)).toBe(expected);
    });

    test('as_of on a leap day', () => {
      expect(timeValue('2023-02-28', '2024-02-28')).toBe(0.5);
      expect(timeValue('2023-02-28', '2024-02-27')).toBe(1.0);
      expect(timeValue('2023-03-01', '2024-02-29')).toBe(1.0);
      expect(timeValue('2022-02-28', '2024-02-29')).toBe(0);
      expect(timeValue('2022-03-01', '2024-02-29')).toBe(0.5);
    });

    test('a leap-day bout is worth nothing four years on', () => {
      expect(timeValue('2024-02-29', '2028-02-29')).toBe(0);
    });
  });

  test('does not depend on the process time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/St_Johns', 'UTC']) {
        process.env.TZ = zone;
        expect(timeValue('2024-02-29', '2025-02-27')).toBe(1.0);
        expect(timeValue('2024-02-29', '2025-02-28')).toBe(0.5);
        expect(timeValue('2024-03-31', '2025-03-30')).toBe(1.0);
        expect(timeValue('2024-03-31', '2025-03-31')).toBe(0.5);
        expect(timeValue('2024-10-27', '2026-10-27')).toBe(0);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  test.each([
    '2023-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '24-01-01',
    '2024-1-01',
    '2024-01-01T00:00:00Z',
    '',
    'yesterday',
    'abcd-01-01',
    '2024-0a-01',
    '2024-01-1x',
    '+024-01-01',
    '2024/01/01',
    '2024-01-01 ',
    ' 2024-01-01',
  ])('rejects the malformed date %j on either side', (bad) => {
    expect(() => timeValue(bad, '2024-06-01')).toThrow(RangeError);
    expect(() => timeValue('2024-06-01', bad)).toThrow(RangeError);
  });
});

describe('roundPoints: 2 decimals, half away from zero', () => {
  test.each([
    [0, 0],
    [9, 9],
    [12.5, 12.5],
    [3.75, 3.75],
    [0.124, 0.12],
    [0.125, 0.13],
    [1.005, 1.01], // stored as 1.00499999999999989...
    [2.675, 2.68], // stored as 2.67499999999999982...
    [1.0049, 1],
    [2.135, 2.14], // Math.round((x + Number.EPSILON) * 100) / 100 gives 2.13
    [4.015, 4.02], // ... and 4.01
    [1000.005, 1000.01],
    [123456.785, 123456.79],
    [0.1 + 0.2, 0.3],
    [10 / 3, 3.33],
    [20 / 3, 6.67],
    [-2.675, -2.68],
    [-0.125, -0.13],
  ])('%d -> %d', (value, expected) => {
    expect(roundPoints(value)).toBe(expected);
  });

  test('every half-hundredth from 0.005 to 999.995 rounds up', () => {
    const wrong: string[] = [];
    for (let thousandths = 5; thousandths < 1_000_000; thousandths += 10) {
      const written = (thousandths / 1000).toFixed(3);
      const expected = (Math.floor(thousandths / 10) + 1) / 100;
      if (roundPoints(Number(written)) !== expected) wrong.push(written);
    }
    expect(wrong).toEqual([]);
  });

  test('never returns negative zero', () => {
    expect(Object.is(roundPoints(-0), 0)).toBe(true);
    expect(Object.is(roundPoints(-0.001), 0)).toBe(true);
  });

  test.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects %d', (value) => {
    expect(() => roundPoints(value)).toThrow(RangeError);
  });
});

describe('resultPoints (docs/decisions.md#points)', () => {
  const AS_OF = '2025-06-30';
  const RECENT = '2025-06-01'; // time value 1.0
  const LAST_YEAR = '2024-06-30'; // exactly 12 months: 0.5
  const EXPIRED = '2023-06-30'; // exactly 24 months: 0

  test.each<[Outcome, string | null, EventLevel | null, string, { base: number; multiplier: number; time_value: number; total: number }]>([
    ['W', 'KO', 'world', RECENT, { base: 12, multiplier: 3, time_value: 1, total: 36 }],
    ['W', 'TKO', 'international', LAST_YEAR, { base: 12, multiplier: 1.5, time_value: 0.5, total: 9 }],
    ['W', 'Decision', 'worldcup', LAST_YEAR, { base: 10, multiplier: 2.5, time_value: 0.5, total: 12.5 }],
    ['W', null, null, RECENT, { base: 10, multiplier: 1, time_value: 1, total: 10 }],
    ['W', 'ko', 'continental', RECENT, { base: 12, multiplier: 2, time_value: 1, total: 24 }],
    ['D', null, 'international', LAST_YEAR, { base: 5, multiplier: 1.5, time_value: 0.5, total: 3.75 }],
    ['D', null, 'worldcup', LAST_YEAR, { base: 5, multiplier: 2.5, time_value: 0.5, total: 6.25 }],
    ['L', 'KO', 'worldcup', LAST_YEAR, { base: 2, multiplier: 2.5, time_value: 0.5, total: 2.5 }],
    ['L', 'Decision', 'international', LAST_YEAR, { base: 2, multiplier: 1.5, time_value: 0.5, total: 1.5 }],
    ['NC', null, 'world', RECENT, { base: 0, multiplier: 3, time_value: 1, total: 0 }],
    ['W', 'KO', 'world', EXPIRED, { base: 12, multiplier: 3, time_value: 0, total: 0 }],
    ['W', 'KO', 'world', '2025-07-01', { base: 12, multiplier: 3, time_value: 1, total: 36 }],
  ])('%s by %j at %s on %s', (outcome, method, level, eventDate, expected) => {
    expect(resultPoints(outcome, method, level, eventDate, AS_OF)).toEqual(expected);
  });

  // With docs/decisions.md#points's tables every total is a multiple of 0.25, so rounding is a safety net; checking all
  // 75 combinations proves no combination produces float noise or a third decimal.
  const bases: Array<[Outcome, string | null, number]> = [
    ['W', 'KO', 12],
    ['W', null, 10],
    ['D', null, 5],
    ['L', null, 2],
    ['NC', null, 0],
  ];
  const levels: Array<[EventLevel | null, number]> = [
    ['national', 1],
    ['international', 1.5],
    ['continental', 2],
    ['worldcup', 2.5],
    ['world', 3],
    [null, 1],
  ];
  const ages: Array<[string, number]> = [
    [RECENT, 1],
    [LAST_YEAR, 0.5],
    [EXPIRED, 0],
  ];
  test('every combination equals base x multiplier x time value with at most 2 decimals', () => {
    for (const [outcome, method, base] of bases) {
      for (const [level, multiplier] of levels) {
        for (const [eventDate, time_value] of ages) {
          const points = resultPoints(outcome, method, level, eventDate, AS_OF);
          expect(points).toEqual({ base, multiplier, time_value, total: base * multiplier * time_value });
          expect(Number.isInteger(points.total * 100)).toBe(true);
        }
      }
    }
  });

  test('validates its inputs', () => {
    expect(() => resultPoints('W', null, null, '2025-02-30', AS_OF)).toThrow(RangeError);
    expect(() => resultPoints('W', null, 'galactic' as EventLevel, RECENT, AS_OF)).toThrow(RangeError);
    expect(() => resultPoints('?' as Outcome, null, null, RECENT, AS_OF)).toThrow(RangeError);
  });
});
