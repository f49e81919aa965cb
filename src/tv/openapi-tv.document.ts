/**
 * The OpenAPI 3.0.3 description of the TV API (`/api/tv`), document version 1.0.0
 * (INTERFACE.md "TV API", DECISIONS.md D4 and D5).
 *
 * Built like the partner document (src/rest/openapi.document.ts) from the helpers of
 * src/lib/openapi.helpers.ts: every shape is written once and reused through `#/components/...`
 * references, key order is fixed by the code, so `renderTvOpenApi()` is byte-for-byte
 * deterministic. `schema/openapi-tv.json` is its output (`npm run schema`); a test fails when the
 * checked-in file is stale.
 *
 * Conventions of the schemas (as in the partner document):
 * - every listed property is `required` (the only optional response property is `ingest` of a
 *   `Broadcast`, and its `stream_key`); a value that can be null is `nullable: true` (with `null`
 *   in its `enum` when it has one);
 * - objects are closed (`additionalProperties: false`), except `Error`;
 * - rules between fields are `oneOf`s of constraint-only branches next to the closed object's
 *   `properties`: a `Broadcast` is either an ingest one (with `ingest`, `source_url` null) or an
 *   external one (no `ingest`, a `source_url`); a `PublicBroadcast` is either unlocked (`public` or
 *   `unlisted`) or locked (`followers` or `ppv`, `source_url` null).
 */
import {
  arrayOf,
  bearerScheme,
  bool,
  closedObject,
  codeList,
  commonHeaderSpecs,
  enumOf,
  errorResponse,
  errorSchema,
  ID_AND_RATE_HEADERS,
  ifNoneMatchParameterSpec,
  int,
  json,
  listOf,
  notModifiedFor,
  nullable,
  num,
  openApiDocument,
  openApiDocumentBody,
  operationObject,
  pageMetaSchema,
  pagingParameterSpecs,
  RATE_HEADERS,
  ref,
  renderOpenApi,
  schemaRef,
  standardResponses,
  str,
  successResponse,
  withDescription,
  type HeaderSpec,
  type ParamSpec,
  type Props,
  type Schema,
} from '../lib/openapi.helpers';
import {
  BROADCAST_LANGUAGE_PATTERN,
  BROADCAST_STATES,
  BROADCAST_TAG_PATTERN,
  BROADCAST_TAGS_MAX,
  BROADCAST_TITLE_MAX,
  SOURCES as BROADCAST_SOURCES,
  VISIBILITIES as BROADCAST_VISIBILITIES,
} from '../domain/channels/broadcast.entities';
import { BILLING_STATES, CHANNEL_SCOPES, LIVE_SLOTS as PLAN_LIVE_SLOTS, PLANS as CHANNEL_PLANS } from '../domain/channels/channel.entities';
import { DISCIPLINES } from '../domain/reference/vocabulary';
import { params } from '../http/query';

export const TV_OPENAPI_VERSION = '1.0.0';
export const TV_API_BASE_PATH = '/api/tv';

export const EXTERNAL_SOURCES = ['youtube', 'vimeo', 'hls', 'mp4'] as const;
/** Visibilities shown with `locked: true` (and `source_url`, `replay_url` null) on public endpoints. */
export const LOCKED_VISIBILITIES = ['followers', 'ppv'] as const;
export const UNLOCKED_VISIBILITIES = ['public', 'unlisted'] as const;
export const HEALTH_SIGNALS = ['receiving', 'no_signal', 'external'] as const;
export {
  BILLING_STATES,
  BROADCAST_LANGUAGE_PATTERN,
  BROADCAST_SOURCES,
  BROADCAST_STATES,
  BROADCAST_TAG_PATTERN,
  BROADCAST_TAGS_MAX,
  BROADCAST_TITLE_MAX,
  BROADCAST_VISIBILITIES,
  CHANNEL_PLANS,
  CHANNEL_SCOPES,
  PLAN_LIVE_SLOTS,
};

export type ChannelScope = (typeof CHANNEL_SCOPES)[number];

/** Every path of the TV API, relative to `/api/tv`, in document order. */
export const TV_API_PATHS = [
  '/live',
  '/upcoming',
  '/channels',
  '/channels/{slug}',
  '/broadcasts/{broadcast}',
  '/me',
  '/broadcasts',
  '/broadcasts/{id}/go-live',
  '/broadcasts/{id}/end',
  '/broadcasts/{id}/rotate-stream-key',
  '/broadcasts/{id}/health',
  '/openapi.json',
] as const;

export type TvApiPath = (typeof TV_API_PATHS)[number];

// ---------------------------------------------------------------------------------------------
// Small local helpers
// ---------------------------------------------------------------------------------------------

const dateTime = (description?: string): Schema =>
  str(description, { format: 'date-time', example: '2026-11-20T19:00:00Z' });
