/** A channel's own broadcasts, by channel key: create, edit, go live, end, a new stream key, health. */
import type { ChannelPrincipal } from '../../domain/channels/channel-key-authenticator';
import type { BroadcastRecord } from '../../domain/channels/broadcast.record';
import { presentBroadcast } from '../../domain/channels/broadcast.view';
import type { BroadcastInput, BroadcastPatch } from '../../domain/channels/broadcast.input';
import { defineOperation, type Answer, type Operation } from '../../http/operation';
import { errorResponse, type Schema } from '../../lib/openapi.helpers';
import { ID_AND_RATE_HEADERS } from '../../lib/openapi.responses';
import { readBroadcastBody } from '../broadcast-body';
import { PLAN_SLOTS_TEXT } from '../schemas/channel.schemas';
import type { TvApiDeps } from '../tv-api.door';
import { BroadcastId, BroadcastRef } from './tv.parameters';

type Changed = { broadcast: BroadcastRecord; streamKey?: string };
type Me = { principal: ChannelPrincipal };

const show = (deps: TvApiDeps, r: Changed, status = 200, headers?: string[]): Answer => ({
  status,
  json: { data: presentBroadcast(r.broadcast, deps.ingestServerUrl, r.streamKey) },
  headers,
});

export const PATCH_RULES =
  'Which fields may change depends on the state: while `scheduled`, any creation field; while `live`, any ' +
  'but `source`, `source_url` and `scheduled_at`; once `ended` or `replay`, only `title`, `visibility`, ' +
  '`discipline`, `language` and `tags`. A forbidden change is a 409 `invalid_state`.';

export const GO_LIVE_RULES =
  'Going live needs: state `scheduled` (else 409 `invalid_state`); billing state `active` or `trialing` ' +
  '(else 402 `billing_inactive`); a plan that allows the source: `ingest` needs `pro` or `broadcaster` ' +
  `(else 403 \`plan_forbids_source\`); a free live slot: plans have ${PLAN_SLOTS_TEXT} ` +
  '(else 409 `no_live_slot`). Slot checks hold under concurrent go-lives.';

const BODY_NOTE = 'No body is needed; a body, if sent, is ignored.';
const conflict = (description: string, codes: string[] = ['invalid_state']): Schema => errorResponse(description, codes, ID_AND_RATE_HEADERS);
const WRITE = { credential: 'channel-key', scope: 'broadcasts:write', limit: 'key' } as const;

export const updateBroadcast = defineOperation({
  method: 'PATCH',
  path: '/broadcasts/{broadcast}',
  ...WRITE,
  params: { broadcast: BroadcastRef },
  body: { component: 'BroadcastUpdate', read: (raw): BroadcastPatch => readBroadcastBody(raw, 'update') },
  handler: async (deps: TvApiDeps, { params, body, principal }: Me & { params: Record<string, string>; body: BroadcastPatch }) =>
    show(deps, await deps.broadcasts.update(principal, params.broadcast, body)),
  doc: {
    operationId: 'updateBroadcast',
    tag: 'Broadcasts',
    summary: 'Edit a broadcast, by id',
    description:
      `Changes any of the creation fields of one of the channel's broadcasts, by its id. ${PATCH_RULES} ` +
      'A PATCH that switches the source to `ingest` answers with `ingest.stream_key`, once; any other PATCH ' +
      'never shows a stream key.',
    notFound: true,
    invalid: { ref: 'InvalidBroadcast' },
    okDescription: 'The broadcast after the change.',
    body: 'BroadcastResponse',
    errors: { '409': conflict(`The change is not allowed in the broadcast's state: \`invalid_state\`. ${PATCH_RULES}`) },
  },
});

export const createBroadcast = defineOperation({
  method: 'POST',
  path: '/broadcasts',
  ...WRITE,
  idempotent: true,
  status: 201,
  body: { component: 'BroadcastCreate', read: (raw): BroadcastInput => readBroadcastBody(raw, 'create') },
  handler: async (deps: TvApiDeps, { body, principal }: Me & { body: BroadcastInput }) => {
    const r = await deps.broadcasts.create(principal, principal.channelId, body);
    // the channel's path of the broadcast (PATCH, go-live, end, health); the public page is by slug
    return show(deps, r, 201, ['Location', `/api/tv/broadcasts/${r.broadcast.id}`]);
  },
  doc: {
    operationId: 'createBroadcast',
    tag: 'Broadcasts',
    summary: 'Create or schedule a broadcast',
    description:
      'Creates a broadcast in state `scheduled` (emits the channel webhook `broadcast.scheduled`). For the ' +
      '`ingest` source the answer carries `ingest.server_url` and `ingest.stream_key`: the stream key is ' +
      'shown this once only.',
    invalid: { ref: 'InvalidBroadcastCreate' },
    okDescription: 'Created: the new broadcast (with `ingest.stream_key` for an ingest broadcast).',
    body: 'BroadcastResponse',
  },
});

