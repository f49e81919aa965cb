import type { Connection } from '@mikro-orm/core';
import { BROADCAST_RECORD_COLUMNS, recordOf, type BroadcastRecord, type BroadcastRecordRow } from './broadcast.record';
import type { Page, Paged } from '../catalog/fighter-summary.sql';
import { LIVE_SLOTS, type Plan } from './channel.entities';
import { authorize } from './channel-access';
import type { ChannelPrincipal } from './channel-key-authenticator';

// Publicly listed: approved channels, never unlisted broadcasts (docs/decisions.md#public-schedules).
const LISTED = `from broadcast b join channel c on c.id = b.channel_id where c.approved_at is not null and b.visibility <> 'unlisted'`;

export interface PublicChannelRow {
  slug: string;
  name: string;
  live_count: number;
  upcoming_count: number;
}

export interface MeRow {
  slug: string;
  name: string;
  plan: Plan;
  billing_state: string;
  approved: boolean;
  live_used: number;
  live_total: number;
}

/** The TV API's reads: public schedules and a channel's own view. */
export class TvQueries {
  constructor(private readonly connection: () => Connection) {}

  live(page: Page): Promise<Paged<BroadcastRecord>> {
    return this.paged(`${LISTED} and b.state = 'live'`, [], 'b.started_at desc, b.id', page);
  }

  upcoming(page: Page): Promise<Paged<BroadcastRecord>> {
    return this.paged(`${LISTED} and b.state = 'scheduled'`, [], 'b.scheduled_at asc, b.id', page);
  }

  async channels(page: Page): Promise<Paged<PublicChannelRow>> {
    const conn = this.connection();
    const [count, rows] = await Promise.all([
      conn.execute(`select count(*)::int as n from channel where approved_at is not null`) as Promise<{ n: number }[]>,
      conn.execute(
        `select c.slug, c.name,
                count(b.id) filter (where b.state = 'live')::int as live_count,
                count(b.id) filter (where b.state = 'scheduled')::int as upcoming_count
           from channel c left join broadcast b on b.channel_id = c.id and b.visibility <> 'unlisted'
          where c.approved_at is not null group by c.id order by c.name collate "C", c.slug limit ? offset ?`,
        [page.perPage, (page.page - 1) * page.perPage],
      ) as Promise<PublicChannelRow[]>,
    ]);
    return { rows, total: count[0].n };
  }

  async channel(
    slug: string,
  ): Promise<{ slug: string; name: string; live: BroadcastRecord[]; upcoming: BroadcastRecord[]; replays: BroadcastRecord[] } | null> {
    if (slug.includes('\0')) return null; // PostgreSQL text cannot hold NUL: no such slug, and the query would fail
    const conn = this.connection();
    const [channel] = await conn.execute<{ id: string; slug: string; name: string }[]>(
      `select id, slug, name from channel where slug = ? and approved_at is not null`,
      [slug],
    );
    if (!channel) return null;
    const of = (state: string, order: string) =>
      conn
        .execute(`select ${BROADCAST_RECORD_COLUMNS} ${LISTED} and c.id = ? and b.state = ? order by ${order} limit 50`, [channel.id, state])
        .then((rows: BroadcastRecordRow[]) => rows.map(recordOf));
    const [live, upcoming, replays] = await Promise.all([
      of('live', 'b.started_at desc'),
      of('scheduled', 'b.scheduled_at asc'),
      of('replay', 'b.ended_at desc'),
    ]);
    return { slug: channel.slug, name: channel.name, live, upcoming, replays };
  }

  /** Any visibility: an unlisted broadcast is reachable by its slug. */
  async broadcastBySlug(slug: string): Promise<BroadcastRecord | null> {
    if (slug.includes('\0')) return null; // as for channels: no such slug, and no failing query
    const rows = await this.connection().execute<BroadcastRecordRow[]>(
      `select ${BROADCAST_RECORD_COLUMNS} from broadcast b join channel c on c.id = b.channel_id where b.slug = ? and c.approved_at is not null`,
      [slug],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async broadcastById(id: string): Promise<BroadcastRecord | null> {
    const rows = await this.connection().execute<BroadcastRecordRow[]>(
      `select ${BROADCAST_RECORD_COLUMNS} from broadcast b join channel c on c.id = b.channel_id where b.id = ?`,
      [id],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  /** The key's own channel and its latest broadcasts, once the access rule lets the key read it. */
  async me(principal: ChannelPrincipal): Promise<{ channel: MeRow; broadcasts: BroadcastRecord[] }> {
    const channelId = principal.channelId;
    authorize(principal, channelId, 'read');
    const conn = this.connection();
    const [[c], broadcasts] = await Promise.all([
      conn.execute(
        `select c.slug, c.name, c.plan, c.billing_state, c.approved_at is not null as approved,
                (select count(*)::int from broadcast b where b.channel_id = c.id and b.state = 'live') as live_used
           from channel c where c.id = ?`,
        [channelId],
      ) as Promise<MeRow[]>,
      conn
        .execute(
          `select ${BROADCAST_RECORD_COLUMNS} from broadcast b join channel c on c.id = b.channel_id
                     where c.id = ? order by b.scheduled_at desc, b.id limit 100`,
          [channelId],
        )
        .then((rows: BroadcastRecordRow[]) => rows.map(recordOf)),
    ]);
    return { channel: { ...c, live_total: LIVE_SLOTS[c.plan] }, broadcasts };
  }

  private async paged(from: string, params: unknown[], order: string, page: Page): Promise<Paged<BroadcastRecord>> {
    const conn = this.connection();
    const [count, rows] = await Promise.all([
      conn.execute(`select count(*)::int as n ${from}`, params) as Promise<{ n: number }[]>,
      conn.execute(`select ${BROADCAST_RECORD_COLUMNS} ${from} order by ${order} limit ? offset ?`, [
        ...params,
        page.perPage,
        (page.page - 1) * page.perPage,
      ]) as Promise<BroadcastRecordRow[]>,
    ]);
    return { rows: rows.map(recordOf), total: count[0].n };
  }
}
