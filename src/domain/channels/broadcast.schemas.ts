/**
 * The shapes of a broadcast as the doors show it (broadcast.view.ts) and of its health
 * (broadcast-health.ts), as zod schemas: the views are typed by them and the TV OpenAPI document is
 * generated from them (docs/adr/0008-layering.md, "Schemas are the source"). Types only at run
 * time. Rules between fields (an ingest broadcast has `ingest` and no `source_url`; a locked one
 * hides its URLs) are `oneOf`s of constraint-only branches, written as JSON Schema in the metadata.
 */
import { z } from 'zod';
import { BROADCAST_STATES, SOURCES, VISIBILITIES } from './broadcast.entities';
import { BROADCAST_DECLARATIONS, type BroadcastField, codeWords } from './broadcast.fields';

export const EXTERNAL_SOURCES = SOURCES.filter((s) => s !== 'ingest');
/** Visibilities shown with `locked: true` (and `source_url`, `replay_url` null) on public endpoints. */
export const LOCKED_VISIBILITIES = ['followers', 'ppv'] as const;
export const UNLOCKED_VISIBILITIES = VISIBILITIES.filter((v) => !(LOCKED_VISIBILITIES as readonly string[]).includes(v));
export const HEALTH_SIGNALS = ['receiving', 'no_signal', 'external'] as const;

/**
 * A field of the broadcast's input as an answer shows it: its rule from the declaration
 * (broadcast.fields.ts), with the declaration's text and example unless the answer says it otherwise.
 */
function field<F extends BroadcastField>(name: F, meta: { description?: string; example?: unknown } = {}) {
  const { rule, describe, example } = BROADCAST_DECLARATIONS[name];
  return rule.meta({ description: describe(codeWords), example, ...meta });
}

