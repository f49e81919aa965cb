import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, transactional, type Change, type Changed, type Transactional, type UnitOfWork } from '../unit-of-work';
import { Broadcast } from './broadcast.entities';
import { Channel } from './channel.entities';

/** What BroadcastService asks of storage, inside one transaction: only that. */
export interface BroadcastRepository {
  /** A channel; with `lock`, its row is locked until the transaction ends (go-lives of one channel queue up). */
  channel(id: string, options?: { lock?: boolean }): Promise<Channel | null>;
  /** The channel a broadcast belongs to, or null when there is no such broadcast. */
  channelIdOf(broadcastId: string): Promise<string | null>;
  /** A broadcast with its channel (of `channelId` only, when given), locked with `lock`; or null. */
  broadcast(id: string, options?: { channelId?: string; lock?: boolean }): Promise<Broadcast | null>;
  /** How many of the channel's broadcasts are live. */
  countLive(channelId: string): Promise<number>;
  /** A new broadcast, written with the next save. */
  add(broadcast: Broadcast): void;
  /** Writes what was added and changed so far. */
  save(): Promise<void>;
  /** States what the transaction changed (the `tv` schedules, the channel events); the unit of work runs the rest. */
  changed(change: Change): Promise<void>;
}

/** The repository on a transaction's EntityManager. */
export class MikroBroadcastRepository implements BroadcastRepository {
  constructor(
    private readonly em: EntityManager,
    readonly changed: Changed,
  ) {}

  channel(id: string, options: { lock?: boolean } = {}): Promise<Channel | null> {
    return this.em.findOne(Channel, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  async channelIdOf(broadcastId: string): Promise<string | null> {
    const [row] = await sql<{ channel_id: string }[]>(this.em, `select channel_id from broadcast where id = ?`, [broadcastId]);
    return row?.channel_id ?? null;
  }

  broadcast(id: string, options: { channelId?: string; lock?: boolean } = {}): Promise<Broadcast | null> {
    return this.em.findOne(Broadcast, options.channelId ? { id, channel: options.channelId } : { id }, {
      populate: ['channel'],
      ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
    });
  }

  async countLive(channelId: string): Promise<number> {
    const [{ n }] = await sql<{ n: number }[]>(this.em, `select count(*)::int as n from broadcast where channel_id = ? and state = 'live'`, [channelId]);
    return n;
  }

  add(broadcast: Broadcast): void {
    this.em.persist(broadcast);
  }

  save(): Promise<void> {
    return this.em.flush();
  }
}

/** BroadcastService's storage on MikroORM, its changes stated to the unit of work (the outbox behind it). */
export function broadcastStorage(uow: UnitOfWork): Transactional<BroadcastRepository> {
  return transactional(uow, (em, changed) => new MikroBroadcastRepository(em, changed));
}
