import type { EntityManager } from '@mikro-orm/postgresql';
import { audit } from '../audit/audit.log';
import { auditActor, type OperatorPrincipal } from './channel-access';
import { DomainError, notFound } from '../errors';
import { announceChange } from '../announce-change';
import { inTransaction } from '../unit-of-work';
import { Channel, ChannelMember, ROLES, StudioUser, type Role } from './channel.entities';
import { hashPassword } from './password';

/** Studio users and their roles on channels (created by the operator, docs/decisions.md#operator). */
export class StudioUserService {
  constructor(private readonly root: EntityManager) {}

  async create(principal: OperatorPrincipal, input: { email: string; password: string }, tx?: EntityManager): Promise<StudioUser> {
    const email = input.email?.trim().toLowerCase();
    if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new DomainError('invalid_email', 'a valid email address is required');
    if (!input.password || input.password.length < 10 || input.password.length > 200) throw new DomainError('invalid_password', 'the password must have 10 to 200 characters');
    const passwordHash = await hashPassword(input.password);
    return inTransaction(this.root, tx, async (em) => {
      if (await em.findOne(StudioUser, { email })) throw new DomainError('conflict', `a studio user "${email}" already exists`);
      const user = Object.assign(new StudioUser(), { email, passwordHash });
      em.persist(user);
      audit(em, auditActor(principal), 'studio-users.create', email);
      await em.flush();
      return user;
    });
  }

  /** Gives a user a role on a channel, replacing any role they had there. */
  async grant(principal: OperatorPrincipal, input: { email: string; channelSlug: string; role: string }, tx?: EntityManager): Promise<ChannelMember> {
    if (!(ROLES as readonly string[]).includes(input.role)) throw new DomainError('invalid_role', `role must be one of ${ROLES.join(', ')}`);
    return inTransaction(this.root, tx, async (em) => {
      const user = await em.findOne(StudioUser, { email: input.email.trim().toLowerCase() });
      if (!user) throw notFound(`studio user "${input.email}"`);
      const channel = await em.findOne(Channel, { slug: input.channelSlug });
      if (!channel) throw notFound(`channel "${input.channelSlug}"`);
      let member = await em.findOne(ChannelMember, { user, channel });
      if (member) member.role = input.role as Role;
      else member = em.create(ChannelMember, { user, channel, role: input.role as Role, createdAt: new Date() });
      audit(em, auditActor(principal), 'studio-users.grant', user.email, { channel: channel.slug, role: input.role });
      await em.flush();
      // signed-in users' roles are cached with their sessions
      await announceChange(em, 'studio_sessions');
      return member;
    });
  }
}
