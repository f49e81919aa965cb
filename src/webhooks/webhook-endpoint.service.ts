import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../domain/audit/audit.log';
import type { Clock } from '../domain/clock';
import { DomainError, notFound } from '../domain/errors';
import { Partner } from '../domain/partners/partner.entities';
import type { UnitOfWork } from '../domain/unit-of-work';
import { checkEndpointTarget, type TargetPolicy } from './ssrf-guard';
import { WebhookEndpoint } from './webhook.entities';
import { isUuid } from '../domain/ids';
import { DATE_RANGE_TEXT, isStorableInstant } from '../domain/date-range';
import { PARTNER_EVENTS } from './event-catalog';
import { validateRate } from './delivery-rate';

const DEFAULT_SWITCH_MS = 24 * 3600 * 1000;

/**
 * `whsec_` + 32 random bytes in base64url (docs/decisions.md#secrets), drawn again while the text
 * holds a `-` or `_`: then it is standard base64 too, which Standard Webhooks libraries decode as
 * it is (about four draws on average; 254 of the 256 bits of entropy remain).
 */
export function newWebhookSecret(): string {
  for (;;) {
    const text = randomBytes(32).toString('base64url');
    if (!/[-_]/.test(text)) return `whsec_${text}`;
  }
}

/** The secret that signs at `now`: a rotated secret takes over at its switch time (docs/decisions.md#rotation). */
export function signingSecret(endpoint: Pick<WebhookEndpoint, 'secret' | 'nextSecret' | 'nextSecretFrom'>, now: Date): string {
  return endpoint.nextSecret && endpoint.nextSecretFrom && endpoint.nextSecretFrom <= now ? endpoint.nextSecret : endpoint.secret;
}

/**
 * Every secret that signs `webhook-signature` at `now`: during a rotation, before its switch, both
 * the old one and the new one (a receiver may already hold either); otherwise the one that signs.
 */
export function activeSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'nextSecret' | 'nextSecretFrom'>, now: Date): string[] {
  return endpoint.nextSecret && endpoint.nextSecretFrom && endpoint.nextSecretFrom > now
    ? [endpoint.secret, endpoint.nextSecret]
    : [signingSecret(endpoint, now)];
}

export function validateEvents(events: string[], allowed: readonly string[]): string[] {
  const unique = [...new Set(events.map((e) => e.trim()).filter(Boolean))];
  const bad = unique.filter((e) => !allowed.includes(e));
  if (unique.length === 0 || bad.length) {
    throw new DomainError('invalid_events', `events must be among ${allowed.join(', ')}${bad.length ? `; unknown: ${bad.join(', ')}` : ''}`);
  }
  return unique;
}

/** Webhook endpoints: registered, rotated and disabled by the operator (partners). */
export class WebhookEndpointService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly policy: TargetPolicy,
  ) {}

  async register(
    actor: Actor,
    input: { partnerSlug: string; url: string; events: string[] },
    tx?: EntityManager,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const url = (await checkEndpointTarget(input.url, this.policy)).toString();
    const events = validateEvents(input.events, PARTNER_EVENTS);
    return this.uow.run(tx, async (em, changed) => {
      const partner = await em.findOne(Partner, { slug: input.partnerSlug });
      if (!partner) throw notFound(`partner "${input.partnerSlug}"`);
      const secret = newWebhookSecret();
      const endpoint = Object.assign(new WebhookEndpoint(), { partner, url, events, secret });
      em.persist(endpoint);
      audit(em, actor, 'webhooks.register', endpoint.id, { partner: partner.slug, url, events });
      await changed({ topics: ['studio'] });
      return { endpoint, secret };
    });
  }

  /** Issues a new secret now (shown once); the old one keeps signing until `switchAt`. */
  async rotateSecret(actor: Actor, id: string, switchAt?: Date, tx?: EntityManager): Promise<{ endpoint: WebhookEndpoint; secret: string; switchAt: Date }> {
    return this.uow.run(tx, async (em, changed) => {
      const endpoint = await this.byId(em, id);
      const now = this.clock.now();
      const at = switchAt ?? new Date(now.getTime() + DEFAULT_SWITCH_MS);
      if (Number.isNaN(at.getTime())) throw new DomainError('invalid_switch_at', 'switch-at must be an ISO 8601 time');
      if (!isStorableInstant(at)) throw new DomainError('invalid_switch_at', `switch-at must be a time ${DATE_RANGE_TEXT}`);
      // A rotation that already took effect becomes the base secret before the next one starts.
      endpoint.secret = signingSecret(endpoint, now);
      endpoint.nextSecret = newWebhookSecret();
      endpoint.nextSecretFrom = at;
      audit(em, actor, 'webhooks.rotate-secret', endpoint.id, { switch_at: at.toISOString() });
      await changed({ topics: ['studio'] });
      return { endpoint, secret: endpoint.nextSecret, switchAt: at };
    });
  }

  async setEnabled(actor: Actor, id: string, enabled: boolean, reason: string | null, tx?: EntityManager): Promise<WebhookEndpoint> {
    return this.uow.run(tx, async (em, changed) => {
      const endpoint = await this.byId(em, id);
      endpoint.enabled = enabled;
      endpoint.disabledReason = enabled ? null : (reason ?? 'disabled by the operator');
      // Re-enabled: a fresh start (health, endpoint-health.ts), and its waiting deliveries resume.
      endpoint.disabledAt = enabled ? null : this.clock.now();
      if (enabled) endpoint.failingSince = null;
      audit(em, actor, enabled ? 'webhooks.enable' : 'webhooks.disable', endpoint.id, { reason });
      await changed({ topics: ['studio'] });
      return endpoint;
    });
  }

  /** Sets the endpoint's delivery rate, deliveries per second over every worker (delivery-rate.ts); null removes the limit. */
  async setRate(actor: Actor, id: string, ratePerSecond: number | null, tx?: EntityManager): Promise<WebhookEndpoint> {
    const rate = validateRate(ratePerSecond);
    return this.uow.run(tx, async (em, changed) => {
      const endpoint = await this.byId(em, id);
      endpoint.ratePerSecond = rate;
      audit(em, actor, 'webhooks.set-rate', endpoint.id, { per_second: rate });
      await changed({ topics: ['studio'] });
      return endpoint;
    });
  }

  async list(filter: { partnerSlug?: string } = {}): Promise<WebhookEndpoint[]> {
    const em = this.uow.read();
    const where = filter.partnerSlug ? { partner: { slug: filter.partnerSlug } } : { partner: { $ne: null } };
    return em.find(WebhookEndpoint, where, { populate: ['partner'], orderBy: { createdAt: 'asc' } });
  }

  private async byId(em: EntityManager, id: string): Promise<WebhookEndpoint> {
    if (!isUuid(id)) throw new DomainError('invalid_id', 'an endpoint id is a uuid');
    const endpoint = await em.findOne(WebhookEndpoint, { id, deletedAt: null });
    if (!endpoint) throw notFound(`webhook endpoint "${id}"`);
    return endpoint;
  }
}
