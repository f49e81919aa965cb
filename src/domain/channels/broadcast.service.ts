import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock';
import { noEvents, type CHANNEL_EVENTS, type DomainEventSink } from '../domain-events';
import { DomainError, notFound } from '../errors';
import { generateToken, hashToken } from '../partners/api-key.token';
import { slugify } from '../text';
import { announceChange } from '../announce-change';
import { inTransaction, sql } from '../unit-of-work';
import { Broadcast, type BroadcastState } from './broadcast.entities';
import { checkSourceUrl, parseBroadcastFields, type BroadcastFields } from './broadcast.input';
import { Channel, LIVE_SLOTS } from './channel.entities';
import { isUuid } from '../ids';

type ChannelEventType = (typeof CHANNEL_EVENTS)[number];

export interface BroadcastResult {
  broadcast: Broadcast;
  /** Present once: when an ingest broadcast is created, switched to ingest, or its key rotated. */
  streamKey?: string;
}

/** Which fields a change may touch in each state (docs/decisions.md#broadcast-edit). */
const EDITABLE: Record<BroadcastState, readonly (keyof BroadcastFields)[]> = {
  scheduled: ['title', 'source', 'source_url', 'scheduled_at', 'visibility', 'discipline', 'language', 'tags'],
  live: ['title', 'visibility', 'discipline', 'language', 'tags'],
  ended: ['title', 'visibility', 'discipline', 'language', 'tags'],
  replay: ['title', 'visibility', 'discipline', 'language', 'tags'],
};

/**
 * A channel's broadcasts and their life: scheduled -> live -> ended -> replay (docs/decisions.md#broadcast-states). Every
 * method takes the acting channel's id: another channel's broadcast is simply not found (docs/decisions.md#channel-isolation).
 */
export class BroadcastService {
  constructor(private readonly root: EntityManager, private readonly clock: Clock, private readonly events: DomainEventSink = noEvents) {}

  async create(channelId: string, body: unknown, tx?: EntityManager): Promise<BroadcastResult> {
    const input = parseBroadcastFields(body, 'create') as BroadcastFields;
    checkSourceUrl(input.source, input.source_url ?? null);
    return inTransaction(this.root, tx, async (em) => {
      const channel = await em.findOneOrFail(Channel, { id: channelId });
      const broadcast = Object.assign(new Broadcast(), {
        channel,
        slug: `${slugify(input.title).slice(0, 60).replace(/-+$/, '')}-${randomBytes(4).toString('hex')}`,
        title: input.title,
        source: input.source,
        sourceUrl: input.source === 'ingest' ? null : input.source_url,
        scheduledAt: input.scheduled_at,
        visibility: input.visibility ?? 'public',
        discipline: input.discipline ?? null,
        language: input.language ?? 'en',
        tags: input.tags ?? [],
      });
      const streamKey = input.source === 'ingest' ? this.newStreamKey(broadcast) : undefined;
      em.persist(broadcast);
      await em.flush();
      await this.emit(em, broadcast, 'broadcast.scheduled');
      await announceChange(em, 'tv');
      return { broadcast, streamKey };
    });
  }

