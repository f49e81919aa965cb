import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import type { Clock } from '../clock';
import { DomainError, notFound } from '../errors';
import type { UnitOfWork } from '../unit-of-work';
import { checkIssuedExpiry, displayPrefix, generateToken, hashToken } from './api-key.token';
import { ApiKey, Partner, PARTNER_SCOPES } from './partner.entities';
import { isUuid } from '../ids';
import { refuseControlCharacters } from '../text';
import { dateOutOfRange, isStorableInstant } from '../date-range';

export interface IssueKeyInput {
  partnerSlug: string;
  name: string;
  scopes: string[];
  rateLimitPerMinute?: number;
  expiresAt?: Date | null;
  /** Only for the demo's documented fixed keys; real keys are always generated. */
  fixedToken?: string;
}

export class PartnerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, input: { slug: string; name: string }, tx?: EntityManager): Promise<Partner> {
    if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(input.slug)) throw new DomainError('invalid_slug', 'slug: lowercase letters, digits and hyphens, 2 to 63 characters');
    if (!input.name?.trim()) throw new DomainError('invalid_name', 'name is required');
    refuseControlCharacters(input.name, 'name');
    return this.uow.run(tx, async (em, changed) => {
      if (await em.findOne(Partner, { slug: input.slug })) throw new DomainError('conflict', `partner "${input.slug}" already exists`);
      const partner = Object.assign(new Partner(), { slug: input.slug, name: input.name.trim() });
      em.persist(partner);
      audit(em, actor, 'partners.create', partner.slug);
      await em.flush();
      return partner;
    });
  }

  async setStatus(actor: Actor, slug: string, status: 'active' | 'suspended', tx?: EntityManager): Promise<Partner> {
    return this.uow.run(tx, async (em, changed) => {
      const partner = await em.findOne(Partner, { slug });
      if (!partner) throw notFound(`partner "${slug}"`);
      if (partner.status === status) throw new DomainError('invalid_state', `partner "${slug}" is already ${status}`);
      partner.status = status;
      audit(em, actor, status === 'suspended' ? 'partners.suspend' : 'partners.reinstate', slug);
      await changed({ topics: ['partner_keys'] });
      return partner;
    });
  }

  /** Returns the key in clear exactly once; only its hash is stored. */
  async issueKey(actor: Actor, input: IssueKeyInput, tx?: EntityManager): Promise<{ key: ApiKey; token: string }> {
    const scopes = [...new Set(input.scopes)];
    const bad = scopes.filter((s) => !(PARTNER_SCOPES as readonly string[]).includes(s));
    if (scopes.length === 0 || bad.length) throw new DomainError('invalid_scopes', `scopes must be among ${PARTNER_SCOPES.join(', ')}`);
    const limit = input.rateLimitPerMinute ?? 60;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000_000) throw new DomainError('invalid_limit', 'limit must be a positive integer');
    if (input.expiresAt && !isStorableInstant(input.expiresAt)) throw dateOutOfRange('expires', 'an expiry');
    if (!input.name?.trim()) throw new DomainError('invalid_name', 'name is required');
    refuseControlCharacters(input.name, 'name');
    // The demo's and tests' documented fixed keys include an expired one; a door never sets fixedToken.
    const expiresAt = input.fixedToken ? (input.expiresAt ?? null) : checkIssuedExpiry(input.expiresAt, this.clock.now());
    return this.uow.run(tx, async (em, changed) => {
      const partner = await em.findOne(Partner, { slug: input.partnerSlug });
      if (!partner) throw notFound(`partner "${input.partnerSlug}"`);
      const token = input.fixedToken ?? generateToken('pk');
      const key = Object.assign(new ApiKey(), {
        partner,
        name: input.name.trim(),
        prefix: displayPrefix(token),
        hash: hashToken(token),
        scopes,
        rateLimitPerMinute: limit,
        expiresAt,
      });
      em.persist(key);
      audit(em, actor, 'keys.issue', key.id, { partner: partner.slug, scopes, limit });
      // unknown keys are cached too: the new one must work at once
      await changed({ topics: ['partner_keys'] });
      return { key, token };
    });
  }

  async revokeKey(actor: Actor, keyId: string, tx?: EntityManager): Promise<ApiKey> {
    return this.uow.run(tx, async (em, changed) => {
      if (!isUuid(keyId)) throw new DomainError('invalid_id', 'a key id is a uuid');
      const key = await em.findOne(ApiKey, { id: keyId });
      if (!key) throw notFound(`key "${keyId}"`);
      if (key.revokedAt) throw new DomainError('invalid_state', 'key is already revoked');
      key.revokedAt = this.clock.now();
      audit(em, actor, 'keys.revoke', key.id);
      await changed({ topics: ['partner_keys'] });
      return key;
    });
  }

  async list(): Promise<Partner[]> {
    return this.uow.read().find(Partner, {}, { orderBy: { slug: 'asc' } });
  }

  async listKeys(partnerSlug: string): Promise<ApiKey[]> {
    const em = this.uow.read();
    const partner = await em.findOne(Partner, { slug: partnerSlug });
    if (!partner) throw notFound(`partner "${partnerSlug}"`);
    return em.find(ApiKey, { partner }, { orderBy: { createdAt: 'asc' } });
  }
}
