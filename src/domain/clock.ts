/** The service's notion of "now"; injected so tests and the demo can pin dates. */
export interface Clock {
  now(): Date;
  /** Today's date in UTC, YYYY-MM-DD. */
  today(): string;
}

/** The UTC day of the system clock, re-made only when the time leaves the day it was made for. */
let day = { from: 0, until: 0, value: '' };

export const systemClock: Clock = {
  now: () => new Date(),
  today: () => {
    const now = Date.now();
    if (now < day.from || now >= day.until) {
      const from = now - (now % 86_400_000);
      day = { from, until: from + 86_400_000, value: new Date(from).toISOString().slice(0, 10) };
    }
    return day.value;
  },
};

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at), today: () => at.toISOString().slice(0, 10) };
}

/** Adds whole years to a YYYY-MM-DD date (Feb 29 clamps to Feb 28). */
export function addYears(date: string, years: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const target = new Date(Date.UTC(y + years, m - 1, 1));
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}
