import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { audit } from '../domain/audit/audit.log';
import { accessError, auditActor, authorize, type Permission } from '../domain/channels/channel-access';
import type { Clock } from '../domain/clock';
import { DomainError, notFound } from '../domain/errors';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import { announceChange } from '../domain/announce-change';
import { inTransaction, sql } from '../domain/unit-of-work';
import { deliveryView, type AttemptView, type DeliveryLogService, type DeliveryView } from './delivery-log.service';
import type { Outbox } from './outbox';
import { validateEndpointUrl, type TargetPolicy } from './ssrf-guard';
import { newWebhookSecret, validateEvents, type WebhookEndpointService } from './webhook-endpoint.service';
import { WebhookEndpoint } from './webhook.entities';
import { isUuid } from '../domain/ids';

/** What a channel's endpoint may subscribe to; `ping` is also what the studio's Test button sends. */
export const CHANNEL_EVENTS = ['broadcast.scheduled', 'broadcast.live', 'broadcast.ended', 'replay.ready', 'ping'] as const;
export const PING_MESSAGE = 'ping from the studio';
/** The most deliveries one endpoint's log shows at a time. */
export const MAX_LOG_PAGE = 100;

export interface ChannelEndpointView {
  id: string;
  channelId: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  /** When the last rotated secret takes (or took) over signing; null if never rotated. */
  secretSwitchAt: Date | null;
  createdAt: Date;
}

export interface EndpointPatch {
  url?: string | null;
  events?: string[] | null;
  enabled?: boolean | null;
}

interface EndpointRow {
  id: string;
  channel_id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  next_secret_from: Date | string | null;
  created_at: Date | string;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
const pgUuids = (ids: readonly string[]) => `{${ids.join(',')}}`;
const ENDPOINT_NOT_FOUND = 'webhook endpoint';
const DELIVERY_NOT_FOUND = 'webhook delivery';

function viewOf(e: WebhookEndpoint | EndpointRow): ChannelEndpointView {
  if (e instanceof WebhookEndpoint) {
    return { id: e.id, channelId: e.channelId!, url: e.url, events: [...e.events], enabled: e.enabled, disabledReason: e.disabledReason, secretSwitchAt: e.nextSecretFrom, createdAt: e.createdAt };
  }
  return {
    id: e.id, channelId: e.channel_id, url: e.url, events: e.events, enabled: e.enabled, disabledReason: e.disabled_reason,
    secretSwitchAt: date(e.next_secret_from), createdAt: date(e.created_at)!,
  };
}

/**
 * A channel's webhook endpoints and their delivery log, managed by studio users (docs/decisions.md#studio-schema). Every
 * method checks access to the endpoint's channel with the domain's one rule (channel-access.ts):
 * `read` (every role) lists endpoints and deliveries, `webhooks` (owner, manager) changes them. A
 * channel the user holds no role on, and any endpoint or delivery of such a channel, is not
 * found. Changes are audited as `studio:<email>`.
 *
 * Deleting is a soft delete: the endpoint is disabled and hidden from the studio, its waiting
 * deliveries fail ("the endpoint was deleted"), and its delivery log stays for the operator.
 */
export class ChannelWebhookService {
  constructor(
    private readonly root: EntityManager,
    private readonly clock: Clock,
    private readonly policy: TargetPolicy,
    private readonly outbox: Outbox,
    private readonly endpoints: WebhookEndpointService,
    private readonly log: DeliveryLogService,
  ) {}

