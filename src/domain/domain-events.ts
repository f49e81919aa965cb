import type { EntityManager } from '@mikro-orm/postgresql';

export interface RankingChange {
  fighterId: string;
  divisionId: string;
  rank: number;
  previousRank: number | null;
  movement: number | null;
  points: number;
}

/**
 * The names of what the domain announces, in the order the operator and the studio list them.
 * The webhook event catalog (src/webhooks/event-catalog.ts) attaches a payload schema, a
 * description and an audience to each; this is the names' one home.
 */
export const PARTNER_EVENT_TYPES = ['ranking.published', 'result.verified', 'licence.suspended', 'licence.issued', 'event.sanctioned'] as const;
export const BROADCAST_EVENT_TYPES = ['broadcast.scheduled', 'broadcast.live', 'broadcast.ended', 'replay.ready'] as const;
export type PartnerEventType = (typeof PARTNER_EVENT_TYPES)[number];
export type BroadcastEventType = (typeof BROADCAST_EVENT_TYPES)[number];

/**
 * What happened, by id. The webhook outbox records these in the transaction of the change and
 * its workers turn them into payloads after the commit, so the domain knows nothing about
 * webhooks or their JSON.
 */
export type DomainEvent =
  | { type: 'licence.issued'; licenceId: string }
  | { type: 'licence.suspended'; licenceId: string }
  | { type: 'event.sanctioned'; eventId: string }
  | { type: 'result.verified'; boutId: string }
  | { type: 'ranking.published'; asOf: string; changes: RankingChange[] }
  | { type: BroadcastEventType; broadcastId: string; channelId: string };

export interface DomainEventSink {
  /** Called inside the transaction of the change; must use `em`'s transaction only. */
  publish(em: EntityManager, events: DomainEvent[]): Promise<void>;
}

export const noEvents: DomainEventSink = { publish: async () => undefined };
