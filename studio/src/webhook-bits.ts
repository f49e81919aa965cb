import type { ChannelWebhookEvent, WebhookDeliveryStatus } from './gql/graphql';

/** The wire name of a GraphQL event value: BROADCAST_SCHEDULED is broadcast.scheduled, PING ping. */
export const wireEvent = (e: ChannelWebhookEvent) => e.toLowerCase().replace('_', '.');

/**
 * What the form says of each event a channel endpoint may subscribe to, keyed by the GraphQL
 * enum (generated from the server's event catalog), so an event added there does not compile
 * here until the form describes it. `PING` is the Test button's, never subscribed to.
 */
const HINTS: Record<Exclude<ChannelWebhookEvent, 'PING'>, string> = {
  BROADCAST_SCHEDULED: 'A broadcast was created or scheduled.',
  BROADCAST_LIVE: 'A broadcast went live.',
  BROADCAST_ENDED: 'A broadcast ended.',
  REPLAY_READY: 'A replay is available.',
};
export const EVENTS = (Object.keys(HINTS) as (keyof typeof HINTS)[]).map((value) => ({ value, wire: wireEvent(value), hint: HINTS[value] }));

export const STATUS_NAMES: Record<WebhookDeliveryStatus, string> = { PENDING: 'Pending', SENDING: 'Sending', SUCCEEDED: 'Succeeded', FAILED: 'Failed' };
export const STATUS_TONE: Record<WebhookDeliveryStatus, 'green' | 'red' | 'amber' | 'blue'> = { PENDING: 'amber', SENDING: 'blue', SUCCEEDED: 'green', FAILED: 'red' };