  /** The endpoints of each channel (oldest first); a channel the user may not read gets its error instead. */
  async endpointsOf(principal: StudioPrincipal, channelIds: readonly string[]): Promise<Map<string, ChannelEndpointView[] | DomainError>> {
    const out = new Map<string, ChannelEndpointView[] | DomainError>();
    const allowed = channelIds.filter((id) => {
      const refusal = accessError(principal, id, 'read');
      if (refusal) out.set(id, refusal);
      return !refusal;
    });
    if (allowed.length === 0) return out;
    const rows = await this.read<EndpointRow[]>(
      `select id, channel_id, url, events, enabled, disabled_reason, next_secret_from, created_at
         from webhook_endpoint where channel_id = any(?::uuid[]) and deleted_at is null order by created_at, id`, [pgUuids(allowed)]);
    for (const id of allowed) out.set(id, []);
    for (const r of rows) (out.get(r.channel_id) as ChannelEndpointView[]).push(viewOf(r));
    return out;
  }

  /** A new endpoint of the channel; its secret is returned this once. */
  async create(principal: StudioPrincipal, channelId: string, input: { url: string; events: string[] }): Promise<{ endpoint: ChannelEndpointView; secret: string }> {
    authorize(principal, channelId, 'webhooks');
    const url = validateEndpointUrl(input.url, this.policy).toString();
    const events = validateEvents(input.events, CHANNEL_EVENTS);
    return inTransaction(this.root, undefined, async (em) => {
      const secret = newWebhookSecret();
      const endpoint = Object.assign(new WebhookEndpoint(), { channelId, url, events, secret, createdAt: this.clock.now() });
      em.persist(endpoint);
      audit(em, auditActor(principal), 'channel-webhooks.create', endpoint.id, { channel: channelId, url, events });
      await em.flush();
      await announceChange(em, 'studio');
      return { endpoint: viewOf(endpoint), secret };
    });
  }

  /** Changes the url, the events or whether the endpoint is enabled (at least one of them). */
  async update(principal: StudioPrincipal, endpointId: string, patch: EndpointPatch): Promise<ChannelEndpointView> {
    return inTransaction(this.root, undefined, async (em) => {
      // Who may act comes first: a refused caller learns nothing from input errors.
      const endpoint = await this.endpoint(em, principal, endpointId, 'webhooks');
      const url = patch.url == null ? undefined : validateEndpointUrl(patch.url, this.policy).toString();
      const events = patch.events == null ? undefined : validateEvents(patch.events, CHANNEL_EVENTS);
      const enabled = patch.enabled ?? undefined;
      if (url === undefined && events === undefined && enabled === undefined) {
        throw new DomainError('invalid_patch', 'nothing to change: give url, events or enabled');
      }
      if (url !== undefined) endpoint.url = url;
      if (events !== undefined) endpoint.events = events;
      if (enabled !== undefined && enabled !== endpoint.enabled) {
        endpoint.enabled = enabled;
        endpoint.disabledReason = enabled ? null : `disabled in the studio by ${principal.email}`;
      }
      audit(em, auditActor(principal), 'channel-webhooks.update', endpoint.id, { url, events, enabled });
      await em.flush();
      await announceChange(em, 'studio');
      return viewOf(endpoint);
    });
  }

  /** Soft delete: disabled and hidden; deliveries still waiting fail; the log is kept. */
  async remove(principal: StudioPrincipal, endpointId: string): Promise<void> {
    await inTransaction(this.root, undefined, async (em) => {
      const endpoint = await this.endpoint(em, principal, endpointId, 'webhooks');
      endpoint.enabled = false;
      endpoint.deletedAt = this.clock.now();
      endpoint.disabledReason = `deleted in the studio by ${principal.email}`;
      await sql(em,
        `update webhook_delivery set status = 'failed', last_error = 'the endpoint was deleted', completed_at = now()
          where endpoint_id = ? and status = 'pending'`, [endpoint.id]);
      audit(em, auditActor(principal), 'channel-webhooks.delete', endpoint.id, { channel: endpoint.channelId, url: endpoint.url });
      await em.flush();
      await announceChange(em, 'studio');
    });
  }

