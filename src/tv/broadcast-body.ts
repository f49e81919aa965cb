import { BROADCAST_FIELDS, checkBroadcastInput, type BroadcastField, type BroadcastInput, type BroadcastPatch } from '../domain/channels/broadcast.input';
import { DomainError } from '../domain/errors';
import { readIsoTime } from '../http/iso-time';

const WIRE_NAMES = Object.values(BROADCAST_FIELDS);

/**
 * The JSON body of POST /broadcasts (`create`) and PATCH /broadcasts/{id} (`update`), snake_case,
 * read into the domain's typed input (docs/decisions.md#broadcast-create): a JSON object; no
 * unknown field (own properties only: `toString`, `constructor` or `__proto__` are unknown like
 * any other); the time, when a string, read as ISO 8601 with an offset on a real calendar day.
 * Each refusal is a 422: invalid_body, or invalid_<field>.
 *
 * The values are judged here, once, by the domain's rules (checkBroadcastInput, which refuses a
 * value of the wrong JSON type like a bad one): the first bad field in the document's order
 * answers whatever is wrong with it, the required fields (or at least one for a change) come
 * next, and a bad body is refused before the broadcast is looked up (a 422 before a 404), as the
 * TV API always has. The service takes the judged input as it is.
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
    input[field] = field === 'scheduledAt' && typeof value === 'string' ? readIsoTime(value) : value;
  }
  return mode === 'create' ? checkBroadcastInput(input as unknown as BroadcastInput, 'create') : checkBroadcastInput(input as BroadcastPatch, 'update');
}
