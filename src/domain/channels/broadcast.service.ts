import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock';
import type { BroadcastEventType, DomainEvent } from '../domain-events';
import { DomainError, notFound } from '../errors';
import { generateToken, hashToken } from '../partners/api-key.token';
import { slugify } from '../text';
import type { Transactional } from '../unit-of-work';
import { Broadcast, type BroadcastState } from './broadcast.entities';
import { BROADCAST_FIELDS, checkBroadcastInput, checkSourceUrl, type BroadcastField, type BroadcastInput, type BroadcastPatch } from './broadcast.input';
import { authorize, type Permission, type Principal } from './channel-access';
import type { BroadcastRepository } from './broadcast.repository';
import { LIVE_SLOTS } from './channel.entities';
import { isUuid } from '../ids';

type ChannelEventType = BroadcastEventType;

export interface BroadcastResult {
  broadcast: Broadcast;
  /** Present once: when an ingest broadcast is created, switched to ingest, or its key rotated. */
  streamKey?: string;
}

/** Which fields a change may touch in each state (docs/decisions.md#broadcast-edit). */
const EDITABLE: Record<BroadcastState, readonly BroadcastField[]> = {
  scheduled: ['title', 'source', 'sourceUrl', 'scheduledAt', 'visibility', 'discipline', 'language', 'tags'],
  live: ['title', 'visibility', 'discipline', 'language', 'tags'],
  ended: ['title', 'visibility', 'discipline', 'language', 'tags'],
  replay: ['title', 'visibility', 'discipline', 'language', 'tags'],
};

/**
 * A channel's broadcasts and their life: scheduled -> live -> ended -> replay (docs/decisions.md#broadcast-states). Every
 * method takes the principal acting, whatever its door, and checks its access first with the one
 * rule (channel-access.ts): another channel's broadcast is simply not found
 * (docs/decisions.md#channel-isolation), a viewer may not write. Inputs are typed (broadcast.input.ts);
 * the values are judged here for every door. Storage is a BroadcastRepository per transaction
 * (broadcast.repository.ts); `tx` lets a caller compose several operations in its transaction.
 */
export class BroadcastService {
  constructor(
    private readonly storage: Transactional<BroadcastRepository>,
    private readonly clock: Clock,
  ) {}

  /**
   * `fixed` gives the broadcast a set id or slug instead of a generated one: for the demo's
   * documented records (src/demo/demo-records.ts), as `fixedToken` is for its keys; no door sets it.
   */
  async create(
    principal: Principal,
    channelId: string,
    fields: BroadcastInput,
    tx?: EntityManager,
    fixed: { id?: string; slug?: string } = {},
  ): Promise<BroadcastResult> {
    authorize(principal, channelId, 'broadcasts');
    const input = checkBroadcastInput(fields, 'create');
    checkSourceUrl(input.source, input.sourceUrl ?? null);
    return this.storage.run(tx, async (repo) => {
      const channel = await repo.channel(channelId);
      if (!channel) throw notFound('channel');
      const broadcast = Object.assign(new Broadcast(), {
        ...(fixed.id && { id: fixed.id }),
        channel,
        slug: fixed.slug ?? `${slugify(input.title).slice(0, 60).replace(/-+$/, '')}-${randomBytes(4).toString('hex')}`,
        title: input.title,
        source: input.source,
        sourceUrl: input.source === 'ingest' ? null : input.sourceUrl,
        scheduledAt: input.scheduledAt,
        visibility: input.visibility ?? 'public',
        discipline: input.discipline ?? null,
        language: input.language ?? 'en',
        tags: input.tags ?? [],
      });
      const streamKey = input.source === 'ingest' ? this.newStreamKey(broadcast) : undefined;
      repo.add(broadcast);
      await repo.save();
      await repo.changed({ topics: ['tv'], events: [this.event(broadcast, 'broadcast.scheduled')] });
      return { broadcast, streamKey };
    });
  }

