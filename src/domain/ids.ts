const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in URLs and commands are uuids; anything else is refused before it reaches SQL (which would fail). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
