import type { Connection } from '@mikro-orm/core';
import { eventColumns, type EventRow, type Page, type Paged } from './fighter-summary.sql';
import type { ReadContext } from './read-context';

export interface EventFilters {
  country?: string;
  level?: string;
  upcoming?: boolean;
}

/** Only sanctioned events exist for partners. */
export class EventQueries {
  constructor(private readonly connection: () => Connection) {}

  async list(ctx: ReadContext, filters: EventFilters, page: Page): Promise<Paged<EventRow>> {
    const where = ['e.sanctioned_at is not null'];
    const params: unknown[] = [];
    if (filters.country) { where.push('e.country_slug = ?'); params.push(filters.country); }
    if (filters.level) { where.push('e.level = ?'); params.push(filters.level); }
    if (filters.upcoming) { where.push('e.date >= ?::date'); params.push(ctx.today); }
    const order = filters.upcoming ? 'e.date asc, e.code' : 'e.date desc, e.code';
    const conn = this.connection();
    const [count, rows] = await Promise.all([
      conn.execute<{ n: number }[]>(`select count(*)::int as n from event e where ${where.join(' and ')}`, params),
      conn.execute<EventRow[]>(
        `select ${eventColumns()} from event e where ${where.join(' and ')} order by ${order} limit ? offset ?`,
        [...params, page.perPage, (page.page - 1) * page.perPage],
      ),
    ]);
    return { rows, total: count[0].n };
  }

  async byCode(code: string): Promise<EventRow | null> {
    if (code.includes('\0')) return null; // PostgreSQL text cannot hold NUL: no such code, and the query would fail
    const rows = await this.connection().execute<EventRow[]>(
      `select ${eventColumns()} from event e where e.code = ? and e.sanctioned_at is not null`,
      [code],
    );
    return rows[0] ?? null;
  }
}
