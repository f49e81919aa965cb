import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { announceChange } from '../../db/announce-change';
import { noEvents, type DomainEvent, type DomainEventSink } from '../domain-events';
import { sql, transactional, type Transactional } from '../unit-of-work';
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
  /** The change's domain events, in its transaction (the webhook outbox). */
  publish(events: DomainEvent[]): Promise<void>;
  /** Tells every instance that the public schedules changed, on commit. */
  scheduleChanged(): Promise<void>;
}

/** The repository on a transaction's EntityManager. */
export class MikroBroadcastRepository implements BroadcastRepository {
  constructor(private readonly em: EntityManager, private readonly events: DomainEventSink) {}

  channel(id: string, options: { lock?: boolean } = {}): Promise<Channel | null> {
    return this.em.findOne(Channel, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  }

  async channelIdOf(broadcastId: string): Promise<string | null> {
    const [row] = await sql<{ channel_id: string }[]>(this.em, `select channel_id from broadcast where id = ?`, [broadcastId]);
    return row?.channel_id ?? null;
  }

  broadcast(id: string, options: { channelId?: string; lock?: boolean } = {}): Promise<Broadcast | null> {
    return this.em.findOne(Broadcast, options.channelId ? { id, channel: options.channelId } : { id }, {
      populate: ['channel'], ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
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

  publish(events: DomainEvent[]): Promise<void> {
    return this.events.publish(this.em, events);
  }

  scheduleChanged(): Promise<void> {
    return announceChange(this.em, 'tv');
  }
}

/** BroadcastService's storage on MikroORM, its events going to `events` (the outbox). */
export function broadcastStorage(root: EntityManager, events: DomainEventSink = noEvents): Transactional<BroadcastRepository> {
  return transactional(root, (em) => new MikroBroadcastRepository(em, events));
}
