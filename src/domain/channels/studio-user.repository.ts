import { MikroRepository, type UnitRepository } from '../mikro-repository';
import { transactional, type Transactional, type UnitOfWork } from '../unit-of-work';
import { Channel, ChannelMember, StudioUser } from './channel.entities';

/** What StudioUserService asks of storage, inside one transaction: only that. */
export interface StudioUserRepository extends UnitRepository<StudioUser | ChannelMember> {
  /** A studio user by (lower-case) email, or null. */
  userByEmail(email: string): Promise<StudioUser | null>;
  channelBySlug(slug: string): Promise<Channel | null>;
  /** The user's role on the channel, or null. */
  member(user: StudioUser, channel: Channel): Promise<ChannelMember | null>;
}

/** The repository on a transaction's EntityManager. */
export class MikroStudioUserRepository extends MikroRepository implements StudioUserRepository {
  userByEmail(email: string): Promise<StudioUser | null> {
    return this.em.findOne(StudioUser, { email });
  }

  channelBySlug(slug: string): Promise<Channel | null> {
    return this.em.findOne(Channel, { slug });
  }

  member(user: StudioUser, channel: Channel): Promise<ChannelMember | null> {
    return this.em.findOne(ChannelMember, { user, channel });
  }
}

/** StudioUserService's storage on MikroORM. */
export function studioUserStorage(uow: UnitOfWork): Transactional<StudioUserRepository> {
  return transactional(uow, (em, changed) => new MikroStudioUserRepository(em, changed));
}
