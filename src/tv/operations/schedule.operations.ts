/** The public schedule: broadcasts live now, scheduled, and one broadcast by slug. */
import { notFound } from '../../domain/errors';
import { presentPublicBroadcast } from '../../domain/channels/broadcast.view';
import { defineOperation } from '../../http/operation';
import { PAGING } from '../../http/paging';
import type { TvApiDeps } from '../tv-api.door';
import { BroadcastSlug, PUBLIC_READ } from './tv.parameters';

const PUBLIC_LIST_NOTE =
  'Paginated: `page` (from 1, default 1) and `per_page` (1 to 100, default 25); a page past the end is a ' +
  '200 with empty `data` and true `meta`. Unlisted broadcasts and broadcasts of unapproved channels are ' +
  'never listed; `followers` and `ppv` broadcasts are listed with `locked: true`, `source_url: null` and ' +
  '`replay_url: null`.';

/** `/live` and `/upcoming` are one listing of public broadcasts, told apart by their state. */
const listing = (kind: 'live' | 'upcoming', operationId: string, state: string, summary: string, okDescription: string) =>
  defineOperation({
    path: `/${kind}`,
    ...PUBLIC_READ,
    kept: true,
    query: PAGING,
    handler: (deps: TvApiDeps, { query, url }) => deps.schedules.list(kind, query, url),
    doc: {
      operationId,
      tag: 'Schedule',
      summary,
      description: `Listed broadcasts whose state is \`${state}\`. ${PUBLIC_LIST_NOTE}`,
      okDescription,
      body: 'PublicBroadcastListResponse',
    },
  });

export const listLiveBroadcasts = listing('live', 'listLiveBroadcasts', 'live', 'Broadcasts live now', 'A page of live broadcasts.');
export const listUpcomingBroadcasts = listing('upcoming', 'listUpcomingBroadcasts', 'scheduled', 'Scheduled broadcasts', 'A page of scheduled broadcasts.');

export const getBroadcast = defineOperation({
  path: '/broadcasts/{broadcast}',
  ...PUBLIC_READ,
  params: { broadcast: BroadcastSlug },
  handler: async (deps: TvApiDeps, { params }) => {
    const b = await deps.queries.broadcastBySlug(params.broadcast);
    if (!b) throw notFound('broadcast');
    return { json: { data: presentPublicBroadcast(b) } };
  },
  doc: {
    operationId: 'getBroadcast',
    tag: 'Schedule',
    summary: 'One broadcast, by slug',
    description:
      'One broadcast by its slug; unlisted broadcasts are reachable here. A `followers` or `ppv` broadcast ' +
      'is shown with `locked: true`, `source_url: null` and `replay_url: null`. Ingest details and stream keys ' +
      'are never shown.',
    notFound: true,
    okDescription: 'The broadcast.',
    body: 'PublicBroadcastResponse',
  },
});
