/**
 * A channel's own broadcasts, by channel key: create, edit, health (the transitions, go live, end
 * and a new stream key, are broadcast-transitions.operations.ts).
 */
import type { ChannelPrincipal } from '../../domain/channels/channel-key-authenticator';
import type { BroadcastRecord } from '../../domain/channels/broadcast.record';
import { presentBroadcast } from '../../domain/channels/broadcast.view';
import type { BroadcastInput, BroadcastPatch } from '../../domain/channels/broadcast.input';
import { defineOperation, type Answer } from '../../http/operation';
import { errorResponse, type Schema } from '../../lib/openapi.helpers';
import { ID_AND_RATE_HEADERS } from '../../lib/openapi.responses';
import { readBroadcastBody } from '../broadcast-body';
import type { TvApiDeps } from '../tv-api.door';
import { PATCH_RULES } from './broadcast.rules';
import { BroadcastId, BroadcastRef } from './tv.parameters';

export type Changed = { broadcast: BroadcastRecord; streamKey?: string };
export type Me = { principal: ChannelPrincipal };

export const show = (deps: TvApiDeps, r: Changed, status = 200, headers?: string[]): Answer => ({
  status,
  json: { data: presentBroadcast(r.broadcast, deps.ingestServerUrl, r.streamKey) },
  headers,
});

export const conflict = (description: string, codes: string[] = ['invalid_state']): Schema => errorResponse(description, codes, ID_AND_RATE_HEADERS);
export const WRITE = { credential: 'channel-key', scope: 'broadcasts:write', limit: 'key' } as const;

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
