import { registerEnumType } from 'type-graphql';
import { BROADCAST_STATES, SOURCES, VISIBILITIES, type BroadcastState, type Source, type Visibility } from '../domain/channels/broadcast.entities';
import { SIGNALS, type Signal } from '../domain/channels/broadcast-health';
import {
  BILLING_STATES,
  CHANNEL_SCOPES,
  LIVE_SLOTS,
  PLANS,
  ROLES,
  type BillingState,
  type ChannelScope,
  type Plan,
  type Role,
} from '../domain/channels/channel.entities';
import { PERMISSIONS, type Permission } from '../domain/channels/channel-access';
import { DISCIPLINES, type Discipline } from '../domain/reference/vocabulary';
import { CHANNEL_EVENTS, EVENT_CATALOG, type ChannelWebhookEvent } from '../webhooks/event-catalog';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../webhooks/webhook.entities';

export type { ChannelWebhookEvent };

/** The GraphQL name of a domain value: `broadcasts:write` is BROADCASTS_WRITE, `muay-thai` MUAY_THAI. */
export const wireName = (value: string): string => value.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/**
 * A closed vocabulary of the domain as a GraphQL enum. Clients see the conventional UPPER_CASE
 * names; resolvers receive and return the domain's own values (`owner`, `broadcasts:write`), which
 * the domain and the database keep: the enum is the one place where the two meet. The values come
 * from the list the domain declares, and every value needs a description (the record is keyed by
 * the domain's type, so a value added there does not compile here until it is described).
 */
function domainEnum<V extends string>(name: string, description: string, values: readonly V[], describe: Record<V, string>): Record<string, V> {
  const entries = values.map((v) => [wireName(v), v] as const);
  const names = new Set(entries.map(([k]) => k));
  if (names.size !== values.length) throw new Error(`enum ${name}: two values share a GraphQL name`);
  const enumObject = Object.fromEntries(entries) as Record<string, V>;
  registerEnumType(enumObject, { name, description, valuesConfig: Object.fromEntries(entries.map(([k, v]) => [k, { description: describe[v] }])) });
  return enumObject;
}

export const RoleEnum = domainEnum('Role', "A studio user's role on a channel; the access rule decides what each may do.", ROLES, {
  owner: 'Manages API keys, webhook endpoints and broadcasts.',
  manager: 'Manages API keys, webhook endpoints and broadcasts, like an owner.',
  editor: 'Manages broadcasts and reads the rest, API keys excepted.',
  viewer: 'Reads the channel, its broadcasts and its webhook endpoints; changes nothing.',
} satisfies Record<Role, string>);

export const PlanEnum = domainEnum('Plan', "The channel's plan: it sets the live slots and the sources allowed.", PLANS, {
  free: `${LIVE_SLOTS.free} live slot; no ingest.`,
  pro: `${LIVE_SLOTS.pro} live slots; ingest allowed.`,
  broadcaster: `${LIVE_SLOTS.broadcaster} live slots; ingest allowed.`,
} satisfies Record<Plan, string>);

export const BillingStateEnum = domainEnum('BillingState', "The channel's billing state; going live needs ACTIVE or TRIALING.", BILLING_STATES, {
  active: 'Paid and current.',
  trialing: 'In its trial period.',
  past_due: 'A payment failed; going live is refused (billing_inactive).',
  canceled: 'The subscription ended; going live is refused (billing_inactive).',
} satisfies Record<BillingState, string>);

export const ChannelScopeEnum = domainEnum('ChannelScope', 'What a channel API key may do on /api/tv.', CHANNEL_SCOPES, {
  read: 'Read the channel, its broadcasts and their health (wire value `read`).',
  'broadcasts:write': 'Create, edit, start and end broadcasts (wire value `broadcasts:write`).',
} satisfies Record<ChannelScope, string>);

export const BroadcastStateEnum = domainEnum(
  'BroadcastState',
  'Where a broadcast is in its life: SCHEDULED, then LIVE, then ENDED, then REPLAY.',
  BROADCAST_STATES,
  {
    scheduled: 'Created, not yet live.',
    live: 'On air.',
    ended: 'Over; an ingest broadcast stays here until its recording is ready.',
    replay: 'Over, with its replay available.',
  } satisfies Record<BroadcastState, string>,
);

export const SourceEnum = domainEnum('BroadcastSource', 'Where the video comes from.', SOURCES, {
  youtube: 'A YouTube page (sourceUrl).',
  vimeo: 'A Vimeo page (sourceUrl).',
  hls: 'An HLS playlist, an https .m3u8 URL (sourceUrl).',
  mp4: 'An https .mp4 file (sourceUrl).',
  ingest: 'Pushed to the service with a stream key (no sourceUrl); needs the PRO or BROADCASTER plan to go live.',
} satisfies Record<Source, string>);

export const VisibilityEnum = domainEnum('Visibility', 'Who may watch a broadcast.', VISIBILITIES, {
  public: 'Anyone; listed in the public schedules.',
  unlisted: 'Anyone with its slug; never listed.',
  followers: "The channel's followers; listed as locked.",
  ppv: 'Pay-per-view; listed as locked.',
} satisfies Record<Visibility, string>);

export const DisciplineEnum = domainEnum('Discipline', 'A combat-sports discipline of the federation.', DISCIPLINES, {
  kickboxing: 'Kickboxing.',
  mma: 'Mixed martial arts.',
  boxing: 'Boxing.',
  'muay-thai': 'Muay Thai.',
} satisfies Record<Discipline, string>);

export const SignalEnum = domainEnum('Signal', "The state of a broadcast's video signal.", SIGNALS, {
  receiving: 'The media server reports the ingest stream, and its latest report is fresh.',
  no_signal: 'An ingest broadcast whose stream is not arriving (no report, or too old a one).',
  external: 'A source played from elsewhere (YouTube, Vimeo, HLS, MP4): no metrics.',
} satisfies Record<Signal, string>);

export const WebhookDeliveryStatusEnum = domainEnum('WebhookDeliveryStatus', "A webhook delivery's state.", DELIVERY_STATUSES, {
  pending: 'Waiting for its next attempt (nextAttemptAt).',
  sending: 'An attempt is in flight.',
  succeeded: 'The receiver answered 2xx.',
  failed: 'Five attempts failed, the receiver answered 410 Gone, or the endpoint was deleted.',
} satisfies Record<DeliveryStatus, string>);

/** The descriptions are the event catalog's summaries, with the wire name. */
export const ChannelWebhookEventEnum = domainEnum(
  'ChannelWebhookEvent',
  'An event a channel webhook endpoint can receive (sent as X-SVC-Event, e.g. `broadcast.live`).',
  CHANNEL_EVENTS,
  Object.fromEntries(CHANNEL_EVENTS.map((n) => [n, `${EVENT_CATALOG[n].summary.replace(/\.$/, '')} (\`${n}\`).`])) as Record<ChannelWebhookEvent, string>,
);

export const ChannelPermissionEnum = domainEnum(
  'ChannelPermission',
  "What the signed-in user's role may do on a channel (the access rule's table).",
  PERMISSIONS,
  {
    read: 'Read the channel, its broadcasts, their health, its webhook endpoints and their delivery log.',
    broadcasts: 'Create, edit, start and end broadcasts, and rotate a stream key.',
    keys: "Read, create and revoke the channel's API keys.",
    webhooks: 'Create, change, test and delete webhook endpoints, rotate their secrets, redeliver and recover deliveries.',
  } satisfies Record<Permission, string>,
);
