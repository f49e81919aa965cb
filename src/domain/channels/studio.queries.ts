import type { AbstractSqlConnection, EntityManager } from '@mikro-orm/postgresql';
import { notFound, type DomainError } from '../errors';
import { sql } from '../unit-of-work';
import type { Telemetry } from './broadcast-health';
import { accessError, authorize, type Permission, type Principal } from './channel-access';

export interface StudioChannelRow { id: string; slug: string; name: string; plan: string; billing_state: string; approved: boolean }

export interface StudioApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const CHANNEL_COLUMNS = 'id, slug, name, plan, billing_state, approved_at is not null as approved';
const ids = (keys: readonly string[]) => `{${keys.join(',')}}`;

/**
 * The studio's reads. Channel look-ups that guard a write read the primary; the batched reads
 * behind the per-request loaders take every key in one statement on the read connection.
 */
export class StudioQueries {
  constructor(private readonly root: EntityManager, private readonly read: () => AbstractSqlConnection) {}

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

  async liveSlotsUsed(channelIds: readonly string[]): Promise<number[]> {
    const rows = await this.read().execute<{ channel_id: string; n: number }[]>(
      `select channel_id, count(*)::int as n from broadcast where state = 'live' and channel_id = any(?::uuid[]) group by channel_id`, [ids(channelIds)]);
    const by = new Map(rows.map((r) => [r.channel_id, r.n]));
    return channelIds.map((k) => by.get(k) ?? 0);
  }

  async telemetry(broadcastIds: readonly string[]): Promise<(Telemetry | null)[]> {
    const rows = await this.read().execute<(Telemetry & { broadcast_id: string })[]>(
      `select broadcast_id, publishing, bitrate_kbps, resolution, fps, viewers, reported_at from broadcast_telemetry where broadcast_id = any(?::uuid[])`, [ids(broadcastIds)]);
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
    const rows = allowed.length === 0 ? [] : await this.read().execute<{ id: string; channel_id: string; name: string; prefix: string; scopes: string[]; created_at: Date; revoked_at: Date | null; last_used_at: Date | null }[]>(
      `select id, channel_id, name, prefix, scopes, created_at, revoked_at, last_used_at from channel_api_key where channel_id = any(?::uuid[]) order by created_at, id`, [ids(allowed)]);
    return channelIds.map((k, i) => refusals[i] ?? rows.filter((r) => r.channel_id === k).map((r) => ({
      id: r.id, name: r.name, prefix: r.prefix, scopes: r.scopes, createdAt: new Date(r.created_at), revokedAt: r.revoked_at && new Date(r.revoked_at), lastUsedAt: r.last_used_at && new Date(r.last_used_at),
    })));
  }
}
