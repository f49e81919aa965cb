import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock';
import { DomainError, notFound } from '../errors';
import { displayPrefix, generateToken, hashToken } from '../partners/api-key.token';
import type { Transactional } from '../unit-of-work';
import { BILLING_STATES, Channel, ChannelApiKey, CHANNEL_SCOPES, isChannelScope, PLANS, type BillingState, type Plan } from './channel.entities';
import { isUuid } from '../ids';
import { auditActor, authorize, type OperatorPrincipal, type Principal } from './channel-access';
import type { ChannelRepository } from './channel.repository';
import { refuseControlCharacters } from '../text';

/**
 * Active (not revoked) API keys a channel may hold: enough for every environment and partner
 * integration, while per-key rate limits cannot be multiplied by minting keys without end.
 * One more is refused with `too_many_keys` until one is revoked.
 */
export const MAX_ACTIVE_KEYS_PER_CHANNEL = 25;

/**
 * Channels, their approval, plan and billing (the operator only: an `OperatorPrincipal`, audited
 * as its actor), and their API keys (owners and managers in the studio, or the operator: any
 * principal, checked by channel-access.ts).
 */
export class ChannelService {
  constructor(
    private readonly storage: Transactional<ChannelRepository>,
    private readonly clock: Clock,
  ) {}

  async create(principal: OperatorPrincipal, input: { slug: string; name: string; plan?: string; billing?: string }, tx?: EntityManager): Promise<Channel> {
    if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(input.slug)) throw new DomainError('invalid_slug', 'slug: lowercase letters, digits and hyphens, 2 to 63 characters');
    if (!input.name?.trim()) throw new DomainError('invalid_name', 'name is required');
    refuseControlCharacters(input.name, 'name');
    const plan = checkPlan(input.plan ?? 'free');
    const billing = checkBilling(input.billing ?? 'active');
    return this.storage.run(tx, async (repo) => {
      if (await repo.bySlug(input.slug)) throw new DomainError('conflict', `channel "${input.slug}" already exists`);
      const channel = Object.assign(new Channel(), { slug: input.slug, name: input.name.trim(), plan, billingState: billing });
      repo.add(channel);
      repo.audit(auditActor(principal), 'channels.create', channel.slug, { plan, billing });
      await repo.save();
      return channel;
    });
  }

  async approve(principal: OperatorPrincipal, slug: string, tx?: EntityManager): Promise<Channel> {
    return this.change(
      principal,
      slug,
      'channels.approve',
      (c) => {
        if (c.approvedAt) throw new DomainError('invalid_state', `channel "${slug}" is already approved`);
        c.approvedAt = this.clock.now();
      },
      tx,
    );
  }

  async setPlan(principal: OperatorPrincipal, slug: string, plan: string, tx?: EntityManager): Promise<Channel> {
    const checked = checkPlan(plan);
    return this.change(
      principal,
      slug,
      'channels.set-plan',
      (c) => {
        c.plan = checked;
      },
      tx,
    );
  }

  async setBilling(principal: OperatorPrincipal, slug: string, billing: string, tx?: EntityManager): Promise<Channel> {
    const checked = checkBilling(billing);
    return this.change(
      principal,
      slug,
      'channels.set-billing',
      (c) => {
        c.billingState = checked;
      },
      tx,
    );
  }

  async list(): Promise<Channel[]> {
    return this.storage.read().all();
  }

  /**
   * Returns the key once; only its hash is stored. Owners, managers and the operator; a studio
   * user's key records who made it. `fixedToken` is for the demo's documented keys.
   */
  async createKey(
    principal: Principal,
    input: { channelId: string; name: string; scopes: string[]; fixedToken?: string },
    tx?: EntityManager,
  ): Promise<{ key: ChannelApiKey; token: string }> {
    authorize(principal, input.channelId, 'keys');
    const scopes = [...new Set(input.scopes)];
    if (scopes.length === 0 || !scopes.every(isChannelScope)) {
      throw new DomainError('invalid_scopes', `scopes must be among ${CHANNEL_SCOPES.join(', ')}`);
    }
    if (!input.name?.trim() || input.name.length > 100) throw new DomainError('invalid_name', 'a key name of 1 to 100 characters is required');
    refuseControlCharacters(input.name, 'name', 'a key name');
    return this.storage.run(tx, async (repo) => {
      // Locked, so two concurrent creations cannot both pass the count.
      const channel = await repo.byId(input.channelId, { lock: true });
      if (!channel) throw notFound('channel');
      const active = await repo.countActiveKeys(channel.id);
      if (active >= MAX_ACTIVE_KEYS_PER_CHANNEL) {
        throw new DomainError(
          'too_many_keys',
          `the channel already has ${active} active keys, the most allowed is ${MAX_ACTIVE_KEYS_PER_CHANNEL}: revoke one first`,
        );
      }
      const token = input.fixedToken ?? generateToken('ck');
      const key = Object.assign(new ChannelApiKey(), {
        channel,
        name: input.name.trim(),
        prefix: displayPrefix(token),
        hash: hashToken(token),
        scopes,
        createdBy: principal.kind === 'studio' ? principal.userId : null,
      });
      repo.add(key);
      repo.audit(auditActor(principal), 'channel-keys.create', key.id, { channel: channel.slug, scopes });
      await repo.save();
      // unknown keys are cached too: the new one must work at once
      await repo.changed({ topics: ['channel_keys'] });
      return { key, token };
    });
  }

  async revokeKey(principal: Principal, channelId: string, keyId: string, tx?: EntityManager): Promise<ChannelApiKey> {
    authorize(principal, channelId, 'keys');
    return this.storage.run(tx, async (repo) => {
      const key = isUuid(keyId) ? await repo.key(channelId, keyId) : null;
      if (!key) throw notFound('key');
      if (key.revokedAt) throw new DomainError('invalid_state', 'the key is already revoked');
      key.revokedAt = this.clock.now();
      repo.audit(auditActor(principal), 'channel-keys.revoke', key.id);
      await repo.save();
      await repo.changed({ topics: ['channel_keys'] });
      return key;
    });
  }

  async bySlug(slug: string): Promise<Channel> {
    const channel = await this.storage.read().bySlug(slug);
    if (!channel) throw notFound(`channel "${slug}"`);
    return channel;
  }

  private async change(principal: OperatorPrincipal, slug: string, action: string, apply: (c: Channel) => void, tx?: EntityManager): Promise<Channel> {
    return this.storage.run(tx, async (repo) => {
      const channel = await repo.bySlug(slug);
      if (!channel) throw notFound(`channel "${slug}"`);
      apply(channel);
      repo.audit(auditActor(principal), action, slug, { plan: channel.plan, billing: channel.billingState });
      await repo.save();
      // approval shows the channel on the public schedules; plan and billing gate its keys' use
      await repo.changed({ topics: ['channel_keys', 'tv'] });
      return channel;
    });
  }
}

function checkPlan(plan: string): Plan {
  if (!(PLANS as readonly string[]).includes(plan)) throw new DomainError('invalid_plan', `plan must be one of ${PLANS.join(', ')}`);
  return plan as Plan;
}

function checkBilling(billing: string): BillingState {
  if (!(BILLING_STATES as readonly string[]).includes(billing)) throw new DomainError('invalid_billing', `billing must be one of ${BILLING_STATES.join(', ')}`);
  return billing as BillingState;
}
