/**
 * The TV API's request bodies as the document describes them (zod). The body is read by
 * ../broadcast-body.ts and its values judged by the domain's rules
 * (src/domain/channels/broadcast.input.ts, one per field, for the `invalid_<field>` codes); these
 * add what the document says of each field and the rules between fields.
 */
import { z } from 'zod';
import {
  BROADCAST_LANGUAGE_PATTERN,
  BROADCAST_TAG_PATTERN,
  BROADCAST_TAGS_MAX,
  BROADCAST_TITLE_MAX,
  SOURCES,
  VISIBILITIES,
} from '../../domain/channels/broadcast.entities';
import { EXTERNAL_SOURCES, SOURCE_RULES } from '../../domain/channels/broadcast.schemas';
import { DISCIPLINES } from '../../domain/reference/vocabulary';

const title = () =>
  z
    .string()
    .min(1)
    .max(BROADCAST_TITLE_MAX)
    .meta({ description: `Title, 1 to ${BROADCAST_TITLE_MAX} characters.` });
const source = () => z.enum(SOURCES).meta({ description: `Where the video comes from: ${SOURCE_RULES}` });
const sourceUrl = () =>
  z
    .string()
    .regex(/^https:\/\//)
    .meta({
      description:
        'An https URL matching the source: a YouTube or Vimeo page, an `.m3u8` playlist for `hls`, an `.mp4` ' +
        'file for `mp4`. Required unless the source is `ingest`; forbidden for `ingest`.',
      format: 'uri',
      // the pattern as the document has always written it (zod would escape the slashes)
      pattern: '^https://',
      example: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    });
const scheduledAt = () =>
  z.iso.datetime({ offset: true }).meta({ description: 'Start time, ISO 8601 with an offset (`Z` or `±hh:mm`).', example: '2026-11-20T19:00:00Z' });
const VISIBILITY_TEXT = '`public` (default), `unlisted` (never listed, reachable by slug), `followers`, `ppv`.';
const LANGUAGE_TEXT = 'ISO 639-1 code, two lower-case letters; default `en`.';
const discipline = () => z.enum(DISCIPLINES).nullable().meta({ description: 'Discipline, or null.' });
const tags = () =>
  z
    .array(z.string().regex(new RegExp(BROADCAST_TAG_PATTERN)))
    .max(BROADCAST_TAGS_MAX)
    .meta({ description: 'Up to 10 tags, each `^[a-z0-9-]{1,32}$`.' });
const language = () => z.string().regex(new RegExp(BROADCAST_LANGUAGE_PATTERN));

export const BroadcastCreate = z
  .strictObject({
    title: title(),
    source: source(),
    source_url: sourceUrl().optional(),
    scheduled_at: scheduledAt(),
    visibility: z.enum(VISIBILITIES).meta({ description: VISIBILITY_TEXT, default: 'public' }).optional(),
    discipline: discipline().optional(),
    language: language().meta({ description: LANGUAGE_TEXT, default: 'en' }).optional(),
    tags: tags().optional(),
  })
  .meta({
    description:
      'A new broadcast. `title`, `source` and `scheduled_at` are required; `source_url` is required unless ' +
      'the source is `ingest`, and forbidden then. A bad field is a 422 `invalid_<field>`; an unknown field ' +
      'or a body that is not a JSON object is a 422 `invalid_body`.',
    oneOf: [
      {
        type: 'object',
        description: 'An ingest broadcast: no `source_url`.',
        properties: { source: { type: 'string', enum: ['ingest'] }, source_url: { not: {}, description: 'Absent.' } },
        required: ['source'],
      },
      {
        type: 'object',
        description: 'An external broadcast: `source_url` is required.',
        properties: { source: { type: 'string', enum: EXTERNAL_SOURCES } },
        required: ['source', 'source_url'],
      },
    ],
    example: {
      title: 'Berlin Open: finals',
      source: 'youtube',
      source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      scheduled_at: '2026-11-20T19:00:00+01:00',
      visibility: 'public',
      discipline: 'kickboxing',
      language: 'de',
      tags: ['finals', 'berlin'],
    },
  });

export const BroadcastUpdate = z
  .strictObject({
    title: title().optional(),
    source: source().optional(),
    source_url: sourceUrl().optional(),
    scheduled_at: scheduledAt().optional(),
    visibility: z.enum(VISIBILITIES).meta({ description: VISIBILITY_TEXT }).optional(),
    discipline: discipline().optional(),
    language: language().meta({ description: LANGUAGE_TEXT }).optional(),
    tags: tags().optional(),
  })
  .meta({
    description:
      'Changes to a broadcast: any of the creation fields, at least one. Which fields may change depends on ' +
      'the state (see `PATCH /broadcasts/{broadcast}`); a forbidden change is a 409 `invalid_state`. ' +
      'Switching `source` to `ingest` drops `source_url` (send none); switching away from `ingest` needs a ' +
      '`source_url`.',
    minProperties: 1,
    example: { title: 'Berlin Open: finals (main card)', tags: ['finals'] },
  });

/** One `invalid_<field>` per field of a broadcast body, in field order, then `invalid_body`. */
export const INVALID_BROADCAST_FIELDS = [...Object.keys(BroadcastUpdate.shape).map((field) => `invalid_${field}`), 'invalid_body'];
