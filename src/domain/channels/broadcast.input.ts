import { z } from 'zod';
import { DomainError } from '../errors';
import { DISCIPLINES } from '../reference/vocabulary';
import {
  BROADCAST_LANGUAGE_PATTERN, BROADCAST_TAG_PATTERN, BROADCAST_TAGS_MAX, BROADCAST_TITLE_MAX, SOURCES, VISIBILITIES, type Source,
} from './broadcast.entities';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Date.parse rolls impossible dates over (2030-02-30 becomes March 2): the calendar date and the time must exist as written. */
function isRealTime(s: string): boolean {
  const [y, m, d, h, min] = [s.slice(0, 4), s.slice(5, 7), s.slice(8, 10), s.slice(11, 13), s.slice(14, 16)].map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d && h < 24 && min < 60 && !Number.isNaN(Date.parse(s));
}

// PostgreSQL text cannot hold NUL (the insert would fail with a 500), and no title or URL needs a control character.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** One schema per field so that each failure names its field: 422 invalid_<field> (docs/decisions.md#broadcast-create). */
const FIELDS = {
  title: z.string().trim().min(1).max(BROADCAST_TITLE_MAX).refine((s) => !CONTROL_CHARS.test(s)),
  source: z.enum(SOURCES),
  source_url: z.string().max(2000).refine((s) => !CONTROL_CHARS.test(s)).nullable(),
  scheduled_at: z.string().regex(ISO_WITH_OFFSET).refine(isRealTime).transform((s) => new Date(s)),
  visibility: z.enum(VISIBILITIES),
  discipline: z.enum(DISCIPLINES).nullable(),
  language: z.string().regex(new RegExp(BROADCAST_LANGUAGE_PATTERN)),
  tags: z.array(z.string().regex(new RegExp(BROADCAST_TAG_PATTERN))).max(BROADCAST_TAGS_MAX).transform((t) => [...new Set(t)]),
};

const HELP: Record<keyof typeof FIELDS, string> = {
  title: `a string of 1 to ${BROADCAST_TITLE_MAX} characters, without control characters`,
  source: `one of ${SOURCES.join(', ')}`,
  source_url: 'an https URL matching the source (a YouTube or Vimeo page, an .m3u8 or an .mp4), or absent for ingest',
  scheduled_at: 'an ISO 8601 time with an offset, e.g. 2026-06-15T20:00:00+02:00',
  visibility: `one of ${VISIBILITIES.join(', ')}`,
  discipline: `one of ${DISCIPLINES.join(', ')}, or null`,
  language: 'an ISO 639-1 code of two lowercase letters, e.g. en',
  tags: `up to ${BROADCAST_TAGS_MAX} tags, each 1 to 32 characters of a-z, 0-9 and -`,
};

export interface BroadcastFields {
  title: string;
  source: Source;
  source_url: string | null;
  scheduled_at: Date;
  visibility: (typeof VISIBILITIES)[number];
  discipline: (typeof DISCIPLINES)[number] | null;
  language: string;
  tags: string[];
}

/** Parses the known fields of a body; unknown fields are refused (requests are strict). */
export function parseBroadcastFields(body: unknown, mode: 'create' | 'update'): Partial<BroadcastFields> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('invalid_body', 'the body must be a JSON object');
  }
  // own properties only: `toString`, `constructor` or `__proto__` are unknown fields like any other
  const unknown = Object.keys(body).filter((k) => !Object.hasOwn(FIELDS, k));
  if (unknown.length) throw new DomainError('invalid_body', `unknown field(s): ${unknown.join(', ')}; accepted: ${Object.keys(FIELDS).join(', ')}`);
  if (mode === 'update' && Object.keys(body).length === 0) throw new DomainError('invalid_body', 'give at least one field to change');
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(FIELDS) as [keyof typeof FIELDS, z.ZodType][]) {
    if (!Object.hasOwn(body, name)) continue;
    const result = schema.safeParse((body as Record<string, unknown>)[name]);
    if (!result.success) throw new DomainError(`invalid_${name}`, `"${name}" must be ${HELP[name]}`);
    out[name] = result.data;
  }
  if (mode === 'create') {
    for (const name of ['title', 'source', 'scheduled_at'] as const) {
      if (out[name] === undefined) throw new DomainError(`invalid_${name}`, `"${name}" is required: ${HELP[name]}`);
    }
  }
  return out as Partial<BroadcastFields>;
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
    throw new DomainError('invalid_source_url', `"source_url" must be ${HELP.source_url}`);
  }
  if (parsed.protocol !== 'https:' || !SOURCE_URL[source].test(url)) {
    throw new DomainError('invalid_source_url', `"source_url" must be ${HELP.source_url}; for ${source}: ${source === 'hls' ? 'an https .m3u8 URL' : source === 'mp4' ? 'an https .mp4 URL' : `an https ${source} page`}`);
  }
}
