import { DomainError } from './errors';

/**
 * The dates the service accepts anywhere (query parameters, GraphQL arguments, operator commands,
 * domain inputs): years 0001 to 9999. PostgreSQL stores dates from 4713 BC, but ISO 8601 without
 * an expanded year (what every door speaks) has four digits, and year 0000 (1 BC) is refused by
 * PostgreSQL's input: outside this range a date could only reach the database as an error.
 * docs/decisions.md#date-range.
 */
export const MIN_DATE = '0001-01-01';
export const MAX_DATE = '9999-12-31';
const MIN_MS = Date.parse(`${MIN_DATE}T00:00:00.000Z`);
const MAX_MS = Date.parse(`${MAX_DATE}T23:59:59.999Z`);

export const DATE_RANGE_TEXT = `from ${MIN_DATE} to ${MAX_DATE}`;

/** A calendar date `YYYY-MM-DD` that exists and lies in the range. */
export function isStorableDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < MIN_DATE || value > MAX_DATE) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === value;
}

/** An instant in the range (its UTC date from 0001-01-01 to 9999-12-31). */
export function isStorableInstant(value: Date): boolean {
  const t = value.getTime();
  return !Number.isNaN(t) && t >= MIN_MS && t <= MAX_MS;
}

/** The domain's refusal of a date out of range, with the input's name (`invalid_<field>`). */
export function dateOutOfRange(field: string, what = 'a date'): DomainError {
  return new DomainError(`invalid_${field}`, `${field} must be ${what} ${DATE_RANGE_TEXT}`);
}

/** `value` unchanged when storable, else the domain's refusal. */
export function storableInstant(field: string, value: Date): Date {
  if (!isStorableInstant(value)) throw dateOutOfRange(field, 'a time');
  return value;
}