export const dateTime = (description: string) => z.iso.datetime({ offset: true }).meta({ description, example: '2026-11-20T19:00:00Z' });
export const uuid = (description: string) => z.uuid().meta({ description, example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b' });
const nullOnly = { type: 'string', nullable: true, enum: [null] };
const absent = { not: {}, description: 'Absent.' };

export const ChannelRef = z
  .strictObject({
    slug: z.string().meta({ description: 'Channel slug, used in `/channels/{slug}`.', example: 'fight-night-tv' }),
    name: z.string().meta({ description: 'Channel name.', example: 'Fight Night TV' }),
  })
  .meta({ description: 'The channel a broadcast belongs to.' });

export const Ingest = z
  .strictObject({
    server_url: z.string().meta({ description: 'The ingest server URL the encoder streams to.', example: 'rtmps://ingest.example.com/live' }),
    stream_key: z
      .string()
      .optional()
      .meta({
        description:
          'The stream key. Shown only once: in the creation answer, in the answer of a PATCH that switches ' +
          'the broadcast to `ingest`, and in the answer of `rotate-stream-key`. It is never returned ' +
          'otherwise (nor are SRT passphrases or provider credentials).',
      }),
  })
  .meta({ description: 'Ingest details of an `ingest` broadcast.' });

/** The fields every broadcast answer has, in order (docs/decisions.md). */
const broadcastFields = {
  id: uuid('Broadcast id, used in the paths of the channel endpoints.'),
  slug: z.string().meta({ description: 'Broadcast slug, used in the public path `/broadcasts/{slug}`.', example: 'berlin-open-finals' }),
  channel: ChannelRef,
  title: field('title'),
  source: field('source'),
  source_url: z.string().nullable().meta({
    description: 'The https URL of the video for an external source; null for `ingest` (and, on public endpoints, for a locked broadcast).',
  }),
  scheduled_at: dateTime('When the broadcast is scheduled to start.'),
  started_at: dateTime('When it went live; null before.').nullable(),
  ended_at: dateTime('When it ended; null before.').nullable(),
  state: z.enum(BROADCAST_STATES).meta({
    description:
      '`scheduled` → `live` (go-live) → `ended` (end) → `replay`. An external broadcast becomes `replay` as ' +
      'soon as it ends; an ingest broadcast stays `ended` until its recording is ready.',
  }),
  visibility: z.enum(VISIBILITIES).meta({
    description:
      '`public`; `unlisted` (never listed, reachable by slug); `followers` (followers only) or `ppv` ' +
      '(pay-per-view), both shown locked on public endpoints.',
  }),
  discipline: field('discipline'),
  language: field('language', { description: 'ISO 639-1 language code (two lower-case letters).', example: 'en' }),
  tags: field('tags', { description: 'Up to 10 tags, each 1 to 32 of `a-z`, `0-9`, `-`.' }),
  replay_url: z.string().nullable().meta({
    description: 'Where the replay can be watched, or null (no replay yet; on public endpoints also for a locked broadcast).',
  }),
  created_at: dateTime('Creation time.'),
  updated_at: dateTime('Time of the last change.'),
};

export const Broadcast = z.strictObject({ ...broadcastFields, ingest: Ingest.optional() }).meta({
  description:
    "A broadcast as the channel's own key sees it. `ingest` is present exactly when `source` is `ingest` " +
    '(then `source_url` is null); its `stream_key` only in the answers that reveal it once.',
  oneOf: [
    {
      type: 'object',
      description: 'An ingest broadcast: `source` is `ingest`, `source_url` is null and `ingest` is present.',
      properties: { source: { type: 'string', enum: ['ingest'] }, source_url: nullOnly },
      required: ['source', 'ingest'],
    },
    {
      type: 'object',
      description: 'A broadcast on an external source: `source_url` is its https URL and there is no `ingest`.',
      properties: { source: { type: 'string', enum: EXTERNAL_SOURCES }, source_url: { type: 'string' }, ingest: absent },
      required: ['source'],
    },
  ],
});

export const PublicBroadcast = z
  .strictObject({
    ...broadcastFields,
    locked: z.boolean().meta({
      description: 'True for `followers` and `ppv` broadcasts: then `source_url` and `replay_url` are null. False for ' + '`public` and `unlisted`.',
    }),
  })
  .meta({
    description: 'A broadcast as public endpoints show it: never any ingest details or stream key.',
    oneOf: [
      {
        type: 'object',
        description: 'An unlocked broadcast: `public` or `unlisted`.',
        properties: { locked: { type: 'boolean', enum: [false] }, visibility: { type: 'string', enum: UNLOCKED_VISIBILITIES } },
        required: ['locked', 'visibility'],
      },
      {
        type: 'object',
        description: 'A locked broadcast (`followers` or `ppv`): `source_url` and `replay_url` are null.',
        properties: {
          locked: { type: 'boolean', enum: [true] },
          visibility: { type: 'string', enum: LOCKED_VISIBILITIES },
          source_url: nullOnly,
          replay_url: nullOnly,
        },
        required: ['locked', 'visibility'],
      },
    ],
  });

/** A Broadcast whose `ingest.stream_key` is never present (`forbid`) or present (`require`). */
function streamKeyRule(rule: 'forbid' | 'require', description: string) {
  const streamKey =
    rule === 'forbid'
      ? { type: 'object', properties: { server_url: { type: 'string' }, stream_key: { not: {}, description: 'Never present here.' } } }
      : { type: 'object', properties: { server_url: { type: 'string' }, stream_key: { type: 'string' } }, required: ['stream_key'] };
  const rest = { type: 'object', properties: { ingest: streamKey }, ...(rule === 'require' ? { required: ['ingest'] } : {}) };
  return z.unknown().meta({ description, allOf: [{ $ref: '#/components/schemas/Broadcast' }, rest] });
}

export const BroadcastWithoutStreamKey = streamKeyRule(
  'forbid',
  'A Broadcast whose `ingest` (if any) carries no `stream_key`: every channel answer other than creation, a ' +
    'PATCH switching to `ingest` and `rotate-stream-key`.',
);
export const BroadcastWithStreamKey = streamKeyRule('require', 'A Broadcast revealing its new stream key: the answer of `rotate-stream-key`.');

export const HealthWarning = z
  .strictObject({
    code: z.string().meta({ description: 'Warning code, e.g. `no_signal_while_live`, `low_bitrate`, `low_fps`.', example: 'low_bitrate' }),
    message: z.string().meta({ description: 'Human-readable explanation.' }),
  })
  .meta({ description: 'One warning of a health report.' });

export const Health = z
  .strictObject({
    broadcast_id: uuid('The broadcast.'),
    state: z.enum(BROADCAST_STATES).meta({ description: 'State of the broadcast.' }),
    signal: z.enum(HEALTH_SIGNALS).meta({
      description: '`receiving` or `no_signal` for an ingest broadcast; `external` for the other sources, whose metrics are all null.',
    }),
    bitrate_kbps: z.int().min(0).nullable().meta({ description: 'Incoming bitrate in kbit/s, or null.' }),
    resolution: z
      .string()
      .regex(/^[0-9]+x[0-9]+$/)
      .nullable()
      .meta({ description: 'Video resolution `WIDTHxHEIGHT`, or null.', example: '1920x1080' }),
    fps: z.number().min(0).nullable().meta({ description: 'Frames per second, or null.' }),
    viewers: z.int().min(0).nullable().meta({ description: 'Current viewers, or null.' }),
    warnings: z.array(HealthWarning).meta({ description: 'Current warnings; empty when all is well.' }),
    updated_at: dateTime('When the last ingest report arrived from the media server; null if none has.').nullable(),
  })
  .meta({ description: 'Health of a broadcast: signal state and stream metrics.' });

export type BroadcastBody = z.infer<typeof Broadcast>;
export type PublicBroadcastBody = z.infer<typeof PublicBroadcast>;
export type HealthBody = z.infer<typeof Health>;
