const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Date.parse rolls impossible dates over (2030-02-30 becomes March 2): the calendar date and the time must exist as written. */
function isRealTime(s: string): boolean {
  const [y, m, d, h, min] = [s.slice(0, 4), s.slice(5, 7), s.slice(8, 10), s.slice(11, 13), s.slice(14, 16)].map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d && h < 24 && min < 60 && !Number.isNaN(Date.parse(s));
}

/**
 * A time as the doors accept it on the wire: ISO 8601 with an offset (`Z` or `±hh:mm`), naming a
 * real calendar date and time. Anything else (another format, no offset, 2030-02-30, not a
 * string) is an invalid Date, which the domain refuses in its turn, as it does any bad value.
 */
export function readIsoTime(value: unknown): Date {
  return typeof value === 'string' && ISO_WITH_OFFSET.test(value) && isRealTime(value) ? new Date(value) : new Date(Number.NaN);
}
