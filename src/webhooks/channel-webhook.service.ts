import { accessError, auditActor, authorize, type Permission } from '../domain/channels/channel-access';
import type { Clock } from '../domain/clock';
import { DomainError, notFound } from '../domain/errors';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import type { Transactional } from '../domain/unit-of-work';
import type { ChannelWebhookRepository, KeyedRow } from './channel-webhook.repository';
import type { AttemptView, DeliveryView } from './delivery-log.service';
import { checkEndpointTarget, type TargetPolicy } from './ssrf-guard';
import { newWebhookSecret, validateEvents } from './webhook-endpoint.service';
import { WebhookEndpoint } from './webhook.entities';
import { isUuid } from '../domain/ids';
import { storableInstant } from '../domain/date-range';
import { CHANNEL_EVENTS, PING } from './event-catalog';

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
  /** When it was disabled (studio, operator, 410 Gone, or 5 days of failures); null while enabled. */
  disabledAt: Date | null;
  /** Since when every delivery ends failed (endpoint-health.ts); null while healthy. */
  failingSince: Date | null;
  /** Deliveries per second, set by the operator (delivery-rate.ts); null = no limit. */
  ratePerSecond: number | null;
  /** When the last rotated secret takes (or took) over signing; null if never rotated. */
  secretSwitchAt: Date | null;
  createdAt: Date;
}

export interface EndpointPatch {
  url?: string | null;
  events?: string[] | null;
  enabled?: boolean | null;
}

const ENDPOINT_NOT_FOUND = 'webhook endpoint';
const DELIVERY_NOT_FOUND = 'webhook delivery';

