import { randomUUID } from 'node:crypto';
import { ArrayType, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Partner } from '../domain/partners/partner.entities';

/** A receiver's URL and the events it wants. Partner endpoints are registered by the operator. */
@Entity()
export class WebhookEndpoint {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Partner, { nullable: true }) partner: Partner | null = null;
  /** Channel endpoints (studio) belong to a channel instead of a partner. */
  @Index() @Property({ type: 'uuid', nullable: true }) channelId: string | null = null;
  @Property({ type: 'text' }) url!: string;
  @Property({ type: ArrayType }) events: string[] = [];
  /** Secrets must be kept to sign; they are never logged and shown only once. */
  @Property({ type: 'text', hidden: true }) secret!: string;
  /** A rotated secret takes over at `nextSecretFrom`; until then the old one still signs (docs/decisions.md#rotation). */
  @Property({ type: 'text', nullable: true, hidden: true }) nextSecret: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) nextSecretFrom: Date | null = null;
  @Property({ type: 'boolean' }) enabled: boolean = true;
  @Property({ type: 'text', nullable: true }) disabledReason: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) disabledAt: Date | null = null;
  /** Since when its deliveries end failed with none succeeding (health, docs/decisions.md#endpoint-health); null while healthy. */
  @Property({ type: 'timestamptz', nullable: true }) failingSince: Date | null = null;
  /** Deliveries per second over every worker, set by the operator (docs/decisions.md#delivery-rate); null = no limit. */
  @Property({ type: 'double', nullable: true }) ratePerSecond: number | null = null;
  /** A channel endpoint deleted in the studio: disabled and hidden, its delivery log kept. */
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}

/**
 * What a transaction changed, for the webhooks (docs/decisions.md#outbox): a domain event (a
 * ranking publication's changes in chunks) and, but for a publication, its payloads as the
 * transaction committed them, written in the transaction of the change and nothing per endpoint;
 * a worker turns it into events and deliveries after the commit, then deletes it.
 */
@Entity()
export class WebhookChange {
  @PrimaryKey({ type: 'bigint', autoincrement: true }) id!: string;
  @Property({ type: 'text' }) type!: string;
  @Property({ type: 'uuid', nullable: true }) channelId: string | null = null;
  @Property({ type: 'json' }) subject!: Record<string, unknown>;
  /** `json`, not `jsonb`: the builders' key order is what partners read. */
  @Property({ type: 'json', columnType: 'json', nullable: true }) payloads: unknown[] | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}

/** An event with its exact payload: built by a worker from a change, or written directly (the studio's ping). */
@Entity()
@Index({ properties: ['createdAt'] })
export class WebhookEvent {
  @PrimaryKey({ type: 'text' }) id!: string;
  @Property({ type: 'text' }) type!: string;
  /**
   * The exact bytes sent, { id, event, created_at, data }, kept as text so every attempt and
   * every replay carries the same body (jsonb would reorder its keys).
   */
  @Property({ type: 'text' }) payload!: string;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}

/** A delivery's states: pending (an attempt is due), sending, succeeded (a 2xx), failed (out of attempts, or 410 Gone). */
export const DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One attempt series of one event to one endpoint; X-SVC-Delivery is its id. Besides the log's
 * index, the unfinished ones (`pending`, `sending`) have a partial index by endpoint, status and
 * time (migration Migration20261128060000_webhook_delivery_due_index).
 */
@Entity()
@Index({ properties: ['endpoint', 'createdAt'] })
export class WebhookDelivery {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => WebhookEvent) event!: WebhookEvent;
  @ManyToOne(() => WebhookEndpoint) endpoint!: WebhookEndpoint;
  @Property({ type: 'text' }) status: DeliveryStatus = 'pending';
  /** Attempts started so far; the one in flight while `sending`. */
  @Property({ type: 'integer' }) attempt: number = 0;
  @Property({ type: 'timestamptz' }) nextAttemptAt: Date = new Date();
  /** While sending: when another worker may take the attempt over (its worker died). */
  @Property({ type: 'timestamptz', nullable: true }) leaseUntil: Date | null = null;
  @Property({ type: 'uuid', nullable: true }) replayOf: string | null = null;
  @Property({ type: 'integer', nullable: true }) lastStatusCode: number | null = null;
  @Property({ type: 'text', nullable: true }) lastError: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
}

/** The delivery log keeps every attempt (docs/decisions.md#delivery-log). */
@Entity()
@Index({ properties: ['delivery', 'attemptNo'] })
export class WebhookAttempt {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => WebhookDelivery) delivery!: WebhookDelivery;
  @Property({ type: 'integer' }) attemptNo!: number;
  @Property({ type: 'timestamptz' }) startedAt!: Date;
  @Property({ type: 'integer' }) durationMs!: number;
  @Property({ type: 'json' }) requestHeaders!: Record<string, string>;
  @Property({ type: 'integer', nullable: true }) statusCode: number | null = null;
  @Property({ type: 'text', nullable: true }) error: string | null = null;
  @Property({ type: 'text', nullable: true }) responseExcerpt: string | null = null;
}