  async update(channelId: string, id: string, body: unknown, tx?: EntityManager): Promise<BroadcastResult> {
    const patch = parseBroadcastFields(body, 'update');
    return inTransaction(this.root, tx, async (em) => {
      const broadcast = await this.own(em, channelId, id);
      const forbidden = (Object.keys(patch) as (keyof BroadcastFields)[]).filter((f) => !EDITABLE[broadcast.state].includes(f));
      if (forbidden.length) {
        throw new DomainError('invalid_state', `a ${broadcast.state} broadcast cannot change ${forbidden.join(', ')}`);
      }
      const source = patch.source ?? broadcast.source;
      const sourceUrl = source === 'ingest' ? null : patch.source_url !== undefined ? patch.source_url : patch.source && patch.source !== broadcast.source ? null : broadcast.sourceUrl;
      // A source_url sent for an ingest source is refused, not dropped.
      if (patch.source !== undefined || patch.source_url !== undefined) checkSourceUrl(source, patch.source_url !== undefined ? patch.source_url : sourceUrl);
      let streamKey: string | undefined;
      if (source === 'ingest' && broadcast.source !== 'ingest') streamKey = this.newStreamKey(broadcast);
      if (source !== 'ingest') broadcast.streamKeyHash = null;
      Object.assign(broadcast, {
        source,
        sourceUrl,
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.scheduled_at !== undefined && { scheduledAt: patch.scheduled_at }),
        ...(patch.visibility !== undefined && { visibility: patch.visibility }),
        ...(patch.discipline !== undefined && { discipline: patch.discipline }),
        ...(patch.language !== undefined && { language: patch.language }),
        ...(patch.tags !== undefined && { tags: patch.tags }),
      });
      await em.flush();
      await announceChange(em, 'tv');
      return { broadcast, streamKey };
    });
  }

  /**
   * docs/decisions.md#go-live, under a lock on the channel row so that concurrent go-lives of one channel queue up
   * and never exceed its live slots.
   */
  async goLive(channelId: string, id: string, tx?: EntityManager): Promise<Broadcast> {
    return inTransaction(this.root, tx, async (em) => {
      const channel = await em.findOneOrFail(Channel, { id: channelId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const broadcast = await this.own(em, channelId, id);
      if (broadcast.state !== 'scheduled') throw new DomainError('invalid_state', `only a scheduled broadcast can go live; this one is ${broadcast.state}`);
      if (channel.billingState !== 'active' && channel.billingState !== 'trialing') {
        throw new DomainError('billing_inactive', `the channel's billing is ${channel.billingState}: settle it to go live`);
      }
      if (broadcast.source === 'ingest' && channel.plan === 'free') {
        throw new DomainError('plan_forbids_source', 'ingest broadcasts need the pro or broadcaster plan');
      }
      const [{ n }] = await sql<{ n: number }[]>(em, `select count(*)::int as n from broadcast where channel_id = ? and state = 'live'`, [channelId]);
      const slots = LIVE_SLOTS[channel.plan];
      if (n >= slots) throw new DomainError('no_live_slot', `all ${slots} live slots of the ${channel.plan} plan are in use`);
      Object.assign(broadcast, { state: 'live', startedAt: this.clock.now() });
      await em.flush();
      await this.emit(em, broadcast, 'broadcast.live');
      await announceChange(em, 'tv');
      return broadcast;
    });
  }

  /** Ends a live broadcast; it becomes a replay at once, or when an ingest recording is ready. */
  async end(channelId: string, id: string, tx?: EntityManager): Promise<Broadcast> {
    return inTransaction(this.root, tx, async (em) => {
      const broadcast = await this.own(em, channelId, id, true);
      if (broadcast.state !== 'live') throw new DomainError('invalid_state', `only a live broadcast can end; this one is ${broadcast.state}`);
      broadcast.endedAt = this.clock.now();
      const events: ChannelEventType[] = ['broadcast.ended'];
      if (broadcast.source === 'ingest') {
        broadcast.state = 'ended';
      } else {
        Object.assign(broadcast, { state: 'replay', replayUrl: broadcast.sourceUrl });
        events.push('replay.ready');
      }
      await em.flush();
      for (const type of events) await this.emit(em, broadcast, type);
      await announceChange(em, 'tv');
      return broadcast;
    });
  }

  async rotateStreamKey(channelId: string, id: string, tx?: EntityManager): Promise<BroadcastResult> {
    return inTransaction(this.root, tx, async (em) => {
      const broadcast = await this.own(em, channelId, id, true);
      if (broadcast.source !== 'ingest') throw new DomainError('invalid_state', 'only an ingest broadcast has a stream key');
      const streamKey = this.newStreamKey(broadcast);
      await em.flush();
      return { broadcast, streamKey };
    });
  }

  async get(channelId: string, id: string): Promise<Broadcast> {
    return this.own(this.root.fork(), channelId, id);
  }

  /** The media server's recording of an ended ingest broadcast is ready: it becomes a replay. */
  async recordingReady(broadcastId: string, replayUrl: string, tx?: EntityManager): Promise<Broadcast> {
    return inTransaction(this.root, tx, async (em) => {
      const broadcast = await em.findOne(Broadcast, { id: broadcastId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!broadcast) throw notFound('broadcast');
      if (broadcast.state !== 'ended') throw new DomainError('invalid_state', `only an ended broadcast becomes a replay; this one is ${broadcast.state}`);
      Object.assign(broadcast, { state: 'replay', replayUrl });
      await em.flush();
      await this.emit(em, broadcast, 'replay.ready');
      await announceChange(em, 'tv');
      return broadcast;
    });
  }

  private newStreamKey(broadcast: Broadcast): string {
    const key = generateToken('sk');
    broadcast.streamKeyHash = hashToken(key);
    return key;
  }

  private async own(em: EntityManager, channelId: string, id: string, lock = false): Promise<Broadcast> {
    if (!isUuid(id)) throw notFound('broadcast');
    const broadcast = await em.findOne(Broadcast, { id, channel: channelId }, {
      populate: ['channel'], ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
    });
    if (!broadcast) throw notFound('broadcast');
    return broadcast;
  }

  private emit(em: EntityManager, broadcast: Broadcast, type: ChannelEventType): Promise<void> {
    return this.events.publish(em, [{ type, broadcastId: broadcast.id, channelId: broadcast.channel.id }]);
  }
}