  async update(principal: Principal, id: string, change: BroadcastPatch, tx?: EntityManager): Promise<BroadcastResult> {
    return this.storage.run(tx, async (repo) => {
      const broadcast = await this.own(repo, principal, id, 'broadcasts');
      const patch = checkBroadcastInput(change, 'update');
      const forbidden = (Object.keys(patch) as BroadcastField[]).filter((f) => !EDITABLE[broadcast.state].includes(f));
      if (forbidden.length) {
        throw new DomainError('invalid_state', `a ${broadcast.state} broadcast cannot change ${forbidden.map((f) => BROADCAST_FIELDS[f]).join(', ')}`);
      }
      const source = patch.source ?? broadcast.source;
      const sourceUrl =
        source === 'ingest'
          ? null
          : patch.sourceUrl !== undefined
            ? patch.sourceUrl
            : patch.source && patch.source !== broadcast.source
              ? null
              : broadcast.sourceUrl;
      // A source_url sent for an ingest source is refused, not dropped.
      if (patch.source !== undefined || patch.sourceUrl !== undefined) checkSourceUrl(source, patch.sourceUrl !== undefined ? patch.sourceUrl : sourceUrl);
      let streamKey: string | undefined;
      if (source === 'ingest' && broadcast.source !== 'ingest') streamKey = this.newStreamKey(broadcast);
      if (source !== 'ingest') broadcast.streamKeyHash = null;
      Object.assign(broadcast, {
        source,
        sourceUrl,
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.scheduledAt !== undefined && { scheduledAt: patch.scheduledAt }),
        ...(patch.visibility !== undefined && { visibility: patch.visibility }),
        ...(patch.discipline !== undefined && { discipline: patch.discipline }),
        ...(patch.language !== undefined && { language: patch.language }),
        ...(patch.tags !== undefined && { tags: patch.tags }),
      });
      await repo.save();
      await repo.changed({ topics: ['tv'] });
      return { broadcast, streamKey };
    });
  }

  /**
   * docs/decisions.md#go-live, under a lock on the channel row so that concurrent go-lives of one channel queue up
   * and never exceed its live slots.
   */
  async goLive(principal: Principal, id: string, tx?: EntityManager): Promise<Broadcast> {
    return this.storage.run(tx, async (repo) => {
      const channelId = await this.channelOf(repo, principal, id, 'broadcasts');
      const channel = await repo.channel(channelId, { lock: true });
      // read after the lock: a concurrent go-live of this broadcast has committed by now
      const broadcast = await repo.broadcast(id, { channelId });
      if (!channel || !broadcast) throw notFound('broadcast');
      if (broadcast.state !== 'scheduled') throw new DomainError('invalid_state', `only a scheduled broadcast can go live; this one is ${broadcast.state}`);
      if (channel.billingState !== 'active' && channel.billingState !== 'trialing') {
        throw new DomainError('billing_inactive', `the channel's billing is ${channel.billingState}: settle it to go live`);
      }
      if (broadcast.source === 'ingest' && channel.plan === 'free') {
        throw new DomainError('plan_forbids_source', 'ingest broadcasts need the pro or broadcaster plan');
      }
      const n = await repo.countLive(channelId);
      const slots = LIVE_SLOTS[channel.plan];
      if (n >= slots) throw new DomainError('no_live_slot', `all ${slots} live slots of the ${channel.plan} plan are in use`);
      Object.assign(broadcast, { state: 'live', startedAt: this.clock.now() });
      await repo.save();
      await repo.changed({ topics: ['tv'], events: [this.event(broadcast, 'broadcast.live')] });
      return broadcast;
    });
  }

  /** Ends a live broadcast; it becomes a replay at once, or when an ingest recording is ready. */
  async end(principal: Principal, id: string, tx?: EntityManager): Promise<Broadcast> {
    return this.storage.run(tx, async (repo) => {
      const broadcast = await this.own(repo, principal, id, 'broadcasts', true);
      if (broadcast.state !== 'live') throw new DomainError('invalid_state', `only a live broadcast can end; this one is ${broadcast.state}`);
      broadcast.endedAt = this.clock.now();
      const events: ChannelEventType[] = ['broadcast.ended'];
      if (broadcast.source === 'ingest') {
        broadcast.state = 'ended';
      } else {
        Object.assign(broadcast, { state: 'replay', replayUrl: broadcast.sourceUrl });
        events.push('replay.ready');
      }
      await repo.save();
      await repo.changed({ topics: ['tv'], events: events.map((type) => this.event(broadcast, type)) });
      return broadcast;
    });
  }

  async rotateStreamKey(principal: Principal, id: string, tx?: EntityManager): Promise<BroadcastResult> {
    return this.storage.run(tx, async (repo) => {
      const broadcast = await this.own(repo, principal, id, 'broadcasts', true);
      if (broadcast.source !== 'ingest') throw new DomainError('invalid_state', 'only an ingest broadcast has a stream key');
      const streamKey = this.newStreamKey(broadcast);
      await repo.save();
      return { broadcast, streamKey };
    });
  }

  async get(principal: Principal, id: string): Promise<Broadcast> {
    return this.own(this.storage.read(), principal, id, 'read');
  }

  /** The media server's recording of an ended ingest broadcast is ready: it becomes a replay. */
  async recordingReady(broadcastId: string, replayUrl: string, tx?: EntityManager): Promise<Broadcast> {
    return this.storage.run(tx, async (repo) => {
      const broadcast = await repo.broadcast(broadcastId, { lock: true });
      if (!broadcast) throw notFound('broadcast');
      if (broadcast.state !== 'ended') throw new DomainError('invalid_state', `only an ended broadcast becomes a replay; this one is ${broadcast.state}`);
      Object.assign(broadcast, { state: 'replay', replayUrl });
      await repo.save();
      await repo.changed({ topics: ['tv'], events: [this.event(broadcast, 'replay.ready')] });
      return broadcast;
    });
  }

  private newStreamKey(broadcast: Broadcast): string {
    const key = generateToken('sk');
    broadcast.streamKeyHash = hashToken(key);
    return key;
  }

  /** The channel of a broadcast once the principal may act there: who may act comes first. */
  private async channelOf(repo: BroadcastRepository, principal: Principal, id: string, permission: Permission): Promise<string> {
    const channelId = isUuid(id) ? await repo.channelIdOf(id) : null;
    if (!channelId) throw notFound('broadcast');
    authorize(principal, channelId, permission, 'broadcast');
    return channelId;
  }

  private async own(repo: BroadcastRepository, principal: Principal, id: string, permission: Permission, lock = false): Promise<Broadcast> {
    const channelId = await this.channelOf(repo, principal, id, permission);
    const broadcast = await repo.broadcast(id, { channelId, lock });
    if (!broadcast) throw notFound('broadcast');
    return broadcast;
  }

  private event(broadcast: Broadcast, type: ChannelEventType): DomainEvent {
    return { type, broadcastId: broadcast.id, channelId: broadcast.channel.id };
  }
}
