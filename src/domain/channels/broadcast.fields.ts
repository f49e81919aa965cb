import { z } from 'zod';
import { DATE_RANGE_TEXT, isStorableInstant } from '../date-range';
import { DISCIPLINES, type Discipline } from '../reference/vocabulary';
import { hasControlCharacters } from '../text';
import {
  BROADCAST_LANGUAGE_PATTERN,
  BROADCAST_TAG_PATTERN,
  BROADCAST_TAGS_MAX,
  BROADCAST_TITLE_MAX,
  SOURCES,
  VISIBILITIES,
  type BroadcastState,
  type Source,
  type Visibility,
} from './broadcast.entities';

/**
 * A broadcast's fields as every door hands them to the domain (docs/decisions.md#broadcast-create):
 * camelCase, a Date for the time. The doors read their wire formats into it (the TV API's JSON
 * body, the studio's GraphQL input) and describe it from the declarations below.
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
type Value<F extends BroadcastField> = Exclude<BroadcastInput[F], undefined>;

/**
 * How a door writes, in its prose, a value of one of the domain's lists (the TV API `ingest`, the
 * studio's GraphQL `INGEST`). Descriptions are written once, here, in words a door supplies.
 */
export type Words = (value: string) => string;

/** Values as code, the OpenAPI documents' way: `ingest`. */
export const codeWords: Words = (value) => `\`${value}\``;

/** One field, declared once: every door's reading, judging and describing of it comes from here. */
export interface FieldDeclaration<F extends BroadcastField> {
  /** The name on the TV API's wire and in the field's error code (`invalid_<name>`), which the studio shares. */
  name: string;
  /**
   * The value rule. It judges whatever it is given, so a value of the wrong kind (a GraphQL null
   * for a title, an unreadable time as an invalid Date) is refused like a bad one. It has no
   * transform, so it is also the field's JSON Schema when `json` is not given.
   */
  rule: z.ZodType<Value<F>>;
  /** The value as a JSON body carries it, where that differs from the rule's (a time as text). */
  json?: z.ZodType;
  /** A normalisation after the rule (tags without duplicates). */
  normalise?: (value: Value<F>) => Value<F>;
  /** What a good value is: the end of `"<name>" must be …` and `"<name>" is required: …`. */
  help: string;
  /** What the field is, for the documents, with the values in the door's words. */
  describe: (w: Words) => string;
  example: Value<F> | string;
  /** The value a creation takes when the field is omitted. */
  default?: Value<F>;
}

type Declarations = { [F in BroadcastField]-?: FieldDeclaration<F> };

/** The values a creation takes for the optional fields it omits (the others are null or empty). */
export const BROADCAST_DEFAULTS = { visibility: 'public', language: 'en' } as const satisfies Partial<BroadcastInput>;

// PostgreSQL text cannot hold NUL (the insert would fail with a 500), and no title or URL needs a
// control character: the domain's one rule (text.ts), C1 and line separators included.
const noControl = (s: string) => !hasControlCharacters(s);

const VISIBILITY_NOTES: Partial<Record<Visibility, string>> = { unlisted: 'never listed, reachable by slug' };
const SOURCE_NOTES: Record<Source, string> = {
  youtube: 'a YouTube page',
  vimeo: 'a Vimeo page',
  hls: 'an `.m3u8` playlist',
  mp4: 'an `.mp4` file',
  ingest: "the channel streams to the service's ingest server",
};

/** The sources, each with what it is: `youtube` (a YouTube page), … or `ingest` (…). */
export function sourceRules(w: Words): string {
  const each = SOURCES.map((s) => `${w(s)} (${SOURCE_NOTES[s]})`);
  return `${each.slice(0, -1).join(', ')} or ${each[each.length - 1]}.`;
}

/**
 * The fields in the order they are judged (the first bad one answers). Every rule, text and
 * example of a broadcast's input lives here; the TV API's body document
 * (tv/schemas/request.schemas.ts) and the studio's GraphQL input (graphql/graphql.types.ts) are
 * derived from it.
 */
