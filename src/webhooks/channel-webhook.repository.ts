import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../domain/audit/audit.log';
import { sql, transactional, type Change, type Changed, type Transactional, type UnitOfWork } from '../domain/unit-of-work';
import type { ChannelEndpointView } from './channel-webhook.service';
import { deliveryView, newestFirst, type AttemptView, type DeliveryLogService, type DeliveryView } from './delivery-log.service';
import type { Outbox } from './outbox';
import type { WebhookEndpointService } from './webhook-endpoint.service';
import type { Payload } from './webhook-payloads';
import { WebhookEndpoint } from './webhook.entities';

/** A row of a batched read: the key it answers (an endpoint or a delivery id), the key's channel, and an item or null (a key without items). */
export interface KeyedRow<T> {
  key: string;
  channelId: string;
  item: T | null;
}

/** What ChannelWebhookService asks of storage: only that. Endpoints here are channel endpoints, deleted ones never found. */
export interface ChannelWebhookRepository {
  /** The live endpoints of these channels, oldest first, read on the primary. */
  endpointsOfChannels(channelIds: readonly string[]): Promise<ChannelEndpointView[]>;
  /** A live endpoint, locked until the transaction ends; or null. */
  endpoint(id: string): Promise<WebhookEndpoint | null>;
  /** The slug and name of a channel. */
  channel(channelId: string): Promise<{ slug: string; name: string }>;
  /** The newest `first` deliveries of each endpoint (a row without item for an endpoint without deliveries). */
  deliveriesOfEndpoints(endpointIds: readonly string[], first: number): Promise<KeyedRow<DeliveryView>[]>;
  /** Every attempt of each delivery, in order (a row without item for a delivery not attempted yet). */
  attemptsOfDeliveries(deliveryIds: readonly string[]): Promise<KeyedRow<AttemptView>[]>;
  /** The endpoint of a delivery: its id, channel and whether it is enabled; or null. */
  deliveryEndpoint(deliveryId: string): Promise<{ endpointId: string; channelId: string; enabled: boolean } | null>;
  /** A new endpoint, written with the next save. */
  add(endpoint: WebhookEndpoint): void;
  /** Fails the endpoint's waiting deliveries. */
  failPending(endpointId: string, reason: string): Promise<void>;
  /** A new secret taking over at `switchAt` (webhook-endpoint.service.ts). */
  rotateSecret(actor: Actor, endpointId: string, switchAt?: Date): Promise<{ endpoint: WebhookEndpoint; secret: string; switchAt: Date }>;
  /** An event through the outbox to this endpoint only; returns its waiting delivery's id and the event's. */
  sendTo(endpointId: string, payload: Payload): Promise<{ eventId: string; deliveryId: string }>;
  /** A delivery as the log shows it. */
  delivery(id: string): Promise<DeliveryView>;
  /** Replays a delivery (delivery-log.service.ts). */
  replay(actor: Actor, deliveryId: string): Promise<DeliveryView>;
  /** Re-sends the endpoint's failed deliveries of a period (delivery-log.service.ts). */
  recover(actor: Actor, input: { endpointId: string; since: Date; until?: Date }): Promise<DeliveryView[]>;
  /** An audit entry, written with the next save. */
  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void;
  /** Writes what was added and changed so far. */
  save(): Promise<void>;
  /** States what the transaction changed (topics to announce); the unit of work runs the rest. */
  changed(change: Change): Promise<void>;
}

/** What the MikroORM repository hands over to: the outbox, the endpoints' secrets and the delivery log. */
export interface WebhookCollaborators {
  outbox: Outbox;
  endpoints: WebhookEndpointService;
  log: DeliveryLogService;
}

