import { LockMode } from '@mikro-orm/core';
import { MikroRepository, type UnitRepository } from '../mikro-repository';
import { transactional, type Transactional, type UnitOfWork } from '../unit-of-work';
import { Channel, ChannelApiKey } from './channel.entities';

/** What ChannelService asks of storage, inside one transaction: only that. */
export interface ChannelRepository extends UnitRepository<Channel | ChannelApiKey> {
  bySlug(slug: string): Promise<Channel | null>;
  /** A channel by id; with `lock`, its row is locked until the transaction ends (key creations of one channel queue up). */
  byId(id: string, options?: { lock?: boolean }): Promise<Channel | null>;
  /** Every channel, by slug. */
  all(): Promise<Channel[]>;
  /** The channel's keys not revoked. */
  countActiveKeys(channelId: string): Promise<number>;
  /** A key of the channel, or null (another channel's key included). */
  key(channelId: string, keyId: string): Promise<ChannelApiKey | null>;
}

/** The repository on a transaction's EntityManager. */
export class MikroChannelRepository extends MikroRepository implements ChannelRepository {
  bySlug(slug: string): Promise<Channel | null> {
    return this.em.findOne(Channel, { slug });
  }

  byId(id: string, options: { lock?: boolean } = {}): Promise<Channel | null> {
    return this.em.findOne(Channel, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  all(): Promise<Channel[]> {
    return this.em.find(Channel, {}, { orderBy: { slug: 'asc' } });
  }

  countActiveKeys(channelId: string): Promise<number> {
    return this.em.count(ChannelApiKey, { channel: channelId, revokedAt: null });
  }

  key(channelId: string, keyId: string): Promise<ChannelApiKey | null> {
    return this.em.findOne(ChannelApiKey, { id: keyId, channel: channelId });
  }
}

/** ChannelService's storage on MikroORM. */
export function channelStorage(uow: UnitOfWork): Transactional<ChannelRepository> {
  return transactional(uow, (em, changed) => new MikroChannelRepository(em, changed));
}
