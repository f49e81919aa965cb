/** Public channel pages. */
import { notFound } from '../../domain/errors';
import { presentPublicBroadcast } from '../../domain/channels/broadcast.view';
import { defineOperation } from '../../http/operation';
import { PAGING } from '../../http/paging';
import type { TvApiDeps } from '../tv-api.door';
import { PUBLIC_READ } from './tv.parameters';
import { DEMO_RECORDS } from '../../demo/demo-records';

export const listChannels = defineOperation({
  path: '/channels',
  ...PUBLIC_READ,
  kept: true,
  query: PAGING,
  handler: (deps: TvApiDeps, { query, url }) => deps.schedules.list('channels', query, url),
  doc: {
    operationId: 'listChannels',
    tag: 'Channels',
    summary: 'Approved channels',
    description:
      'Approved channels with their counts of listed live and scheduled broadcasts. Paginated: `page` ' +
      '(from 1, default 1) and `per_page` (1 to 100, default 25).',
    okDescription: 'A page of channels.',
    body: 'PublicChannelListResponse',
  },
});

export const getChannel = defineOperation({
  path: '/channels/{slug}',
  ...PUBLIC_READ,
  params: { slug: { component: 'ChannelSlug', description: 'Channel slug.', example: DEMO_RECORDS.channelSlug } },
  handler: async (deps: TvApiDeps, { params }) => {
    const c = await deps.queries.channel(params.slug);
    if (!c) throw notFound('channel');
    const present = (list: typeof c.live) => list.map(presentPublicBroadcast);
    return { json: { data: { slug: c.slug, name: c.name, live: present(c.live), upcoming: present(c.upcoming), replays: present(c.replays) } } };
  },
  doc: {
    operationId: 'getChannel',
    tag: 'Channels',
    summary: 'One channel with live, upcoming and replays',
    description:
      'One approved channel with its listed live, scheduled and replayed broadcasts (unlisted ones are ' +
      'never listed; `followers` and `ppv` ones are locked). An unknown or unapproved channel is a 404.',
    notFound: true,
    okDescription: 'The channel.',
    body: 'ChannelDetailResponse',
  },
});
