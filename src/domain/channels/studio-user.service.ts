import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, notFound } from '../errors';
import type { Transactional } from '../unit-of-work';
import { auditActor, type OperatorPrincipal } from './channel-access';
import { ChannelMember, ROLES, StudioUser, type Role } from './channel.entities';
import { hashPassword } from './password';
import type { StudioUserRepository } from './studio-user.repository';

/** Studio users and their roles on channels (created by the operator, docs/decisions.md#operator). */
export class StudioUserService {
  constructor(private readonly storage: Transactional<StudioUserRepository>) {}

  async create(principal: OperatorPrincipal, input: { email: string; password: string }, tx?: EntityManager): Promise<StudioUser> {
    const email = input.email?.trim().toLowerCase();
    if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new DomainError('invalid_email', 'a valid email address is required');
    if (!input.password || input.password.length < 10 || input.password.length > 200)
      throw new DomainError('invalid_password', 'the password must have 10 to 200 characters');
    const passwordHash = await hashPassword(input.password);
    return this.storage.run(tx, async (repo) => {
      if (await repo.userByEmail(email)) throw new DomainError('conflict', `a studio user "${email}" already exists`);
      const user = Object.assign(new StudioUser(), { email, passwordHash });
      repo.add(user);
      repo.audit(auditActor(principal), 'studio-users.create', email);
      await repo.save();
      return user;
    });
  }

  /** Gives a user a role on a channel, replacing any role they had there. */
  async grant(principal: OperatorPrincipal, input: { email: string; channelSlug: string; role: string }, tx?: EntityManager): Promise<ChannelMember> {
    if (!(ROLES as readonly string[]).includes(input.role)) throw new DomainError('invalid_role', `role must be one of ${ROLES.join(', ')}`);
    const role = input.role as Role;
    return this.storage.run(tx, async (repo) => {
      const user = await repo.userByEmail(input.email.trim().toLowerCase());
      if (!user) throw notFound(`studio user "${input.email}"`);
      const channel = await repo.channelBySlug(input.channelSlug);
      if (!channel) throw notFound(`channel "${input.channelSlug}"`);
      let member = await repo.member(user, channel);
      if (member) member.role = role;
      else repo.add((member = Object.assign(new ChannelMember(), { user, channel, role })));
      repo.audit(auditActor(principal), 'studio-users.grant', user.email, { channel: channel.slug, role });
      await repo.save();
      // signed-in users' roles are cached with their sessions
      await repo.changed({ topics: ['studio_sessions'] });
      return member;
    });
  }
}
