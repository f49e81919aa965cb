import { loadConfig } from '../config/config';
import { DEFAULT_RETRY_SCHEDULE, maxAttempts, parseRetrySchedule } from './retry-schedule';

/** docs/decisions.md#retries: `1m,5m,30m,2h`, five attempts; WEBHOOK_RETRY_SCHEDULE compresses it for tests. */

describe('parseRetrySchedule', () => {
  it('reads the default schedule as 1 min, 5 min, 30 min and 2 h: five attempts in all', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toBe('1m,5m,30m,2h');
    const delays = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(delays).toEqual([60_000, 300_000, 1_800_000, 7_200_000]);
    expect(maxAttempts(delays)).toBe(5);
  });

  it.each<[string, number[]]>([
    ['200ms,200ms,200ms,200ms', [200, 200, 200, 200]],
    ['1s,1s,1s,1s', [1000, 1000, 1000, 1000]],
    [' 1s , 2s,3m ,1h', [1000, 2000, 180_000, 3_600_000]],
    ['1.5s,0.25s', [1500, 250]],
    ['30s', [30_000]],
    ['0ms', [0]],
  ])('reads %j', (text, expected) => {
    expect(parseRetrySchedule(text)).toEqual(expected);
  });

  it.each(['', ' ', '1', '1m,', ',1m', '1m,,5m', '1d', '-1s', '1 m s', 'ms', '1m;5m', 'abc', '1e3ms', '5 minutes'])(
    'refuses %j with a message naming the bad delay',
    (text) => {
      expect(() => parseRetrySchedule(text)).toThrow(/invalid retry delay|at least one delay/);
    },
  );
});

describe('WEBHOOK_RETRY_SCHEDULE in the configuration', () => {
  it('defaults to the contract schedule and accepts a compressed one', () => {
    expect(loadConfig({}).webhooks.schedule).toEqual([60_000, 300_000, 1_800_000, 7_200_000]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,200ms,200ms' }).webhooks.schedule).toEqual([200, 200, 200, 200]);
  });

  it('refuses an invalid schedule at start-up, naming the variable', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1m,5x' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });
});
