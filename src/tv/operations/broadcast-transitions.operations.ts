/** A broadcast's transitions by id, by channel key: go live, end, a new stream key (no body). */
import type { ChannelPrincipal } from '../../domain/channels/channel-key-authenticator';
import { defineOperation, type Operation } from '../../http/operation';
import { errorResponse } from '../../lib/openapi.helpers';
import { ID_AND_RATE_HEADERS } from '../../lib/openapi.responses';
import type { TvApiDeps } from '../tv-api.door';
import { GO_LIVE_RULES } from './broadcast.rules';
import { type Changed, conflict, type Me, show, WRITE } from './broadcasts.operations';
import { BroadcastId } from './tv.parameters';

const BODY_NOTE = 'No body is needed; a body, if sent, is ignored.';

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
