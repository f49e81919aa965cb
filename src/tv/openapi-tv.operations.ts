/**
 * The operations of the TV OpenAPI document, written by hand: for each path and method its prose,
 * its scope, its parameters and body (src/tv/openapi-tv.parameters.ts, src/tv/schemas) and the name
 * of its success body's schema; the answers every operation has follow from the spec.
 */
import { CHANNEL_SCOPES } from '../domain/channels/channel.entities';
import {
  errorResponse,
  ID_AND_RATE_HEADERS,
  json,
  notModifiedFor,
  openApiDocumentBody,
  operationObject,
  RATE_HEADERS,
  ref,
  schemaRef,
  successResponse,
  type Schema,
} from '../lib/openapi.helpers';
import { parameterSpecs, type ParamKey } from './openapi-tv.parameters';
import type { TvApiPath } from './openapi-tv.paths';
import { PLAN_SLOTS_TEXT } from './schemas/channel.schemas';

type ChannelScope = (typeof CHANNEL_SCOPES)[number];


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

export function operation(spec: OperationSpec): Schema {
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
    if (readsBody) parts.push('the body is not valid JSON, or cannot be decoded under its `Content-Encoding`: `invalid_json`');
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

export const PATCH_RULES =
  'Which fields may change depends on the state: while `scheduled`, any creation field; while `live`, any ' +
  'but `source`, `source_url` and `scheduled_at`; once `ended` or `replay`, only `title`, `visibility`, ' +
  '`discipline`, `language` and `tags`. A forbidden change is a 409 `invalid_state`.';

export const GO_LIVE_RULES =
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

export const operations: Record<TvApiPath, OperationSpec[]> = {
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
