import { ChannelWebhookEventDescriptions } from './gql/enum-descriptions';
import type { ChannelWebhookEvent, WebhookDeliveryStatus } from './gql/graphql';

/** The wire name of a GraphQL event value: BROADCAST_SCHEDULED is broadcast.scheduled, PING ping. */
export const wireEvent = (e: ChannelWebhookEvent) => e.toLowerCase().replace('_', '.');

/**
 * The events a channel endpoint may subscribe to, with what the form says of each: the GraphQL
 * enum's descriptions (generated from the server's event catalog into gql/enum-descriptions.ts),
 * without the wire name they end with, which the form shows beside them. `PING` is the Test
 * button's, never subscribed to.
 */
const subscribable = (Object.keys(ChannelWebhookEventDescriptions) as ChannelWebhookEvent[]).filter((e): e is Exclude<ChannelWebhookEvent, 'PING'> => e !== 'PING');
export const EVENTS = subscribable.map((value) => ({
  value,
  wire: wireEvent(value),
  hint: ChannelWebhookEventDescriptions[value].replace(/ \(`[^`]+`\)\.$/, '.'),
}));

export const STATUS_NAMES: Record<WebhookDeliveryStatus, string> = { PENDING: 'Pending', SENDING: 'Sending', SUCCEEDED: 'Succeeded', FAILED: 'Failed' };
export const STATUS_TONE: Record<WebhookDeliveryStatus, 'green' | 'red' | 'amber' | 'blue'> = { PENDING: 'amber', SENDING: 'blue', SUCCEEDED: 'green', FAILED: 'red' };
