import type { ChannelWebhookEvent, WebhookDeliveryStatus } from './gql/graphql';

export const EVENTS: { value: ChannelWebhookEvent; wire: string; hint: string }[] = [
  { value: 'BROADCAST_SCHEDULED', wire: 'broadcast.scheduled', hint: 'A broadcast was created or scheduled.' },
  { value: 'BROADCAST_LIVE', wire: 'broadcast.live', hint: 'A broadcast went live.' },
  { value: 'BROADCAST_ENDED', wire: 'broadcast.ended', hint: 'A broadcast ended.' },
  { value: 'REPLAY_READY', wire: 'replay.ready', hint: 'A replay is available.' },
];
export const wireEvent = (e: ChannelWebhookEvent) => EVENTS.find((x) => x.value === e)?.wire ?? (e === 'PING' ? 'ping' : e.toLowerCase());

export const STATUS_NAMES: Record<WebhookDeliveryStatus, string> = { PENDING: 'Pending', SENDING: 'Sending', SUCCEEDED: 'Succeeded', FAILED: 'Failed' };
export const STATUS_TONE: Record<WebhookDeliveryStatus, 'green' | 'red' | 'amber' | 'blue'> = { PENDING: 'amber', SENDING: 'blue', SUCCEEDED: 'green', FAILED: 'red' };
