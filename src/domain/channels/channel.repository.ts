import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeTopic } from '../../db/change-feed';
import type { Actor } from '../audit/audit.log';
import { MikroRepository } from '../mikro-repository';
import { transactional, type Transactional } from '../unit-of-work';
import { Channel, ChannelApiKey } from './channel.entities';

/** What ChannelService asks of storage, inside one transaction: only that. */
export interface ChannelRepository {
  bySlug(slug: string): Promise<Channel | null>;
  /** A channel by id; with `lock`, its row is locked until the transaction ends (key creations of one channel queue up). */
  byId(id: string, options?: { lock?: boolean }): Promise<Channel | null>;
  /** Every channel, by slug. */
  all(): Promise<Channel[]>;
  /** The channel's keys not revoked. */
  countActiveKeys(channelId: string): Promise<number>;
  /** A key of the channel, or null (another channel's key included). */
  key(channelId: string, keyId: string): Promise<ChannelApiKey | null>;
  /** A new channel or key, written with the next save. */
  add(entity: Channel | ChannelApiKey): void;
  /** An audit entry, written with the next save. */
  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void;
  /** Writes what was added and changed so far. */
  save(): Promise<void>;
  /** Tells every instance that `topics` changed, on commit. */
  announce(...topics: ChangeTopic[]): Promise<void>;
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
export function channelStorage(root: EntityManager): Transactional<ChannelRepository> {
  return transactional(root, (em) => new MikroChannelRepository(em));
}