function viewOf(e: WebhookEndpoint): ChannelEndpointView {
  return {
    id: e.id,
    channelId: e.channelId!,
    url: e.url,
    events: [...e.events],
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    disabledAt: e.disabledAt,
    failingSince: e.failingSince,
    ratePerSecond: e.ratePerSecond,
    secretSwitchAt: e.nextSecretFrom,
    createdAt: e.createdAt,
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
    private readonly storage: Transactional<ChannelWebhookRepository>,
    private readonly clock: Clock,
    private readonly policy: TargetPolicy,
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
    const endpoints = await this.storage.read().endpointsOfChannels(allowed);
    for (const id of allowed) out.set(id, []);
    for (const e of endpoints) (out.get(e.channelId) as ChannelEndpointView[]).push(e);
    return out;
  }

  /** A new endpoint of the channel; its secret is returned this once. */
  async create(
    principal: StudioPrincipal,
    channelId: string,
    input: { url: string; events: string[] },
  ): Promise<{ endpoint: ChannelEndpointView; secret: string }> {
    authorize(principal, channelId, 'webhooks');
    const url = (await checkEndpointTarget(input.url, this.policy)).toString();
    const events = validateEvents(input.events, CHANNEL_EVENTS);
    return this.storage.run(undefined, async (repo) => {
      const secret = newWebhookSecret();
      const endpoint = Object.assign(new WebhookEndpoint(), { channelId, url, events, secret, createdAt: this.clock.now() });
      repo.add(endpoint);
      repo.audit(auditActor(principal), 'channel-webhooks.create', endpoint.id, { channel: channelId, url, events });
      await repo.save();
      await repo.changed({ topics: ['studio'] });
      return { endpoint: viewOf(endpoint), secret };
    });
  }

  /** Changes the url, the events or whether the endpoint is enabled (at least one of them). */
  async update(principal: StudioPrincipal, endpointId: string, patch: EndpointPatch): Promise<ChannelEndpointView> {
    return this.storage.run(undefined, async (repo) => {
      // Who may act comes first: a refused caller learns nothing from input errors.
      const endpoint = await this.endpoint(repo, principal, endpointId, 'webhooks');
      const url = patch.url == null ? undefined : (await checkEndpointTarget(patch.url, this.policy)).toString();
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
        // Re-enabled: a fresh start (health), and its waiting deliveries resume.
        endpoint.disabledAt = enabled ? null : this.clock.now();
        if (enabled) endpoint.failingSince = null;
      }
      repo.audit(auditActor(principal), 'channel-webhooks.update', endpoint.id, { url, events, enabled });
      await repo.save();
      await repo.changed({ topics: ['studio'] });
      return viewOf(endpoint);
    });
  }

  /** Soft delete: disabled and hidden; deliveries still waiting fail; the log is kept. */
  async remove(principal: StudioPrincipal, endpointId: string): Promise<void> {
    await this.storage.run(undefined, async (repo) => {
      const endpoint = await this.endpoint(repo, principal, endpointId, 'webhooks');
      endpoint.enabled = false;
      endpoint.deletedAt = this.clock.now();
      endpoint.disabledAt = endpoint.deletedAt;
      endpoint.disabledReason = `deleted in the studio by ${principal.email}`;
      await repo.failPending(endpoint.id, 'the endpoint was deleted');
      repo.audit(auditActor(principal), 'channel-webhooks.delete', endpoint.id, { channel: endpoint.channelId, url: endpoint.url });
      await repo.save();
      await repo.changed({ topics: ['studio'] });
    });
  }

  /**
   * As for partner endpoints (docs/decisions.md#rotation): the new secret is returned at once (this once) and takes
   * over at `switchAt` (default 24 h later); until then the old one keeps signing.
   */
  async rotateSecret(
    principal: StudioPrincipal,
    endpointId: string,
    switchAt?: Date | null,
  ): Promise<{ endpoint: ChannelEndpointView; secret: string; switchAt: Date }> {
    return this.storage.run(undefined, async (repo) => {
      await this.endpoint(repo, principal, endpointId, 'webhooks');
      const r = await repo.rotateSecret(auditActor(principal), endpointId, switchAt ?? undefined);
      return { endpoint: viewOf(r.endpoint), secret: r.secret, switchAt: r.switchAt };
    });
  }

  /**
   * The Test button: a `ping` event written through the outbox to this endpoint only, whether or
   * not it subscribed to `ping`. Returns the waiting delivery.
   */
  async ping(principal: StudioPrincipal, endpointId: string): Promise<DeliveryView> {
    return this.storage.run(undefined, async (repo) => {
      const endpoint = await this.endpoint(repo, principal, endpointId, 'webhooks');
      if (!endpoint.enabled) throw new DomainError('invalid_state', 'the endpoint is disabled: enable it to send a test');
      const channel = await repo.channel(endpoint.channelId!);
      const { eventId, deliveryId } = await repo.sendTo(endpoint.id, {
        type: PING,
        data: { channel: { slug: channel.slug, name: channel.name }, message: PING_MESSAGE },
      });
      repo.audit(auditActor(principal), 'channel-webhooks.ping', endpoint.id, { event: eventId, delivery: deliveryId });
      await repo.save();
      await repo.changed({ topics: ['studio'] });
      return repo.delivery(deliveryId);
    });
  }

  /**
   * The newest `first` deliveries of each endpoint, in one statement for all of them; an
   * endpoint the user may not read (or that does not exist) gets its error instead.
   */
  async deliveriesOf(principal: StudioPrincipal, endpointIds: readonly string[], first = 20): Promise<Map<string, DeliveryView[] | DomainError>> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_LOG_PAGE) throw new DomainError('invalid_first', `first must be from 1 to ${MAX_LOG_PAGE}`);
    const ids = endpointIds.filter(isUuid);
    const rows = ids.length === 0 ? [] : await this.storage.read().deliveriesOfEndpoints(ids, first);
    return this.group(principal, endpointIds, rows, ENDPOINT_NOT_FOUND);
  }

  /** Every attempt of each delivery, in order, in one statement. */
  async attemptsOf(principal: StudioPrincipal, deliveryIds: readonly string[]): Promise<Map<string, AttemptView[] | DomainError>> {
    const ids = deliveryIds.filter(isUuid);
    const rows = ids.length === 0 ? [] : await this.storage.read().attemptsOfDeliveries(ids);
    return this.group(principal, deliveryIds, rows, DELIVERY_NOT_FOUND);
  }

  /** Replays one delivery (docs/decisions.md#replay): a new delivery id, X-SVC-Replay-Of, the same payload id, attempts from 1. */
  async redeliver(principal: StudioPrincipal, deliveryId: string): Promise<DeliveryView> {
    return this.storage.run(undefined, async (repo) => {
      if (!isUuid(deliveryId)) throw notFound(DELIVERY_NOT_FOUND);
      const row = await repo.deliveryEndpoint(deliveryId);
      if (!row) throw notFound(DELIVERY_NOT_FOUND);
      authorize(principal, row.channelId, 'webhooks', DELIVERY_NOT_FOUND);
      if (!row.enabled) throw new DomainError('invalid_state', 'the endpoint is disabled: enable it to redeliver');
      return repo.replay(auditActor(principal), deliveryId);
    });
  }

  /** Re-sends every failed delivery of the endpoint created in [since, until) (docs/decisions.md#gone). */
  async recover(principal: StudioPrincipal, endpointId: string, since: Date, until?: Date | null): Promise<DeliveryView[]> {
    return this.storage.run(undefined, async (repo) => {
      const endpoint = await this.endpoint(repo, principal, endpointId, 'webhooks');
      if (Number.isNaN(since.getTime()) || (until && Number.isNaN(until.getTime())))
        throw new DomainError('invalid_since', 'since and until must be ISO 8601 times');
      storableInstant('since', since);
      if (until) storableInstant('until', until);
      if (until && until <= since) throw new DomainError('invalid_until', 'until must be later than since');
      if (!endpoint.enabled) throw new DomainError('invalid_state', 'the endpoint is disabled: enable it to recover its deliveries');
      return repo.recover(auditActor(principal), { endpointId, since, until: until ?? undefined });
    });
  }

  /**
   * One delivery of a channel's endpoint as the log shows it, or null when there is none (or it is
   * another channel's): what the studio's live delivery log loads once per change, for every
   * subscriber, each of whom the subscription checks against the one access rule first.
   */
  async channelDelivery(channelId: string, deliveryId: string): Promise<DeliveryView | null> {
    if (!isUuid(deliveryId)) return null;
    const repo = this.storage.read();
    const owner = await repo.deliveryEndpoint(deliveryId);
    if (!owner || owner.channelId !== channelId) return null;
    return (await repo.delivery(deliveryId)) ?? null;
  }

  /** A live endpoint of a channel the user holds a role on, locked for the change; else not found. */
  private async endpoint(repo: ChannelWebhookRepository, principal: StudioPrincipal, id: string, permission: Permission): Promise<WebhookEndpoint> {
    const endpoint = isUuid(id) ? await repo.endpoint(id) : null;
    if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
    authorize(principal, endpoint.channelId!, permission, ENDPOINT_NOT_FOUND);
    return endpoint;
  }

  /** Rows (one or more per key, each with its channel) to a list per key, checking `read` on each key's channel. */
  private group<T>(principal: StudioPrincipal, keys: readonly string[], rows: KeyedRow<T>[], what: string): Map<string, T[] | DomainError> {
    const out = new Map<string, T[] | DomainError>();
    const channelOf = new Map<string, string>();
    const lists = new Map<string, T[]>();
    for (const r of rows) {
      channelOf.set(r.key, r.channelId);
      const list = lists.get(r.key) ?? [];
      if (r.item !== null) list.push(r.item);
      lists.set(r.key, list);
    }
    for (const key of keys) {
      const channelId = channelOf.get(key);
      out.set(key, channelId ? (accessError(principal, channelId, 'read', what) ?? lists.get(key)!) : notFound(what));
    }
    return out;
  }
}
