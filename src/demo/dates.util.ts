// Calendar dates as 'YYYY-MM-DD' strings, computed in UTC so that no time zone can shift a day.
const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function toUtcMs(date: string): number {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw new Error(`not a calendar date: ${date}`);
  return Date.UTC(year, month - 1, day);
}

// Hand-formatted: toISOString is measurably slow in the generator's hot loops.
function formatUtcMs(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Throws unless the value is a real calendar date in YYYY-MM-DD form. */
export function assertIsoDate(date: string): void {
  toUtcMs(date);
}

/** Days since 1970-01-01: cheap to compare and subtract in hot loops. */
export function toEpochDay(date: string): number {
  return Math.round(toUtcMs(date) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return formatUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** Month arithmetic that clamps to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const d = new Date(toUtcMs(date));
  const monthIndex = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = daysInMonth(year, month + 1);
  return formatUtcMs(Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay)));
}

export function addYears(date: string, years: number): string {
  return addMonths(date, years * 12);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(toUtcMs(date)).getUTCDay();
}

/** Adult on `date` when the 18th birthday is on or before it (a 29 February birthday counts from 28 February). */
export function isAdultOn(dateOfBirth: string, date: string): boolean {
  return addYears(dateOfBirth, 18) <= date;
}
