import { DomainError } from '../errors';
import type { Source } from './broadcast.entities';
import {
  BROADCAST_DECLARATIONS,
  BROADCAST_FIELD_ORDER as FIELD_ORDER,
  BROADCAST_FIELDS,
  REQUIRED_BROADCAST_FIELDS as REQUIRED,
  type BroadcastField,
  type BroadcastInput,
  type BroadcastPatch,
  type FieldDeclaration,
} from './broadcast.fields';

export { BROADCAST_FIELDS, type BroadcastField, type BroadcastInput, type BroadcastPatch };

/**
 * Judging a broadcast's input by the fields' declarations (broadcast.fields.ts: a rule per field,
 * in order), with the codes and messages every door shares: `invalid_source_url`,
 * `"scheduled_at" must be ...`, in the TV API's names.
 */
const HELP = Object.fromEntries(FIELD_ORDER.map((f) => [f, BROADCAST_DECLARATIONS[f].help])) as Record<BroadcastField, string>;

/** 422 invalid_<field>: the value is bad, or (`missing`) a required field was not given. */
function invalidField(field: BroadcastField, missing = false): DomainError {
  const name = BROADCAST_FIELDS[field];
  return new DomainError(`invalid_${name}`, missing ? `"${name}" is required: ${HELP[field]}` : `"${name}" must be ${HELP[field]}`);
}

/** One field's value, judged (and normalised: a trimmed title, tags without duplicates). */
function checkField(field: BroadcastField, value: unknown): unknown {
  // one field's declaration, seen through its value type (the record's entries differ in it)
  const { rule, normalise } = BROADCAST_DECLARATIONS[field] as unknown as FieldDeclaration<'title'>;
  const result = rule.safeParse(value);
  if (!result.success) throw invalidField(field);
  return normalise ? normalise(result.data) : result.data;
}

/** Whether the fields given are enough: a creation needs its required fields, a change at least one field. */
function checkComplete(input: BroadcastPatch, mode: 'create' | 'update'): void {
  if (mode === 'update') {
    if (FIELD_ORDER.every((f) => input[f] === undefined)) throw new DomainError('invalid_body', 'give at least one field to change');
    return;
  }
  const missing = REQUIRED.find((f) => input[f] === undefined);
  if (missing) throw invalidField(missing, true);
}

/** Inputs this module has judged, with the mode they were judged for: never judged twice. */
const judged = new WeakMap<object, 'create' | 'update'>();

/**
 * Judges every given field in order, then completeness: the input as the service uses it. Each
 * input is judged once: a door that must refuse a bad body before anything is looked up (the TV
 * API: a 422 before a 404) judges it as it reads it, and the service takes that judged input as
 * it is; a door that hands its input over unjudged (the studio: who may act comes first) has it
 * judged by the service. A value of the wrong kind (a number for a title, an unreadable time as
 * an invalid Date, a GraphQL null) is refused like a bad one, so a door needs no type checks of
 * its own.
 */
export function checkBroadcastInput(input: BroadcastInput, mode: 'create'): BroadcastInput;
export function checkBroadcastInput(input: BroadcastPatch, mode: 'update'): BroadcastPatch;
export function checkBroadcastInput(input: BroadcastPatch, mode: 'create' | 'update'): BroadcastPatch {
  if (judged.get(input) === mode) return input;
  const out: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) if (input[field] !== undefined) out[field] = checkField(field, input[field]);
  checkComplete(out, mode);
  judged.set(out, mode);
  return out as BroadcastPatch;
}

const SOURCE_URL: Record<Exclude<Source, 'ingest'>, RegExp> = {
  youtube: /^https:\/\/(www\.)?(youtube\.com\/(watch\?v=|live\/|embed\/)[\w-]{6,}|youtu\.be\/[\w-]{6,})/,
  vimeo: /^https:\/\/(www\.|player\.)?vimeo\.com\/(video\/)?\d+/,
  hls: /^https:\/\/[^\s?#]+\.m3u8(\?[^\s#]*)?$/,
  mp4: /^https:\/\/[^\s?#]+\.mp4(\?[^\s#]*)?$/,
};

/** A source URL must fit its source: required unless ingest, and forbidden then (docs/decisions.md#broadcast-create). */
export function checkSourceUrl(source: Source, url: string | null): void {
  if (source === 'ingest') {
    if (url) throw new DomainError('invalid_source_url', 'an ingest broadcast has no source_url: it receives a stream key instead');
    return;
  }
  if (!url) throw new DomainError('invalid_source_url', `source_url is required for source ${source}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidField('sourceUrl');
  }
  if (parsed.protocol !== 'https:' || !SOURCE_URL[source].test(url)) {
    throw new DomainError(
      'invalid_source_url',
      `"source_url" must be ${HELP.sourceUrl}; for ${source}: ${source === 'hls' ? 'an https .m3u8 URL' : source === 'mp4' ? 'an https .mp4 URL' : `an https ${source} page`}`,
    );
  }
}