export const BROADCAST_DECLARATIONS: Declarations = {
  title: {
    name: 'title',
    rule: z.string().trim().min(1).max(BROADCAST_TITLE_MAX).refine(noControl),
    help: `a string of 1 to ${BROADCAST_TITLE_MAX} characters, without control characters`,
    describe: () => `Title, 1 to ${BROADCAST_TITLE_MAX} characters.`,
    example: 'Berlin Open: finals',
  },
  source: {
    name: 'source',
    rule: z.enum(SOURCES),
    help: `one of ${SOURCES.join(', ')}`,
    describe: (w) => `Where the video comes from: ${sourceRules(w)}`,
    example: 'youtube',
  },
  sourceUrl: {
    name: 'source_url',
    rule: z.string().max(2000).refine(noControl).nullable(),
    // the pattern as the document has always written it (zod would escape the slashes)
    json: z
      .string()
      .regex(/^https:\/\//)
      .meta({ format: 'uri', pattern: '^https://' }),
    help: 'an https URL matching the source (a YouTube or Vimeo page, an .m3u8 or an .mp4), or absent for ingest',
    describe: (w) =>
      `An https URL matching the source: a YouTube or Vimeo page, an \`.m3u8\` playlist for ${w('hls')}, an \`.mp4\` ` +
      `file for ${w('mp4')}. Required unless the source is ${w('ingest')}; forbidden for ${w('ingest')}.`,
    example: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  },
  scheduledAt: {
    name: 'scheduled_at',
    rule: z.date().refine(isStorableInstant),
    json: z.iso.datetime({ offset: true }),
    help: `an ISO 8601 time with an offset, e.g. 2026-06-15T20:00:00+02:00, ${DATE_RANGE_TEXT}`,
    describe: () => 'Start time, ISO 8601 with an offset (`Z` or `±hh:mm`).',
    example: '2026-11-20T19:00:00+01:00',
  },
  visibility: {
    name: 'visibility',
    rule: z.enum(VISIBILITIES),
    help: `one of ${VISIBILITIES.join(', ')}`,
    describe: (w) =>
      `${VISIBILITIES.map((v) => {
        const note = v === BROADCAST_DEFAULTS.visibility ? 'default' : VISIBILITY_NOTES[v];
        return note ? `${w(v)} (${note})` : w(v);
      }).join(', ')}.`,
    example: 'public',
    default: BROADCAST_DEFAULTS.visibility,
  },
  discipline: {
    name: 'discipline',
    rule: z.enum(DISCIPLINES).nullable(),
    help: `one of ${DISCIPLINES.join(', ')}, or null`,
    describe: () => 'Discipline, or null.',
    example: 'kickboxing',
  },
  language: {
    name: 'language',
    rule: z.string().regex(new RegExp(BROADCAST_LANGUAGE_PATTERN)),
    help: 'an ISO 639-1 code of two lowercase letters, e.g. en',
    describe: () => `ISO 639-1 code, two lower-case letters; default \`${BROADCAST_DEFAULTS.language}\`.`,
    example: 'de',
    default: BROADCAST_DEFAULTS.language,
  },
  tags: {
    name: 'tags',
    rule: z.array(z.string().regex(new RegExp(BROADCAST_TAG_PATTERN))).max(BROADCAST_TAGS_MAX),
    normalise: (tags) => [...new Set(tags)],
    help: `up to ${BROADCAST_TAGS_MAX} tags, each 1 to 32 characters of a-z, 0-9 and -`,
    describe: () => `Up to ${BROADCAST_TAGS_MAX} tags, each \`${BROADCAST_TAG_PATTERN}\`.`,
    example: ['finals', 'berlin'],
  },
};

export const BROADCAST_FIELD_ORDER = Object.keys(BROADCAST_DECLARATIONS) as BroadcastField[];

/** Each field's wire name (`sourceUrl` is `source_url`): the TV API's names, and its error codes'. */
export const BROADCAST_FIELDS = Object.fromEntries(BROADCAST_FIELD_ORDER.map((f) => [f, BROADCAST_DECLARATIONS[f].name])) as Readonly<
  Record<BroadcastField, string>
>;

/** What a creation must give. */
export const REQUIRED_BROADCAST_FIELDS: readonly BroadcastField[] = ['title', 'source', 'scheduledAt'];

/** Which fields a change may touch in each state (docs/decisions.md#broadcast-edit). */
export const EDITABLE_BROADCAST_FIELDS: Record<BroadcastState, readonly BroadcastField[]> = {
  scheduled: BROADCAST_FIELD_ORDER,
  live: ['title', 'visibility', 'discipline', 'language', 'tags'],
  ended: ['title', 'visibility', 'discipline', 'language', 'tags'],
  replay: ['title', 'visibility', 'discipline', 'language', 'tags'],
};