const uuid = (description?: string): Schema =>
  str(description, { format: 'uuid', example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b' });
/** A string that can only be null (a branch constraint; `nullable` needs its `type`). */
const nullString = (description?: string): Schema =>
  withDescription({ type: 'string', nullable: true, enum: [null] }, description);
const constant = (type: 'string' | 'boolean', value: string | boolean, description?: string): Schema =>
  withDescription({ type, enum: [value] }, description);
/** Live slots per plan in words (`free` 1, ...), for the plan and go-live descriptions. */
const PLAN_SLOTS_TEXT = CHANNEL_PLANS.map((p) => `\`${p}\` ${PLAN_LIVE_SLOTS[p]}`).join(', ');

/** A closed object with some optional properties. */
function objectWith(required: Props, optional: Props, description: string, extra: Schema = {}): Schema {
  return {
    type: 'object',
    description,
    ...extra,
    properties: { ...required, ...optional },
    required: Object.keys(required),
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------------------------------------
// Resource schemas
// ---------------------------------------------------------------------------------------------

const SOURCE_RULES =
  '`youtube` (a YouTube page), `vimeo` (a Vimeo page), `hls` (an `.m3u8` playlist), `mp4` (an `.mp4` ' +
  'file) or `ingest` (the channel streams to the service\'s ingest server).';

const channelRef = (): Schema => schemaRef('ChannelRef');

/** The fields every broadcast answer has, in order (D5.1). */
const broadcastProps: Props = {
  id: uuid('Broadcast id, used in the paths of the channel endpoints.'),
  slug: str('Broadcast slug, used in the public path `/broadcasts/{slug}`.', { example: 'berlin-open-finals' }),
  channel: channelRef(),
  title: str(`Title, 1 to ${BROADCAST_TITLE_MAX} characters.`, { minLength: 1, maxLength: BROADCAST_TITLE_MAX }),
  source: enumOf(BROADCAST_SOURCES, `Where the video comes from: ${SOURCE_RULES}`),
  source_url: nullable(
    str('The https URL of the video for an external source; null for `ingest` (and, on public endpoints, for a locked broadcast).'),
  ),
  scheduled_at: dateTime('When the broadcast is scheduled to start.'),
  started_at: nullable(dateTime('When it went live; null before.')),
  ended_at: nullable(dateTime('When it ended; null before.')),
  state: enumOf(
    BROADCAST_STATES,
    '`scheduled` → `live` (go-live) → `ended` (end) → `replay`. An external broadcast becomes `replay` as ' +
      'soon as it ends; an ingest broadcast stays `ended` until its recording is ready.',
  ),
  visibility: enumOf(
    BROADCAST_VISIBILITIES,
    '`public`; `unlisted` (never listed, reachable by slug); `followers` (followers only) or `ppv` ' +
      '(pay-per-view), both shown locked on public endpoints.',
  ),
  discipline: nullable(enumOf(DISCIPLINES, 'Discipline, or null.')),
  language: str('ISO 639-1 language code (two lower-case letters).', { pattern: BROADCAST_LANGUAGE_PATTERN, example: 'en' }),
  tags: arrayOf(
    str(undefined, { pattern: BROADCAST_TAG_PATTERN }),
    'Up to 10 tags, each 1 to 32 of `a-z`, `0-9`, `-`.',
    { maxItems: BROADCAST_TAGS_MAX, example: ['finals', 'berlin'] },
  ),
  replay_url: nullable(str('Where the replay can be watched, or null (no replay yet; on public endpoints also for a locked broadcast).')),
  created_at: dateTime('Creation time.'),
  updated_at: dateTime('Time of the last change.'),
};

const INGEST_BRANCH: Schema = {
  type: 'object',
  description: 'An ingest broadcast: `source` is `ingest`, `source_url` is null and `ingest` is present.',
  properties: {
    source: constant('string', 'ingest'),
    source_url: nullString(),
  },
  required: ['ingest'],
};

const EXTERNAL_BRANCH: Schema = {
  type: 'object',
  description: 'A broadcast on an external source: `source_url` is its https URL and there is no `ingest`.',
  properties: {
    source: enumOf(EXTERNAL_SOURCES),
    source_url: str(),
    ingest: { not: {}, description: 'Absent.' },
  },
};

const UNLOCKED_BRANCH: Schema = {
  type: 'object',
  description: 'An unlocked broadcast: `public` or `unlisted`.',
  properties: {
    locked: constant('boolean', false),
    visibility: enumOf(UNLOCKED_VISIBILITIES),
  },
};

const LOCKED_BRANCH: Schema = {
  type: 'object',
  description: 'A locked broadcast (`followers` or `ppv`): `source_url` and `replay_url` are null.',
  properties: {
    locked: constant('boolean', true),
    visibility: enumOf(LOCKED_VISIBILITIES),
    source_url: nullString(),
    replay_url: nullString(),
  },
};

/** `{data: X}` with `ingest.stream_key` forbidden (`forbid`) or required (`require`). */
function streamKeyRule(rule: 'forbid' | 'require', description: string): Schema {
  const streamKey: Schema =
    rule === 'forbid'
      ? { type: 'object', properties: { stream_key: { not: {}, description: 'Never present here.' } } }
      : { type: 'object', properties: { stream_key: str() }, required: ['stream_key'] };
  const rest: Schema = { type: 'object', properties: { ingest: streamKey } };
  if (rule === 'require') rest.required = ['ingest'];
  return { description, allOf: [schemaRef('Broadcast'), rest] };
}

const pageCount = (description: string): Schema => int(description, { minimum: 0 });

const resourceSchemas: Record<string, Schema> = {
  ChannelRef: closedObject(
    {
      slug: str('Channel slug, used in `/channels/{slug}`.', { example: 'fight-night-tv' }),
      name: str('Channel name.', { example: 'Fight Night TV' }),
    },
    'The channel a broadcast belongs to.',
  ),
  Ingest: objectWith(
    { server_url: str('The ingest server URL the encoder streams to.', { example: 'rtmps://ingest.example.com/live' }) },
    {
      stream_key: str(
        'The stream key. Shown only once: in the creation answer, in the answer of a PATCH that switches ' +
          'the broadcast to `ingest`, and in the answer of `rotate-stream-key`. It is never returned ' +
          'otherwise (nor are SRT passphrases or provider credentials).',
      ),
    },
    'Ingest details of an `ingest` broadcast.',
  ),
  Broadcast: objectWith(
    broadcastProps,
    { ingest: schemaRef('Ingest') },
    'A broadcast as the channel\'s own key sees it. `ingest` is present exactly when `source` is `ingest` ' +
      '(then `source_url` is null); its `stream_key` only in the answers that reveal it once.',
    { oneOf: [INGEST_BRANCH, EXTERNAL_BRANCH] },
  ),
  BroadcastWithoutStreamKey: streamKeyRule(
    'forbid',
    'A Broadcast whose `ingest` (if any) carries no `stream_key`: every channel answer other than creation, a ' +
      'PATCH switching to `ingest` and `rotate-stream-key`.',
  ),
  BroadcastWithStreamKey: streamKeyRule(
    'require',
    'A Broadcast revealing its new stream key: the answer of `rotate-stream-key`.',
  ),
  PublicBroadcast: closedObject(
    {
      ...broadcastProps,
      locked: bool(
        'True for `followers` and `ppv` broadcasts: then `source_url` and `replay_url` are null. False for ' +
          '`public` and `unlisted`.',
      ),
    },
    'A broadcast as public endpoints show it: never any ingest details or stream key.',
    { oneOf: [UNLOCKED_BRANCH, LOCKED_BRANCH] },
  ),
  PublicChannel: closedObject(
    {
      slug: str('Channel slug, used in `/channels/{slug}`.', { example: 'fight-night-tv' }),
      name: str('Channel name.', { example: 'Fight Night TV' }),
      live_count: pageCount('Listed broadcasts live now.'),
      upcoming_count: pageCount('Listed broadcasts scheduled.'),
    },
    'An approved channel.',
  ),
  ChannelDetail: closedObject(
    {
      slug: str('Channel slug.', { example: 'fight-night-tv' }),
      name: str('Channel name.', { example: 'Fight Night TV' }),
      live: arrayOf(schemaRef('PublicBroadcast'), 'Its listed broadcasts live now.'),
      upcoming: arrayOf(schemaRef('PublicBroadcast'), 'Its listed scheduled broadcasts.'),
      replays: arrayOf(schemaRef('PublicBroadcast'), 'Its listed replays.'),
    },
    'One approved channel with its live, upcoming and replayed broadcasts (unlisted ones are never listed).',
  ),
  Me: closedObject(
    {
      channel: closedObject(
        {
          slug: str('Channel slug.'),
          name: str('Channel name.'),
          plan: enumOf(
            CHANNEL_PLANS,
            `Plan; live slots: ${PLAN_SLOTS_TEXT}. ` +
              '`ingest` needs `pro` or `broadcaster`.',
          ),
          billing_state: enumOf(
            BILLING_STATES,
            'Billing state; going live needs `active` or `trialing`.',
          ),
          approved: bool('Whether the channel is approved (only approved channels are listed publicly).'),
          live_slots: closedObject(
            {
              used: int('Broadcasts of the channel live now.', { minimum: 0 }),
              total: int('Live slots of the plan.', { minimum: 0 }),
            },
            'Live slots in use and in total.',
          ),
        },
        'The key\'s channel.',
      ),
      key: closedObject(
        {
          name: str('Name of the key.'),
          prefix: str('The first characters of the key, for display.', { example: 'ck_Ab3d' }),
          scopes: arrayOf(enumOf(CHANNEL_SCOPES), 'Scopes of the key.', { uniqueItems: true }),
        },
        'The channel API key used for the request.',
      ),
      broadcasts: arrayOf(
        schemaRef('BroadcastWithoutStreamKey'),
        'The channel\'s latest 100 broadcasts, newest `scheduled_at` first, without stream keys.',
        { maxItems: 100 },
      ),
    },
    'The key\'s channel, its billing state and its broadcasts.',
  ),
  HealthWarning: closedObject(
    {
      code: str('Warning code, e.g. `no_signal_while_live`, `low_bitrate`, `low_fps`.', { example: 'low_bitrate' }),
      message: str('Human-readable explanation.'),
    },
    'One warning of a health report.',
  ),
  Health: closedObject(
    {
      broadcast_id: uuid('The broadcast.'),
      state: enumOf(BROADCAST_STATES, 'State of the broadcast.'),
      signal: enumOf(
        HEALTH_SIGNALS,
        '`receiving` or `no_signal` for an ingest broadcast; `external` for the other sources, whose ' +
          'metrics are all null.',
      ),
      bitrate_kbps: nullable(int('Incoming bitrate in kbit/s, or null.', { minimum: 0 })),
      resolution: nullable(str('Video resolution `WIDTHxHEIGHT`, or null.', { pattern: '^[0-9]+x[0-9]+$', example: '1920x1080' })),
      fps: nullable(num('Frames per second, or null.', { minimum: 0 })),
      viewers: nullable(int('Current viewers, or null.', { minimum: 0 })),
      warnings: arrayOf(schemaRef('HealthWarning'), 'Current warnings; empty when all is well.'),
      updated_at: nullable(dateTime('When the last ingest report arrived from the media server; null if none has.')),
    },
    'Health of a broadcast: signal state and stream metrics.',
  ),
  Meta: pageMetaSchema(),
  Error: errorSchema(),
};

// ---------------------------------------------------------------------------------------------
// Request-body schemas
// ---------------------------------------------------------------------------------------------

const writeProps: Props = {
  title: str(`Title, 1 to ${BROADCAST_TITLE_MAX} characters.`, { minLength: 1, maxLength: BROADCAST_TITLE_MAX }),
  source: enumOf(BROADCAST_SOURCES, `Where the video comes from: ${SOURCE_RULES}`),
  source_url: str(
    'An https URL matching the source: a YouTube or Vimeo page, an `.m3u8` playlist for `hls`, an `.mp4` ' +
      'file for `mp4`. Required unless the source is `ingest`; forbidden for `ingest`.',
    { format: 'uri', pattern: '^https://', example: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
  ),
  scheduled_at: dateTime('Start time, ISO 8601 with an offset (`Z` or `±hh:mm`).'),
  visibility: enumOf(
    BROADCAST_VISIBILITIES,
    '`public` (default), `unlisted` (never listed, reachable by slug), `followers`, `ppv`.',
  ),
  discipline: nullable(enumOf(DISCIPLINES, 'Discipline, or null.')),
  language: str('ISO 639-1 code, two lower-case letters; default `en`.', { pattern: BROADCAST_LANGUAGE_PATTERN }),
  tags: arrayOf(
    str(undefined, { pattern: BROADCAST_TAG_PATTERN }),
    'Up to 10 tags, each `^[a-z0-9-]{1,32}$`.',
    { maxItems: BROADCAST_TAGS_MAX },
  ),
};

const withDefault = (schema: Schema, value: unknown): Schema => ({ ...schema, default: value });

const createProps: Props = {
  ...writeProps,
  visibility: withDefault(writeProps.visibility, 'public'),
  language: withDefault(writeProps.language, 'en'),
};

const requestSchemas: Record<string, Schema> = {
  BroadcastCreate: {
    type: 'object',
    description:
      'A new broadcast. `title`, `source` and `scheduled_at` are required; `source_url` is required unless ' +
      'the source is `ingest`, and forbidden then. A bad field is a 422 `invalid_<field>`; an unknown field ' +
      'or a body that is not a JSON object is a 422 `invalid_body`.',
    properties: createProps,
    required: ['title', 'source', 'scheduled_at'],
    additionalProperties: false,
    oneOf: [
      {
        type: 'object',
        description: 'An ingest broadcast: no `source_url`.',
        properties: { source: constant('string', 'ingest'), source_url: { not: {}, description: 'Absent.' } },
      },
      {
        type: 'object',
        description: 'An external broadcast: `source_url` is required.',
        properties: { source: enumOf(EXTERNAL_SOURCES) },
        required: ['source_url'],
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
  },
  BroadcastUpdate: {
    type: 'object',
    description:
      'Changes to a broadcast: any of the creation fields, at least one. Which fields may change depends on ' +
      'the state (see `PATCH /broadcasts/{broadcast}`); a forbidden change is a 409 `invalid_state`. ' +
      'Switching `source` to `ingest` drops `source_url` (send none); switching away from `ingest` needs a ' +
      '`source_url`.',
    properties: writeProps,
    minProperties: 1,
    additionalProperties: false,
    example: { title: 'Berlin Open: finals (main card)', tags: ['finals'] },
  },
};

// ---------------------------------------------------------------------------------------------
// Response-body schemas (envelopes)
// ---------------------------------------------------------------------------------------------

const single = (name: string, description: string): Schema => closedObject({ data: schemaRef(name) }, description);

const bodySchemas: Record<string, Schema> = {
  PublicBroadcastListResponse: closedObject(
    { meta: schemaRef('Meta'), data: listOf('PublicBroadcast', 'The broadcasts of this page.') },
    'A page of broadcasts.',
  ),
  PublicBroadcastResponse: single('PublicBroadcast', 'One broadcast, as the public sees it.'),
  PublicChannelListResponse: closedObject(
    { meta: schemaRef('Meta'), data: listOf('PublicChannel', 'The channels of this page.') },
    'A page of approved channels.',
  ),
  ChannelDetailResponse: single('ChannelDetail', 'One channel with its broadcasts.'),
  MeResponse: single('Me', 'The key\'s channel.'),
  BroadcastResponse: single('Broadcast', 'One broadcast of the key\'s channel.'),
  BroadcastTransitionResponse: single('BroadcastWithoutStreamKey', 'The broadcast after the transition.'),
  StreamKeyResponse: single('BroadcastWithStreamKey', 'The broadcast with its new stream key.'),
  HealthResponse: single('Health', 'The health report.'),
};

// ---------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------

const parameterSpecs: Record<string, ParamSpec> = {
  ...pagingParameterSpecs(params.page, params.per_page),
  ChannelSlug: {
    name: 'slug',
    in: 'path',
    description: 'Channel slug.',
    schema: str(),
    example: 'fight-night-tv',
  },
  BroadcastRef: {
    name: 'broadcast',
    in: 'path',
    description:
      'The broadcast: on GET (public) its **slug**, on PATCH (channel key) its **id** (a uuid). An unknown ' +
      'slug or id, a value that is not a uuid on PATCH, or another channel\'s broadcast is a 404.',
    schema: str(),
    example: 'berlin-open-finals',
  },
  BroadcastId: {
    name: 'id',
    in: 'path',
    description: 'Broadcast id (a uuid). An unknown id, a value that is not a uuid, or another channel\'s broadcast is a 404.',
    schema: str(undefined, { format: 'uuid' }),
    example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
  },
  IfNoneMatch: ifNoneMatchParameterSpec(),
};

type ParamKey = keyof typeof parameterSpecs;

// ---------------------------------------------------------------------------------------------
// Headers and responses
// ---------------------------------------------------------------------------------------------

const headerSpecs: Record<string, HeaderSpec> = {
  ...commonHeaderSpecs(
    'Requests allowed per sliding 60-second window: 120 for a channel key, 60 per client IP on the public endpoints.',
  ),
  Location: {
    description: 'Path of the new broadcast for its channel: `/api/tv/broadcasts/{id}`, where it is changed with `PATCH` ' +
      '(and `/go-live`, `/end`, `/health` below it). Its public page is `/api/tv/broadcasts/{slug}`.',
    schema: str(undefined, { example: '/api/tv/broadcasts/3f2b8c1e-5d4a-4e8b-9c7d-1a2b3c4d5e6f' }),
  },
};

/** One `invalid_<field>` per field of a broadcast body, in field order, then `invalid_body`. */
const INVALID_FIELDS = [...Object.keys(writeProps).map((field) => `invalid_${field}`), 'invalid_body'];
const INVALID_PAGING = ['invalid_page', 'invalid_per_page'];

const sharedResponses: Record<string, Schema> = standardResponses(
  {
    invalidKey: 'Unknown, revoked or expired key, or a key that is not a channel key (`ck_...`): `invalid_key`.',
    forbidden: 'The key lacks the scope this endpoint requires: `insufficient_scope`.',
    notFound: 'No such record (for channel endpoints also: a broadcast of another channel): `not_found`.',
    tooManyRequests:
      'The per-minute limit is exhausted: 120 requests per channel key, or 60 per client IP on the public ' +
      'endpoints. `rate_limited`, with `Retry-After`.',
  },
  {
    InvalidPaging: errorResponse(
      `A paging parameter has a bad value or is given twice: ${codeList(INVALID_PAGING)}. The message names ` +
        'the parameter and the accepted values.',
      INVALID_PAGING,
      ID_AND_RATE_HEADERS,
    ),
    InvalidBroadcast: errorResponse(
      `A field of the body is invalid: ${codeList(INVALID_FIELDS.slice(0, -1))} (the message says why); an ` +
        'unknown field, an empty PATCH or a body that is not a JSON object: `invalid_body`.',
      INVALID_FIELDS,
      ID_AND_RATE_HEADERS,
    ),
    PayloadTooLarge: errorResponse('The body is larger than 64 KiB: `payload_too_large`.', ['payload_too_large'], ID_AND_RATE_HEADERS),
    UnsupportedMediaType: errorResponse(
      'The body is not JSON (`Content-Type` must be `application/json`), or its charset or encoding is not ' +
        'supported: `unsupported_media_type`.',
      ['unsupported_media_type'],
      ID_AND_RATE_HEADERS,
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

type Method = 'get' | 'post' | 'patch';
type Status = '200' | '201' | '304' | '400' | '401' | '402' | '403' | '404' | '409' | '413' | '415' | '422' | '429' | '500';

interface OperationSpec {
  method: Method;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** Required scope; `'public'` = no key. */
  scope: ChannelScope | 'public';
  params: ParamKey[];
  /** Name of the request-body schema (a JSON body is then read: 400, 413, 415). */
  requestBody?: string;
  okStatus?: '200' | '201';
  okDescription: string;
  /** Name of the success body schema, or an inline schema. */
  body: string | Schema;
  /** No rate limit (only `/openapi.json`). */
  unlimited?: boolean;
  /** Error answers besides 401, 403 `insufficient_scope`, 404, 422, 429 and 500, by status. */
  errors?: Partial<Record<Status, Schema>>;
  notFound?: boolean;
  invalid?: 'paging' | 'broadcast';
}

function scopeText(scope: OperationSpec['scope']): string {
  if (scope === 'public') return 'Public: no key needed.';
  return `Channel key with scope \`${scope}\`.`;
}

const RESPONSE_ORDER: Status[] = ['200', '201', '304', '400', '401', '402', '403', '404', '409', '413', '415', '422', '429', '500'];

function operation(spec: OperationSpec): Schema {
  const isPublic = spec.scope === 'public';
  const isGet = spec.method === 'get';
  const readsBody = spec.requestBody !== undefined;
  const hasPathParam = spec.params.some((key) => parameterSpecs[key].in === 'path');
  const rate = spec.unlimited ? [] : RATE_HEADERS;
  const okHeaders = ['X-Request-Id', ...(isGet ? ['ETag'] : []), ...(spec.invalid === 'paging' ? ['Link'] : []), ...(spec.okStatus === '201' ? ['Location'] : []), ...rate];

  const responses: Partial<Record<Status, Schema>> = {};
  responses[spec.okStatus ?? '200'] = successResponse(spec.okDescription, okHeaders, spec.body);
  if (isGet) responses['304'] = notModifiedFor(!spec.unlimited);
  const badRequest = [...(readsBody ? ['invalid_json'] : []), ...(hasPathParam ? ['invalid_path'] : [])];
  if (badRequest.length > 0) {
    const parts = [];
    if (readsBody) parts.push('the body is not valid JSON: `invalid_json`');
    if (hasPathParam) parts.push('a path value is not valid percent-encoding: `invalid_path`');
    responses['400'] = errorResponse(
      `${parts.join('; ')}.`.replace(/^./, (c) => c.toUpperCase()),
      badRequest,
      ['X-Request-Id'],
    );
  }
  if (!isPublic) {
    responses['401'] = ref('responses', 'Unauthorized');
    responses['403'] = ref('responses', 'Forbidden');
  }
  if (spec.notFound) responses['404'] = ref('responses', 'NotFound');
  if (readsBody) {
    responses['413'] = ref('responses', 'PayloadTooLarge');
    responses['415'] = ref('responses', 'UnsupportedMediaType');
  }
  if (spec.invalid === 'paging') responses['422'] = ref('responses', 'InvalidPaging');
  if (spec.invalid === 'broadcast') responses['422'] = ref('responses', 'InvalidBroadcast');
  if (!spec.unlimited) responses['429'] = ref('responses', 'TooManyRequests');
  responses['500'] = ref('responses', 'InternalError');
  Object.assign(responses, spec.errors ?? {});

  const ordered: Schema = {};
  for (const status of RESPONSE_ORDER) if (responses[status]) ordered[status] = responses[status];

  return operationObject(spec, {
    scopeText: scopeText(spec.scope),
    requiredScope: isPublic ? undefined : spec.scope,
    isPublic,
    params: [...spec.params, ...(isGet ? ['IfNoneMatch'] : [])],
    requestBody:
      spec.requestBody === undefined
        ? undefined
        : {
            required: true,
            description: 'A JSON object (`Content-Type: application/json`), at most 64 KiB.',
            content: json(schemaRef(spec.requestBody)),
          },
    responses: ordered,
  });
}

const PUBLIC_LIST_NOTE =
  'Paginated: `page` (from 1, default 1) and `per_page` (1 to 100, default 25); a page past the end is a ' +
  '200 with empty `data` and true `meta`. Unlisted broadcasts and broadcasts of unapproved channels are ' +
  'never listed; `followers` and `ppv` broadcasts are listed with `locked: true`, `source_url: null` and ' +
  '`replay_url: null`.';

const BODY_NOTE = 'No body is needed; a body, if sent, is ignored.';

const stateConflict = (description: string, codes: string[] = ['invalid_state']): Schema =>
  errorResponse(description, codes, ID_AND_RATE_HEADERS);

const PATCH_RULES =
  'Which fields may change depends on the state: while `scheduled`, any creation field; while `live`, any ' +
  'but `source`, `source_url` and `scheduled_at`; once `ended` or `replay`, only `title`, `visibility`, ' +
  '`discipline`, `language` and `tags`. A forbidden change is a 409 `invalid_state`.';

const GO_LIVE_RULES =
  'Going live needs: state `scheduled` (else 409 `invalid_state`); billing state `active` or `trialing` ' +
  '(else 402 `billing_inactive`); a plan that allows the source: `ingest` needs `pro` or `broadcaster` ' +
  '(else 403 `plan_forbids_source`); a free live slot: plans have ' +
  `${PLAN_SLOTS_TEXT} ` +
  '(else 409 `no_live_slot`). Slot checks hold under concurrent go-lives.';

/** `/live` and `/upcoming` are one listing of public broadcasts, told apart by their state. */
const scheduleListing = (
  operationId: string,
  state: 'live' | 'scheduled',
  summary: string,
  okDescription: string,
): OperationSpec => ({
  method: 'get',
  operationId,
  tag: 'Schedule',
  summary,
  description: `Listed broadcasts whose state is \`${state}\`. ${PUBLIC_LIST_NOTE}`,
  scope: 'public',
  params: ['Page', 'PerPage'],
  invalid: 'paging',
  okDescription,
  body: 'PublicBroadcastListResponse',
});

const operations: Record<TvApiPath, OperationSpec[]> = {
  '/live': [scheduleListing('listLiveBroadcasts', 'live', 'Broadcasts live now', 'A page of live broadcasts.')],
  '/upcoming': [
    scheduleListing('listUpcomingBroadcasts', 'scheduled', 'Scheduled broadcasts', 'A page of scheduled broadcasts.'),
  ],
  '/channels': [
    {
      method: 'get',
      operationId: 'listChannels',
      tag: 'Channels',
      summary: 'Approved channels',
      description:
        'Approved channels with their counts of listed live and scheduled broadcasts. Paginated: `page` ' +
        '(from 1, default 1) and `per_page` (1 to 100, default 25).',
      scope: 'public',
      params: ['Page', 'PerPage'],
      invalid: 'paging',
      okDescription: 'A page of channels.',
      body: 'PublicChannelListResponse',
    },
  ],
  '/channels/{slug}': [
    {
      method: 'get',
      operationId: 'getChannel',
      tag: 'Channels',
      summary: 'One channel with live, upcoming and replays',
      description:
        'One approved channel with its listed live, scheduled and replayed broadcasts (unlisted ones are ' +
        'never listed; `followers` and `ppv` ones are locked). An unknown or unapproved channel is a 404.',
      scope: 'public',
      params: ['ChannelSlug'],
      notFound: true,
      okDescription: 'The channel.',
      body: 'ChannelDetailResponse',
    },
  ],
  '/broadcasts/{broadcast}': [
    {
      method: 'get',
      operationId: 'getBroadcast',
      tag: 'Schedule',
      summary: 'One broadcast, by slug',
      description:
        'One broadcast by its slug; unlisted broadcasts are reachable here. A `followers` or `ppv` broadcast ' +
        'is shown with `locked: true`, `source_url: null` and `replay_url: null`. Ingest details and stream keys ' +
        'are never shown.',
      scope: 'public',
      params: ['BroadcastRef'],
      notFound: true,
      okDescription: 'The broadcast.',
      body: 'PublicBroadcastResponse',
    },
    {
      method: 'patch',
      operationId: 'updateBroadcast',
      tag: 'Broadcasts',
      summary: 'Edit a broadcast, by id',
      description:
        `Changes any of the creation fields of one of the channel's broadcasts, by its id. ${PATCH_RULES} ` +
        'A PATCH that switches the source to `ingest` answers with `ingest.stream_key`, once; any other PATCH ' +
        'never shows a stream key.',
      scope: 'broadcasts:write',
      params: ['BroadcastRef'],
      requestBody: 'BroadcastUpdate',
      notFound: true,
      invalid: 'broadcast',
      okDescription: 'The broadcast after the change.',
      body: 'BroadcastResponse',
      errors: { '409': stateConflict(`The change is not allowed in the broadcast's state: \`invalid_state\`. ${PATCH_RULES}`) },
    },
  ],
  '/me': [
    {
      method: 'get',
      operationId: 'getChannelAccount',
      tag: 'Account',
      summary: 'The key\'s channel',
      description:
        'The key\'s channel (plan, billing state, approval, live slots), the key itself, and the channel\'s ' +
        'latest 100 broadcasts, newest `scheduled_at` first, without stream keys.',
      scope: 'read',
      params: [],
      okDescription: 'The channel, key and broadcasts.',
      body: 'MeResponse',
    },
  ],
  '/broadcasts': [
    {
      method: 'post',
      operationId: 'createBroadcast',
      tag: 'Broadcasts',
      summary: 'Create or schedule a broadcast',
      description:
        'Creates a broadcast in state `scheduled` (emits the channel webhook `broadcast.scheduled`). For the ' +
        '`ingest` source the answer carries `ingest.server_url` and `ingest.stream_key`: the stream key is ' +
        'shown this once only.',
      scope: 'broadcasts:write',
      params: [],
      requestBody: 'BroadcastCreate',
      okStatus: '201',
      invalid: 'broadcast',
      okDescription: 'Created: the new broadcast (with `ingest.stream_key` for an ingest broadcast).',
      body: 'BroadcastResponse',
    },
  ],
  '/broadcasts/{id}/go-live': [
    {
      method: 'post',
      operationId: 'goLive',
      tag: 'Broadcasts',
      summary: 'Go live',
      description:
        `Moves a \`scheduled\` broadcast to \`live\` and sets \`started_at\` (emits \`broadcast.live\`). ${GO_LIVE_RULES} ${BODY_NOTE}`,
      scope: 'broadcasts:write',
      params: ['BroadcastId'],
      notFound: true,
      okDescription: 'The broadcast, now live.',
      body: 'BroadcastTransitionResponse',
      errors: {
        '402': errorResponse(
          'The channel\'s billing state is neither `active` nor `trialing`: `billing_inactive`.',
          ['billing_inactive'],
          ID_AND_RATE_HEADERS,
        ),
        '403': errorResponse(
          'The key lacks the scope `broadcasts:write`: `insufficient_scope`. The plan does not allow the ' +
            'source (`ingest` needs `pro` or `broadcaster`): `plan_forbids_source`.',
          ['insufficient_scope', 'plan_forbids_source'],
          ID_AND_RATE_HEADERS,
        ),
        '409': stateConflict(
          'The broadcast is not `scheduled`: `invalid_state`. Every live slot of the plan is taken: `no_live_slot`.',
          ['invalid_state', 'no_live_slot'],
        ),
      },
    },
  ],
  '/broadcasts/{id}/end': [
    {
      method: 'post',
      operationId: 'endBroadcast',
      tag: 'Broadcasts',
      summary: 'End a live broadcast',
      description:
        'Ends a `live` broadcast and sets `ended_at` (emits `broadcast.ended`). An external broadcast becomes ' +
        '`replay` at once; an ingest broadcast stays `ended` until its recording is ready, then becomes ' +
        `\`replay\` with a \`replay_url\` (emits \`replay.ready\`). ${BODY_NOTE}`,
      scope: 'broadcasts:write',
      params: ['BroadcastId'],
      notFound: true,
      okDescription: 'The broadcast, now `ended` or `replay`.',
      body: 'BroadcastTransitionResponse',
      errors: { '409': stateConflict('The broadcast is not `live`: `invalid_state`.') },
    },
  ],
  '/broadcasts/{id}/rotate-stream-key': [
    {
      method: 'post',
      operationId: 'rotateStreamKey',
      tag: 'Broadcasts',
      summary: 'Issue a new stream key',
      description:
        'Replaces the stream key of an ingest broadcast and answers with the new one in ' +
        `\`ingest.stream_key\`, shown this once only. ${BODY_NOTE}`,
      scope: 'broadcasts:write',
      params: ['BroadcastId'],
      notFound: true,
      okDescription: 'The broadcast with its new stream key.',
      body: 'StreamKeyResponse',
      errors: { '409': stateConflict('The broadcast is not an ingest broadcast: `invalid_state`.') },
    },
  ],
  '/broadcasts/{id}/health': [
    {
      method: 'get',
      operationId: 'getBroadcastHealth',
      tag: 'Broadcasts',
      summary: 'Health of a broadcast',
      description:
        'Signal state, bitrate, resolution, fps, viewers and warnings. For an ingest broadcast the metrics ' +
        'come from the media server\'s latest report (`updated_at`); other sources have `signal: external` ' +
        'and null metrics.',
      scope: 'read',
      params: ['BroadcastId'],
      notFound: true,
      okDescription: 'The health report.',
      body: 'HealthResponse',
    },
  ],
  '/openapi.json': [
    {
      method: 'get',
      operationId: 'getTvOpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI document',
      description: 'The OpenAPI 3.0.3 description of the TV API (this document).',
      scope: 'public',
      params: [],
      unlimited: true,
      okDescription: 'The OpenAPI document.',
      body: openApiDocumentBody(),
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Document
// ---------------------------------------------------------------------------------------------

const INFO_DESCRIPTION = [
  'Schedules of live, upcoming and replayed broadcasts and of approved channels (public), and the ' +
    'management of a channel\'s own broadcasts (channel API key): create, schedule, edit, go live, end, ' +
    'rotate a stream key, read health. The TV API never touches ranking points. Bodies are JSON with ' +
    'snake_case fields; single answers are `{ "data": ... }`, lists `{ "meta": ..., "data": [...] }`.',
  '',
  '## Authentication',
  'Public endpoints (`/live`, `/upcoming`, `/channels`, `/channels/{slug}`, `GET /broadcasts/{slug}`, ' +
    '`/openapi.json`) need no key. Channel endpoints need a channel API key (`ck_...`), created by the ' +
    'channel\'s owner or a manager in the studio, sent as `Authorization: Bearer <key>`. No key, or an ' +
    '`Authorization` header that is not `Bearer <token>`, is a 401 `unauthenticated`; an unknown, revoked ' +
    'or expired key, or a key of another door (a partner key), is a 401 `invalid_key`. 401 answers carry ' +
    '`WWW-Authenticate: Bearer`. A key sees only its own channel: another channel\'s broadcast is a 404.',
  '',
  '## Scopes',
  'Channel keys carry the scopes `read` (`GET /me`, `GET /broadcasts/{id}/health`) and `broadcasts:write` ' +
    '(`POST /broadcasts`, `PATCH /broadcasts/{id}`, `go-live`, `end`, `rotate-stream-key`). A key without ' +
    'the scope of an endpoint gets 403 `insufficient_scope`. Each operation names its scope in ' +
    '`x-required-scope`.',
  '',
  '## Rate limits',
  'Channel keys: 120 requests per key, public endpoints: 60 requests per client IP, each over a sliding ' +
    '60-second window. Answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` ' +
    '(Unix seconds) once a key or client IP has been checked (not on 401, 405, 500, or a 404 for an ' +
    'unknown path). Over the limit the answer is 429 `rate_limited` with ' +
    '`Retry-After` in whole seconds. 401 and 304 answers do not count. Checks run in this order: key, rate ' +
    'limit, scope, parameters.',
  '',
  '## Conditional requests',
  'GET answers carry an `ETag`; a request whose `If-None-Match` matches it is answered 304 Not Modified ' +
    'without a body.',
  '',
  '## Pagination',
  '`/live`, `/upcoming` and `/channels` take `page` (from 1, default 1) and `per_page` (1 to 100, default ' +
    '25); a bad value, or one given twice, is a 422 `invalid_page` or `invalid_per_page`. A page past the ' +
    'end is a 200 with empty `data` and true `meta`. Their answers carry a `Link` header with the `first`, ' +
    '`prev`, `next` and `last` pages (GitHub style: absolute URLs, your query with `page` replaced; no ' +
    '`prev` on page 1, no `next` on the last page).',
  '',
  '## CORS',
  'The public endpoints and `/openapi.json` are for viewers\' apps and web pages: they allow any origin ' +
    '(`Access-Control-Allow-Origin: *`), answer preflights, and let scripts read `ETag`, `Link`, ' +
    '`X-Request-Id`, the `X-RateLimit-*` headers and `Retry-After`. Channel endpoints send no CORS headers: ' +
    'a channel key is a secret for the channel\'s servers, not for a browser. (The partner API, ' +
    'server-to-server, sends none at all.)',
  '',
  '## Broadcasts',
  'States: `scheduled` → `live` (go-live) → `ended` (end) → `replay`. An external broadcast (`youtube`, ' +
    '`vimeo`, `hls`, `mp4`) becomes `replay` as soon as it ends; an ingest broadcast stays `ended` until ' +
    'its recording is ready. Channel webhooks: creating emits `broadcast.scheduled`, going live ' +
    '`broadcast.live`, ending `broadcast.ended`, the replay becoming available `replay.ready` (for an ' +
    'external broadcast both at once: its `broadcast.ended` payload already shows state `replay`).',
  '',
  'Visibility: `public`; `unlisted` (never listed, reachable by slug); `followers` and `ppv`, listed and ' +
    'shown with `locked: true`, `source_url: null` and `replay_url: null` on public endpoints.',
  '',
  `Editing: ${PATCH_RULES}`,
  '',
  `Going live: ${GO_LIVE_RULES}`,
  '',
  'Ingest: an `ingest` broadcast has `ingest.server_url`; its stream key is shown once only, in ' +
    '`ingest.stream_key` of the creation answer, of a PATCH that switches to `ingest`, and of ' +
    '`rotate-stream-key`. Stream keys, SRT passphrases and provider credentials are never returned ' +
    'otherwise, and public endpoints never show ingest details.',
  '',
  '## Request bodies',
  '`POST /broadcasts` and `PATCH /broadcasts/{id}` take JSON objects (`Content-Type: application/json`) ' +
    'of at most 64 KiB; `go-live`, `end` and `rotate-stream-key` take no body. Malformed JSON is a 400 ' +
    '`invalid_json`; a body that is not JSON a 415 `unsupported_media_type`; a larger one a 413 ' +
    '`payload_too_large`. A bad field is a 422 `invalid_<field>` (`invalid_title`, `invalid_source`, ' +
    '`invalid_source_url`, `invalid_scheduled_at`, `invalid_visibility`, `invalid_discipline`, ' +
    '`invalid_language`, `invalid_tags`); an unknown field or a body that is not a JSON object a 422 ' +
    '`invalid_body`.',
  '',
  '## Errors',
  'Every error answer is a JSON object with `error` (a code) and `message`, plus `request_id` where ' +
    'useful; every answer carries `X-Request-Id`. Unknown paths under `/api/tv` are 404 `not_found`; a ' +
    'method a path does not serve is 405 `method_not_allowed` with an `Allow` header (HEAD works wherever ' +
    'GET does). 402 `billing_inactive`, 403 `plan_forbids_source` and ' +
    '409 `no_live_slot` come from go-live; 409 `invalid_state` from a transition or change the state does ' +
    'not allow. A 500 is `internal`.',
].join('\n');

export function buildTvOpenApi(): Record<string, unknown> {
  const paths: Record<string, Schema> = {};
  for (const path of TV_API_PATHS) {
    const specs = operations[path];
    const item: Schema = {};
    if (specs.length === 1) item.summary = specs[0].summary;
    for (const spec of specs) item[spec.method] = operation(spec);
    paths[path] = item;
  }

  return openApiDocument({
    title: 'TV API',
    version: TV_OPENAPI_VERSION,
    description: INFO_DESCRIPTION,
    server: { url: TV_API_BASE_PATH, description: 'TV API (relative to the service address; no version segment).' },
    security: [{ channelKey: [] }],
    tags: [
      { name: 'Schedule', description: 'Public schedules: live, upcoming and single broadcasts.' },
      { name: 'Channels', description: 'Public channel pages.' },
      { name: 'Account', description: 'The key\'s channel.' },
      { name: 'Broadcasts', description: 'Managing the channel\'s own broadcasts.' },
      { name: 'Meta', description: 'This description.' },
    ],
    paths,
    schemas: { ...resourceSchemas, ...requestSchemas, ...bodySchemas },
    parameters: parameterSpecs,
    responses: sharedResponses,
    headers: headerSpecs,
    securitySchemes: {
      channelKey: bearerScheme('A channel API key (`ck_...`) as a bearer token: `Authorization: Bearer <key>`.'),
    },
  });
}

/** The document as written to `schema/openapi-tv.json` (and served at `/api/tv/openapi.json`). */
export function renderTvOpenApi(): string {
  return renderOpenApi(buildTvOpenApi());
}
