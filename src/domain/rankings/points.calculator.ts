// Points of a single verified result (docs/decisions.md#points). Pure: no clock, no I/O, so a ranking
// run for a given as_of date is reproducible.

export type Outcome = 'W' | 'L' | 'D' | 'NC';
export type EventLevel = 'national' | 'international' | 'continental' | 'worldcup' | 'world';

export interface ResultPoints {
  base: number;
  multiplier: number;
  time_value: number;
  total: number;
}

const BASE_POINTS: Readonly<Record<Outcome, number>> = { W: 10, D: 5, L: 2, NC: 0 };
const KNOCKOUT_WIN_POINTS = 12;

const LEVEL_MULTIPLIERS: Readonly<Record<EventLevel, number>> = {
  national: 1.0,
  international: 1.5,
  continental: 2.0,
  worldcup: 2.5,
  world: 3.0,
};

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Rows come from the database as plain strings, so the unions are checked at run time too:
// a typo must fail the run rather than quietly score 0 or NaN.
export function levelMultiplier(level: EventLevel | null): number {
  if (level === null) return 1.0;
  if (!Object.hasOwn(LEVEL_MULTIPLIERS, level)) throw new RangeError(`unknown event level: ${String(level)}`);
  return LEVEL_MULTIPLIERS[level];
}

export function isKnockout(method: string | null): boolean {
  if (method === null) return false;
  const normalised = method.trim().toUpperCase();
  return normalised === 'KO' || normalised === 'TKO';
}

export function basePoints(outcome: Outcome, method: string | null): number {
  if (!Object.hasOwn(BASE_POINTS, outcome)) throw new RangeError(`unknown outcome: ${String(outcome)}`);
  if (outcome === 'W' && isKnockout(method)) return KNOCKOUT_WIN_POINTS;
  return BASE_POINTS[outcome];
}

interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number;
}

function digits(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

// Hand-rolled rather than a regex: it runs twice per result in every ranking run.
function parseDate(value: string): CalendarDate {
  if (value.length === 10 && value[4] === '-' && value[7] === '-') {
    const year = digits(value, 0, 4);
    const month = digits(value, 5, 7);
    const day = digits(value, 8, 10);
    // Rejects 2023-02-29, 2024-13-01 and the like rather than letting them roll over.
    if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) return { year, month, day };
  }
  throw new RangeError(`invalid date, expected YYYY-MM-DD: ${value}`);
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1]!;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 29 : 28;
}

// Clamps to the end of the month so that 2024-02-29 + 12 months is 2025-02-28, not March 1st.
function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

function ordinal(date: CalendarDate): number {
  return date.year * 10_000 + date.month * 100 + date.day;
}

// Ages are counted in calendar months, not days, so that "12 months" does not drift with leap years.
// Plain calendar arithmetic, no Date objects: the answer cannot depend on the process time zone,
// and a run over thousands of results stays cheap.
export function timeValue(eventDate: string, asOf: string): number {
  const event = parseDate(eventDate);
  const reference = ordinal(parseDate(asOf));
  if (ordinal(addMonths(event, 12)) > reference) return 1.0;
  if (ordinal(addMonths(event, 24)) > reference) return 0.5;
  return 0;
}

// Half away from zero on the decimal value the caller meant: going through 15 significant digits
// drops binary noise first (1.005 is stored as 1.00499999..., 0.1 + 0.2 as 0.30000000000000004),
// which adding Number.EPSILON alone cannot do once values exceed a few units.
export function roundPoints(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`points must be finite: ${value}`);
  const sign = value < 0 ? -1 : 1;
  // Fast path: docs/decisions.md#points's tables only produce multiples of 0.25, which scale to exact integers.
  const scaled = Math.abs(value) * 100;
  if (Number.isInteger(scaled)) return (sign * scaled) / 100 || 0;
  const [mantissa, exponent] = Math.abs(value).toExponential(14).split('e');
  const hundredths = Math.round(Number(`${mantissa}e${Number(exponent) + 2}`));
  return (sign * hundredths) / 100 || 0;
}

export function resultPoints(outcome: Outcome, method: string | null, level: EventLevel | null, eventDate: string, asOf: string): ResultPoints {
  const base = basePoints(outcome, method);
  const multiplier = levelMultiplier(level);
  const time_value = timeValue(eventDate, asOf);
  return { base, multiplier, time_value, total: roundPoints(base * multiplier * time_value) };
}
