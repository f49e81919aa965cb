import type { AbstractSqlConnection, EntityManager } from '@mikro-orm/postgresql';
import { notFound, type DomainError } from '../errors';
import { sql } from '../unit-of-work';
import type { BroadcastState } from './broadcast.entities';
import { BROADCAST_RECORD_COLUMNS, recordOf, type BroadcastRecord, type BroadcastRecordRow } from './broadcast.record';
import type { Telemetry } from './broadcast-health';
import { accessError, authorize, type Permission, type Principal } from './channel-access';
import type { BillingState, ChannelScope, Plan } from './channel.entities';

export interface StudioChannelRow {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  billing_state: BillingState;
  approved: boolean;
}

export interface StudioApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: ChannelScope[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const CHANNEL_COLUMNS = 'id, slug, name, plan, billing_state, approved_at is not null as approved';

/** Where a broadcast stands in a channel's list (newest scheduled first): its keyset cursor. */
export interface BroadcastKey {
  scheduledAt: Date;
  id: string;
}

/**
 * A window of a channel's broadcast list, which runs newest scheduled first ((scheduled_at, id)
 * descending): the broadcasts strictly after `after` and strictly before `before`, `limit` of them
 * taken from the start of the window, or from its end with `fromEnd`.
 */
export interface BroadcastWindow {
  state?: BroadcastState;
  after?: BroadcastKey;
  before?: BroadcastKey;
  limit: number;
  fromEnd?: boolean;
}
const ids = (keys: readonly string[]) => `{${keys.join(',')}}`;

/**
 * The studio's reads. Channel look-ups that guard a write read the primary; the batched reads
 * behind the per-request loaders take every key in one statement on the read connection.
 */

export class StudioQueries {
  constructor(
    private readonly root: EntityManager,
    private readonly read: () => AbstractSqlConnection,
  ) {}

  async channelsByIds(channelIds: string[]): Promise<StudioChannelRow[]> {
    if (channelIds.length === 0) return [];
    return sql<StudioChannelRow[]>(this.root.fork(), `select ${CHANNEL_COLUMNS} from channel where id = any(?::uuid[]) order by name, slug`, [ids(channelIds)]);
  }

  /** The channel of a slug once `principal` may do `permission` there; a channel it has nothing to do with is not found. */
  async channelFor(principal: Principal, slug: string, permission: Permission): Promise<StudioChannelRow> {
    const [row] = await sql<StudioChannelRow[]>(this.root.fork(), `select ${CHANNEL_COLUMNS} from channel where slug = ?`, [slug]);
    if (!row) throw notFound('channel');
    authorize(principal, row.id, permission);
    return row;
  }

  /** The broadcasts of a window, in list order. */
  async channelBroadcasts(channelId: string, w: BroadcastWindow): Promise<BroadcastRecord[]> {
    const where = ['b.channel_id = ?'];
    const params: unknown[] = [channelId];
    if (w.state) {
      where.push('b.state = ?');
      params.push(w.state);
    }
    if (w.after) {
      where.push('(b.scheduled_at, b.id) < (?::timestamptz, ?::uuid)');
      params.push(w.after.scheduledAt, w.after.id);
    }
    if (w.before) {
      where.push('(b.scheduled_at, b.id) > (?::timestamptz, ?::uuid)');
      params.push(w.before.scheduledAt, w.before.id);
    }
    const order = w.fromEnd ? 'asc' : 'desc';
    const rows = await this.read().execute<BroadcastRecordRow[]>(
      `select ${BROADCAST_RECORD_COLUMNS} from broadcast b join channel c on c.id = b.channel_id
        where ${where.join(' and ')} order by b.scheduled_at ${order}, b.id ${order} limit ?`,
      [...params, w.limit],
    );
    const records = rows.map(recordOf);
    return w.fromEnd ? records.reverse() : records;
  }

  /**
   * Whether the channel's list (with the same state filter) holds a broadcast at `key` or beyond it
   * on one side: `earlier` looks toward the start of the list (newer), `later` toward its end.
   */
  async hasBroadcastsBeyond(channelId: string, key: BroadcastKey, side: 'earlier' | 'later', state?: BroadcastState): Promise<boolean> {
    const [row] = await this.read().execute<{ found: boolean }[]>(
      `select exists(select 1 from broadcast b where b.channel_id = ? ${state ? 'and b.state = ?' : ''}
         and (b.scheduled_at, b.id) ${side === 'earlier' ? '>=' : '<='} (?::timestamptz, ?::uuid)) as found`,
      [channelId, ...(state ? [state] : []), key.scheduledAt, key.id],
    );
    return row.found;
  }

  async liveSlotsUsed(channelIds: readonly string[]): Promise<number[]> {
    const rows = await this.read().execute<{ channel_id: string; n: number }[]>(
      `select channel_id, count(*)::int as n from broadcast where state = 'live' and channel_id = any(?::uuid[]) group by channel_id`,
      [ids(channelIds)],
    );
    const by = new Map(rows.map((r) => [r.channel_id, r.n]));
    return channelIds.map((k) => by.get(k) ?? 0);
  }

  async telemetry(broadcastIds: readonly string[]): Promise<(Telemetry | null)[]> {
    const rows = await this.read().execute<(Telemetry & { broadcast_id: string })[]>(
      `select broadcast_id, publishing, bitrate_kbps, resolution, fps, viewers, reported_at from broadcast_telemetry where broadcast_id = any(?::uuid[])`,
      [ids(broadcastIds)],
    );
    const by = new Map(rows.map((r) => [r.broadcast_id, r]));
    return broadcastIds.map((k) => by.get(k) ?? null);
  }

  /**
   * The API keys of each channel, in one statement for every channel `principal` may manage keys
   * of; a channel it may not gets its refusal instead (one channel does not fail a dashboard).
   */
  async apiKeys(principal: Principal, channelIds: readonly string[]): Promise<(StudioApiKeyRow[] | DomainError)[]> {
    const refusals = channelIds.map((id) => accessError(principal, id, 'keys'));
    const allowed = channelIds.filter((_, i) => !refusals[i]);
    const rows =
      allowed.length === 0
        ? []
        : await this.read().execute<
            {
              id: string;
              channel_id: string;
              name: string;
              prefix: string;
              scopes: ChannelScope[];
              created_at: Date;
              revoked_at: Date | null;
              last_used_at: Date | null;
            }[]
          >(
            `select id, channel_id, name, prefix, scopes, created_at, revoked_at, last_used_at from channel_api_key where channel_id = any(?::uuid[]) order by created_at, id`,
            [ids(allowed)],
          );
    return channelIds.map(
      (k, i) =>
        refusals[i] ??
        rows
          .filter((r) => r.channel_id === k)
          .map((r) => ({
            id: r.id,
            name: r.name,
            prefix: r.prefix,
            scopes: r.scopes,
            createdAt: new Date(r.created_at),
            revokedAt: r.revoked_at && new Date(r.revoked_at),
            lastUsedAt: r.last_used_at && new Date(r.last_used_at),
          })),
    );
  }
}