/** A transition of one broadcast by id (no body). */
const action = (path: string, run: (deps: TvApiDeps, p: ChannelPrincipal, id: string) => Promise<Changed>, doc: Operation['doc']) =>
  defineOperation({
    method: 'POST',
    path: `/broadcasts/{id}/${path}`,
    ...WRITE,
    idempotent: true,
    params: { id: BroadcastId },
    handler: async (deps: TvApiDeps, { params, principal }: Me & { params: Record<string, string> }) => show(deps, await run(deps, principal, params.id)),
    doc: { ...doc, notFound: true },
  });

export const goLive = action('go-live', async (deps, p, id) => ({ broadcast: await deps.broadcasts.goLive(p, id) }), {
  operationId: 'goLive',
  tag: 'Broadcasts',
  summary: 'Go live',
  description: `Moves a \`scheduled\` broadcast to \`live\` and sets \`started_at\` (emits \`broadcast.live\`). ${GO_LIVE_RULES} ${BODY_NOTE}`,
  okDescription: 'The broadcast, now live.',
  body: 'BroadcastTransitionResponse',
  errors: {
    '402': errorResponse("The channel's billing state is neither `active` nor `trialing`: `billing_inactive`.", ['billing_inactive'], ID_AND_RATE_HEADERS),
    '403': errorResponse(
      'The key lacks the scope `broadcasts:write`: `insufficient_scope`. The plan does not allow the ' +
        'source (`ingest` needs `pro` or `broadcaster`): `plan_forbids_source`.',
      ['insufficient_scope', 'plan_forbids_source'],
      ID_AND_RATE_HEADERS,
    ),
    '409': conflict('The broadcast is not `scheduled`: `invalid_state`. Every live slot of the plan is taken: `no_live_slot`.', [
      'invalid_state',
      'no_live_slot',
    ]),
  },
});

export const endBroadcast = action('end', async (deps, p, id) => ({ broadcast: await deps.broadcasts.end(p, id) }), {
  operationId: 'endBroadcast',
  tag: 'Broadcasts',
  summary: 'End a live broadcast',
  description:
    'Ends a `live` broadcast and sets `ended_at` (emits `broadcast.ended`). An external broadcast becomes ' +
    '`replay` at once; an ingest broadcast stays `ended` until its recording is ready, then becomes ' +
    `\`replay\` with a \`replay_url\` (emits \`replay.ready\`). ${BODY_NOTE}`,
  okDescription: 'The broadcast, now `ended` or `replay`.',
  body: 'BroadcastTransitionResponse',
  errors: { '409': conflict('The broadcast is not `live`: `invalid_state`.') },
});

export const rotateStreamKey = action('rotate-stream-key', (deps, p, id) => deps.broadcasts.rotateStreamKey(p, id), {
  operationId: 'rotateStreamKey',
  tag: 'Broadcasts',
  summary: 'Issue a new stream key',
  description: `Replaces the stream key of an ingest broadcast and answers with the new one in \`ingest.stream_key\`, shown this once only. ${BODY_NOTE}`,
  okDescription: 'The broadcast with its new stream key.',
  body: 'StreamKeyResponse',
  errors: { '409': conflict('The broadcast is not an ingest broadcast: `invalid_state`.') },
});

export const getBroadcastHealth = defineOperation({
  method: 'GET',
  path: '/broadcasts/{id}/health',
  credential: 'channel-key',
  scope: 'read',
  limit: 'key',
  params: { id: BroadcastId },
  handler: async (deps: TvApiDeps, { params, principal }: Me & { params: Record<string, string> }) => ({
    json: { data: await deps.ingest.health(principal, params.id) },
  }),
  doc: {
    operationId: 'getBroadcastHealth',
    tag: 'Broadcasts',
    summary: 'Health of a broadcast',
    description:
      'Signal state, bitrate, resolution, fps, viewers and warnings. For an ingest broadcast the metrics ' +
      "come from the media server's latest report (`updated_at`); other sources have `signal: external` " +
      'and null metrics.',
    notFound: true,
    okDescription: 'The health report.',
    body: 'HealthResponse',
  },
});
