import type { EntityManager } from '@mikro-orm/postgresql';

export interface RankingChange {
  fighterId: string;
  divisionId: string;
  rank: number;
  previousRank: number | null;
  movement: number | null;
  points: number;
}

/** The names of what the domain announces, from their declarations (event-declarations.ts), the names' one home. */
export { BROADCAST_EVENT_TYPES, PARTNER_EVENT_TYPES } from './event-declarations';
import type { BROADCAST_EVENT_TYPES, PARTNER_EVENT_TYPES } from './event-declarations';
export type PartnerEventType = (typeof PARTNER_EVENT_TYPES)[number];
export type BroadcastEventType = (typeof BROADCAST_EVENT_TYPES)[number];

/**
 * What happened, by id. The webhook outbox turns these into payloads in the transaction of the
 * change (a ranking publication's after the commit, by its workers), so the domain knows nothing
 * about webhooks or their JSON.
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
