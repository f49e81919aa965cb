import { BROADCAST_FIELDS, checkComplete, checkField, invalidField, type BroadcastField, type BroadcastInput, type BroadcastPatch } from '../domain/channels/broadcast.input';
import { DomainError } from '../domain/errors';
import { readIsoTime } from '../http/iso-time';

const isString = (v: unknown): v is string => typeof v === 'string';
const stringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** The JSON each field of a broadcast body must be; the time is read into a Date. */
const JSON_VALUE: Record<BroadcastField, (v: unknown) => boolean> = {
  title: isString,
  source: isString,
  sourceUrl: stringOrNull,
  scheduledAt: isString,
  visibility: isString,
  discipline: stringOrNull,
  language: isString,
  tags: (v) => Array.isArray(v) && v.every(isString),
};
const WIRE_NAMES = Object.values(BROADCAST_FIELDS);

/**
 * The JSON body of POST /broadcasts (`create`) and PATCH /broadcasts/{id} (`update`), snake_case,
 * read into the domain's typed input (docs/decisions.md#broadcast-create): a JSON object; no
 * unknown field (own properties only: `toString`, `constructor` or `__proto__` are unknown like
 * any other); each field of its JSON type, the time ISO 8601 with an offset on a real calendar
 * day; the required fields, or at least one for a change. Each refusal is a 422: invalid_body,
 * or invalid_<field>.
 *
 * Each field is also judged by the domain's value rule as soon as it is read, so that the first
 * bad field in the document's order answers whatever is wrong with it, and a bad body is refused
 * before the broadcast is looked up (a 422 before a 404), as the TV API always has. The service
 * judges the values again, for every door.
 */
export function readBroadcastBody(body: unknown, mode: 'create'): BroadcastInput;
export function readBroadcastBody(body: unknown, mode: 'update'): BroadcastPatch;
export function readBroadcastBody(body: unknown, mode: 'create' | 'update'): BroadcastPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('invalid_body', 'the body must be a JSON object');
  }
  const unknown = Object.keys(body).filter((k) => !WIRE_NAMES.includes(k));
  if (unknown.length) throw new DomainError('invalid_body', `unknown field(s): ${unknown.join(', ')}; accepted: ${WIRE_NAMES.join(', ')}`);
  const input: Record<string, unknown> = {};
  for (const [field, name] of Object.entries(BROADCAST_FIELDS) as [BroadcastField, string][]) {
    if (!Object.hasOwn(body, name)) continue;
    const value = (body as Record<string, unknown>)[name];
    if (!JSON_VALUE[field](value)) throw invalidField(field);
    input[field] = checkField(field, field === 'scheduledAt' ? readIsoTime(value) : value);
  }
  checkComplete(input, mode);
  return input as BroadcastPatch;
}