  /**
   * As for partner endpoints (docs/decisions.md#rotation): the new secret is returned at once (this once) and takes
   * over at `switchAt` (default 24 h later); until then the old one keeps signing.
   */
  async rotateSecret(principal: StudioPrincipal, endpointId: string, switchAt?: Date | null): Promise<{ endpoint: ChannelEndpointView; secret: string; switchAt: Date }> {
    return inTransaction(this.root, undefined, async (em) => {
      await this.endpoint(em, principal, endpointId, 'webhooks');
      const r = await this.endpoints.rotateSecret(auditActor(principal), endpointId, switchAt ?? undefined, em);
      return { endpoint: viewOf(r.endpoint), secret: r.secret, switchAt: r.switchAt };
    });
  }

  /**
   * The Test button: a `ping` event written through the outbox to this endpoint only, whether or
   * not it subscribed to `ping`. Returns the waiting delivery.
   */
  async ping(principal: StudioPrincipal, endpointId: string): Promise<DeliveryView> {
    return inTransaction(this.root, undefined, async (em) => {
      const endpoint = await this.endpoint(em, principal, endpointId, 'webhooks');
      if (!endpoint.enabled) throw new DomainError('invalid_state', 'the endpoint is disabled: enable it to send a test');
      const [channel] = await sql<{ slug: string; name: string }[]>(em, `select slug, name from channel where id = ?`, [endpoint.channelId]);
      const [eventId] = await this.outbox.write(em, [{ type: 'ping', data: { channel: { slug: channel.slug, name: channel.name }, message: PING_MESSAGE } }],
        { kind: 'endpoint', endpointId: endpoint.id });
      const [delivery] = await sql<{ id: string }[]>(em, `select id from webhook_delivery where event_id = ? and endpoint_id = ?`, [eventId, endpoint.id]);
      audit(em, auditActor(principal), 'channel-webhooks.ping', endpoint.id, { event: eventId, delivery: delivery.id });
      await em.flush();
      await announceChange(em, 'studio');
      return (await this.log.byIds(em, [delivery.id]))[0];
    });
  }