interface EndpointRow {
  id: string;
  channel_id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  failing_since: Date | string | null;
  rate_per_second: number | null;
  next_secret_from: Date | string | null;
  created_at: Date | string;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
const pgUuids = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** The repository on a transaction's EntityManager (or a fresh fork, for reads). */
export class MikroChannelWebhookRepository implements ChannelWebhookRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly via: WebhookCollaborators,
    readonly changed: Changed,
  ) {}

  async endpointsOfChannels(channelIds: readonly string[]): Promise<ChannelEndpointView[]> {
    const rows = await sql<EndpointRow[]>(
      this.em,
      `select id, channel_id, url, events, enabled, disabled_reason, disabled_at, failing_since, rate_per_second, next_secret_from, created_at
         from webhook_endpoint where channel_id = any(?::uuid[]) and deleted_at is null order by created_at, id`,
      [pgUuids(channelIds)],
    );
    return rows.map((e) => ({
      id: e.id,
      channelId: e.channel_id,
      url: e.url,
      events: e.events,
      enabled: e.enabled,
      disabledReason: e.disabled_reason,
      disabledAt: date(e.disabled_at),
      failingSince: date(e.failing_since),
      ratePerSecond: e.rate_per_second,
      secretSwitchAt: date(e.next_secret_from),
      createdAt: date(e.created_at)!,
    }));
  }

  endpoint(id: string): Promise<WebhookEndpoint | null> {
    return this.em.findOne(WebhookEndpoint, { id, deletedAt: null, channelId: { $ne: null } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  async channel(channelId: string): Promise<{ slug: string; name: string }> {
    const [channel] = await sql<{ slug: string; name: string }[]>(this.em, `select slug, name from channel where id = ?`, [channelId]);
    return channel;
  }

  async deliveriesOfEndpoints(endpointIds: readonly string[], first: number): Promise<KeyedRow<DeliveryView>[]> {
    const rows = await sql<(DeliveryView & { key: string; channel_id: string })[]>(
      this.em,
      `select e.id as key, e.channel_id, x.id, x.event_id, x.event, x.endpoint_id, x.status, x.attempt, x.next_attempt_at,
              x.replay_of, x.last_status_code, x.last_error, x.created_at, x.completed_at
         from webhook_endpoint e
         left join lateral (
           select d.*, ev.type as event from webhook_delivery d join webhook_event ev on ev.id = d.event_id
            where d.endpoint_id = e.id order by ${newestFirst('d')} limit ?) x on true
        where e.id = any(?::uuid[]) and e.channel_id is not null and e.deleted_at is null
        order by e.id, ${newestFirst('x')}`,
      [first, pgUuids(endpointIds)],
    );
    return rows.map((r) => ({ key: r.key, channelId: r.channel_id, item: r.id ? deliveryView(r) : null }));
  }

  async attemptsOfDeliveries(deliveryIds: readonly string[]): Promise<KeyedRow<AttemptView>[]> {
    const rows = await sql<(AttemptView & { key: string; channel_id: string })[]>(
      this.em,
      `select d.id as key, e.channel_id, a.delivery_id, a.attempt_no, a.started_at, a.duration_ms, a.request_headers, a.status_code, a.error, a.response_excerpt
         from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id
         left join webhook_attempt a on a.delivery_id = d.id
        where d.id = any(?::uuid[]) and e.channel_id is not null and e.deleted_at is null
        order by d.id, a.attempt_no, a.started_at`,
      [pgUuids(deliveryIds)],
    );
    return rows.map((r) => ({ key: r.key, channelId: r.channel_id, item: r.delivery_id ? { ...r, started_at: date(r.started_at)! } : null }));
  }

  async deliveryEndpoint(deliveryId: string): Promise<{ endpointId: string; channelId: string; enabled: boolean } | null> {
    const [row] = await sql<{ endpoint_id: string; channel_id: string; enabled: boolean }[]>(
      this.em,
      `select d.endpoint_id, e.channel_id, e.enabled from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id
        where d.id = ? and e.channel_id is not null and e.deleted_at is null`,
      [deliveryId],
    );
    return row ? { endpointId: row.endpoint_id, channelId: row.channel_id, enabled: row.enabled } : null;
  }

  add(endpoint: WebhookEndpoint): void {
    this.em.persist(endpoint);
  }

  async failPending(endpointId: string, reason: string): Promise<void> {
    await sql(
      this.em,
      `update webhook_delivery set status = 'failed', last_error = ?, completed_at = now()
        where endpoint_id = ? and status = 'pending'`,
      [reason, endpointId],
    );
  }

  rotateSecret(actor: Actor, endpointId: string, switchAt?: Date): Promise<{ endpoint: WebhookEndpoint; secret: string; switchAt: Date }> {
    return this.via.endpoints.rotateSecret(actor, endpointId, switchAt, this.em);
  }

  async sendTo(endpointId: string, payload: Payload): Promise<{ eventId: string; deliveryId: string }> {
    const [eventId] = await this.via.outbox.write(this.em, [payload], { kind: 'endpoint', endpointId });
    const [delivery] = await sql<{ id: string }[]>(this.em, `select id from webhook_delivery where event_id = ? and endpoint_id = ?`, [eventId, endpointId]);
    return { eventId, deliveryId: delivery.id };
  }

  async delivery(id: string): Promise<DeliveryView> {
    return (await this.via.log.byIds(this.em, [id]))[0];
  }

  replay(actor: Actor, deliveryId: string): Promise<DeliveryView> {
    return this.via.log.replay(actor, deliveryId, this.em);
  }

  recover(actor: Actor, input: { endpointId: string; since: Date; until?: Date }): Promise<DeliveryView[]> {
    return this.via.log.recover(actor, input, this.em);
  }

  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void {
    audit(this.em, actor, action, subject, data);
  }

  save(): Promise<void> {
    return this.em.flush();
  }
}

/** ChannelWebhookService's storage on MikroORM. */
export function channelWebhookStorage(uow: UnitOfWork, collaborators: WebhookCollaborators): Transactional<ChannelWebhookRepository> {
  return transactional(uow, (em, changed) => new MikroChannelWebhookRepository(em, collaborators, changed));
}
