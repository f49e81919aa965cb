const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export const DEFAULT_RETRY_SCHEDULE = '1m,5m,30m,2h';

/** "1m,5m,30m,2h" -> the delays before attempts 2..5, in ms. */
export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!m) throw new Error(`invalid retry delay "${part.trim()}": use durations such as 30s, 5m, 2h or 250ms`);
    return Math.round(Number(m[1]) * UNITS[m[2]]);
  });
  if (delays.length === 0) throw new Error('the retry schedule needs at least one delay');
  return delays;
}

/** The number of attempts in all: the first one plus one per delay (five by default). */
export function maxAttempts(schedule: readonly number[]): number {
  return schedule.length + 1;
}