  /**
   * The newest `first` deliveries of each endpoint, in one statement for all of them; an
   * endpoint the user may not read (or that does not exist) gets its error instead.
   */
  async deliveriesOf(principal: StudioPrincipal, endpointIds: readonly string[], first = 20): Promise<Map<string, DeliveryView[] | DomainError>> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_LOG_PAGE) throw new DomainError('invalid_first', `first must be from 1 to ${MAX_LOG_PAGE}`);
    const ids = endpointIds.filter(isUuid);
    const rows = ids.length === 0 ? [] : await this.read<(DeliveryView & { key: string; channel_id: string })[]>(
      `select e.id as key, e.channel_id, x.id, x.event_id, x.event, x.endpoint_id, x.status, x.attempt, x.next_attempt_at,
              x.replay_of, x.last_status_code, x.last_error, x.created_at, x.completed_at
         from webhook_endpoint e
         left join lateral (
           select d.*, ev.type as event from webhook_delivery d join webhook_event ev on ev.id = d.event_id
            where d.endpoint_id = e.id order by d.created_at desc, d.id desc limit ?) x on true
        where e.id = any(?::uuid[]) and e.channel_id is not null and e.deleted_at is null
        order by e.id, x.created_at desc, x.id desc`, [first, pgUuids(ids)]);
    return this.group(principal, endpointIds, rows, ENDPOINT_NOT_FOUND, (r) => (r.id ? deliveryView(r) : null));
  }

  /** Every attempt of each delivery, in order, in one statement. */
  async attemptsOf(principal: StudioPrincipal, deliveryIds: readonly string[]): Promise<Map<string, AttemptView[] | DomainError>> {
    const ids = deliveryIds.filter(isUuid);
    const rows = ids.length === 0 ? [] : await this.read<(AttemptView & { key: string; channel_id: string })[]>(
      `select d.id as key, e.channel_id, a.delivery_id, a.attempt_no, a.started_at, a.duration_ms, a.request_headers, a.status_code, a.error, a.response_excerpt
         from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id
         left join webhook_attempt a on a.delivery_id = d.id
        where d.id = any(?::uuid[]) and e.channel_id is not null and e.deleted_at is null
        order by d.id, a.attempt_no, a.started_at`, [pgUuids(ids)]);
    return this.group(principal, deliveryIds, rows, DELIVERY_NOT_FOUND, (r) => (r.delivery_id ? { ...r, started_at: date(r.started_at)! } : null));
  }

  /** Replays one delivery (docs/decisions.md#replay): a new delivery id, X-SVC-Replay-Of, the same payload id, attempts from 1. */
  async redeliver(principal: StudioPrincipal, deliveryId: string): Promise<DeliveryView> {
    return inTransaction(this.root, undefined, async (em) => {
      if (!isUuid(deliveryId)) throw notFound(DELIVERY_NOT_FOUND);
      const [row] = await sql<{ endpoint_id: string; channel_id: string; enabled: boolean }[]>(em,
        `select d.endpoint_id, e.channel_id, e.enabled from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id
          where d.id = ? and e.channel_id is not null and e.deleted_at is null`, [deliveryId]);
      if (!row) throw notFound(DELIVERY_NOT_FOUND);
      authorize(principal, row.channel_id, 'webhooks', DELIVERY_NOT_FOUND);
      if (!row.enabled) throw new DomainError('invalid_state', 'the endpoint is disabled: enable it to redeliver');
      return this.log.replay(auditActor(principal), deliveryId, em);
    });
  }

  /** Re-sends every failed delivery of the endpoint created in [since, until) (docs/decisions.md#gone). */
  async recover(principal: StudioPrincipal, endpointId: string, since: Date, until?: Date | null): Promise<DeliveryView[]> {
    return inTransaction(this.root, undefined, async (em) => {
      const endpoint = await this.endpoint(em, principal, endpointId, 'webhooks');
      if (Number.isNaN(since.getTime()) || (until && Number.isNaN(until.getTime()))) throw new DomainError('invalid_since', 'since and until must be ISO 8601 times');
      if (until && until <= since) throw new DomainError('invalid_until', 'until must be later than since');
      if (!endpoint.enabled) throw new DomainError('invalid_state', 'the endpoint is disabled: enable it to recover its deliveries');
      return this.log.recover(auditActor(principal), { endpointId, since, until: until ?? undefined }, em);
    });
  }

  /** A live endpoint of a channel the user holds a role on, locked for the change; else not found. */
  private async endpoint(em: EntityManager, principal: StudioPrincipal, id: string, permission: Permission): Promise<WebhookEndpoint> {
    const endpoint = isUuid(id)
      ? await em.findOne(WebhookEndpoint, { id, deletedAt: null, channelId: { $ne: null } }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
    authorize(principal, endpoint.channelId!, permission, ENDPOINT_NOT_FOUND);
    return endpoint;
  }

  /** Rows (one or more per key, each with its channel) to a list per key, checking `read` on each key's channel. */
  private group<R extends { key: string; channel_id: string }, T>(
    principal: StudioPrincipal, keys: readonly string[], rows: R[], what: string, item: (r: R) => T | null,
  ): Map<string, T[] | DomainError> {
    const out = new Map<string, T[] | DomainError>();
    const channelOf = new Map<string, string>();
    const lists = new Map<string, T[]>();
    for (const r of rows) {
      channelOf.set(r.key, r.channel_id);
      const list = lists.get(r.key) ?? [];
      const x = item(r);
      if (x !== null) list.push(x);
      lists.set(r.key, list);
    }
    for (const key of keys) {
      const channelId = channelOf.get(key);
      out.set(key, channelId ? accessError(principal, channelId, 'read', what) ?? lists.get(key)! : notFound(what));
    }
    return out;
  }

  /** Reads outside a transaction, on the primary: the studio sees its own changes at once. */
  private read<T>(query: string, params: unknown[]): Promise<T> {
    return this.root.getConnection('write').execute(query, params) as Promise<T>;
  }
}
