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
 * What happened, by id. The webhook outbox turns these into payloads inside the same
 * transaction, so the domain knows nothing about webhooks or their JSON.
 */
export type DomainEvent =
  | { type: 'licence.issued'; licenceId: string }
  | { type: 'licence.suspended'; licenceId: string }
  | { type: 'event.sanctioned'; eventId: string }
  | { type: 'result.verified'; boutId: string }
  | { type: 'ranking.published'; asOf: string; changes: RankingChange[] }
  | { type: 'broadcast.scheduled' | 'broadcast.live' | 'broadcast.ended' | 'replay.ready'; broadcastId: string; channelId: string };

export const CHANNEL_EVENTS = ['broadcast.scheduled', 'broadcast.live', 'broadcast.ended', 'replay.ready'] as const;

export interface DomainEventSink {
  /** Called inside the transaction of the change; must use `em`'s transaction only. */
  publish(em: EntityManager, events: DomainEvent[]): Promise<void>;
}

export const noEvents: DomainEventSink = { publish: async () => undefined };
