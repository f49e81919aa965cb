import { z } from 'zod';
import { DomainError } from '../errors';
import { DISCIPLINES, type Discipline } from '../reference/vocabulary';
import { hasControlCharacters } from '../text';
import {
  BROADCAST_LANGUAGE_PATTERN,
  BROADCAST_TAG_PATTERN,
  BROADCAST_TAGS_MAX,
  BROADCAST_TITLE_MAX,
  SOURCES,
  VISIBILITIES,
  type Source,
  type Visibility,
} from './broadcast.entities';
import { DATE_RANGE_TEXT, isStorableInstant } from '../date-range';

/**
 * A broadcast's fields as every door hands them to the domain (docs/decisions.md#broadcast-create):
 * camelCase, a Date for the time. The doors read their wire formats into it (the TV API's JSON
 * body, the studio's GraphQL input); the rules on the values are here, once.
 */
export interface BroadcastInput {
  title: string;
  source: Source;
  /** Required unless the source is `ingest`, and refused then. */
  sourceUrl?: string | null;
  scheduledAt: Date;
  visibility?: Visibility;
  discipline?: Discipline | null;
  language?: string;
  tags?: string[];
}

/** A change: any of the fields (undefined is "not given"), at least one. */
export type BroadcastPatch = Partial<BroadcastInput>;
export type BroadcastField = keyof BroadcastInput;

/**
 * The fields in the order they are judged (the first bad one answers), each with the name its
 * error code and message use: `invalid_source_url`, `"scheduled_at" must be ...`. These are the
 * TV API's names; the studio reports the same codes.
 */
export const BROADCAST_FIELDS: Readonly<Record<BroadcastField, string>> = {
  title: 'title',
  source: 'source',
  sourceUrl: 'source_url',
  scheduledAt: 'scheduled_at',
  visibility: 'visibility',
  discipline: 'discipline',
  language: 'language',
  tags: 'tags',
};
const FIELD_ORDER = Object.keys(BROADCAST_FIELDS) as BroadcastField[];
const REQUIRED: readonly BroadcastField[] = ['title', 'source', 'scheduledAt'];

// PostgreSQL text cannot hold NUL (the insert would fail with a 500), and no title or URL needs a
// control character: the domain's one rule (text.ts), C1 and line separators included.
const noControl = (s: string) => !hasControlCharacters(s);

/**
 * The value rules, one per field. They judge whatever they are given, so a value of the wrong
 * kind (a GraphQL null for a title, an unreadable time as an invalid Date) is refused like a bad one.
 */
const RULES: { [F in BroadcastField]-?: z.ZodType<Exclude<BroadcastInput[F], undefined>> } = {
  title: z.string().trim().min(1).max(BROADCAST_TITLE_MAX).refine(noControl),
  source: z.enum(SOURCES),
  sourceUrl: z.string().max(2000).refine(noControl).nullable(),
  scheduledAt: z.date().refine(isStorableInstant),
  visibility: z.enum(VISIBILITIES),
  discipline: z.enum(DISCIPLINES).nullable(),
  language: z.string().regex(new RegExp(BROADCAST_LANGUAGE_PATTERN)),
  tags: z
    .array(z.string().regex(new RegExp(BROADCAST_TAG_PATTERN)))
    .max(BROADCAST_TAGS_MAX)
    .transform((t) => [...new Set(t)]),
};

const HELP: Record<BroadcastField, string> = {
  title: `a string of 1 to ${BROADCAST_TITLE_MAX} characters, without control characters`,
  source: `one of ${SOURCES.join(', ')}`,
  sourceUrl: 'an https URL matching the source (a YouTube or Vimeo page, an .m3u8 or an .mp4), or absent for ingest',
  scheduledAt: `an ISO 8601 time with an offset, e.g. 2026-06-15T20:00:00+02:00, ${DATE_RANGE_TEXT}`,
  visibility: `one of ${VISIBILITIES.join(', ')}`,
  discipline: `one of ${DISCIPLINES.join(', ')}, or null`,
  language: 'an ISO 639-1 code of two lowercase letters, e.g. en',
  tags: `up to ${BROADCAST_TAGS_MAX} tags, each 1 to 32 characters of a-z, 0-9 and -`,
};

/** 422 invalid_<field>: the value is bad, or (`missing`) a required field was not given. */
function invalidField(field: BroadcastField, missing = false): DomainError {
  const name = BROADCAST_FIELDS[field];
  return new DomainError(`invalid_${name}`, missing ? `"${name}" is required: ${HELP[field]}` : `"${name}" must be ${HELP[field]}`);
}

/** One field's value, judged (and normalised: a trimmed title, tags without duplicates). */
function checkField<F extends BroadcastField>(field: F, value: unknown): Exclude<BroadcastInput[F], undefined> {
  const result = RULES[field].safeParse(value);
  if (!result.success) throw invalidField(field);
  return result.data as Exclude<BroadcastInput[F], undefined>;
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
