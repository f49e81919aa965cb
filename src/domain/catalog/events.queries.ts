import { eventColumns, type EventRow, type Page } from './fighter-summary.sql';
import type { ReadSql } from './read-model/read-sql';
import type { ReadContext } from './read-context';

export interface EventFilters {
  country?: string;
  level?: string;
  upcoming?: boolean;
}

/** Only sanctioned events exist for partners (a partial index holds them by date). */
export class EventQueries {
  constructor(private readonly db: ReadSql) {}

  async list(ctx: ReadContext, filters: EventFilters, page: Page): Promise<EventRow[]> {
    const { where, values } = eventWhere(ctx, filters);
    const order = filters.upcoming ? 'e.date asc, e.code' : 'e.date desc, e.code';
    const n = values.length;
    return this.db.rows<EventRow>(`select ${eventColumns()} from event e where ${where} order by ${order} limit $${n + 1} offset $${n + 2}`, [
      ...values,
      page.perPage,
      (page.page - 1) * page.perPage,
    ]);
  }

  async count(ctx: ReadContext, filters: EventFilters): Promise<number> {
    const { where, values } = eventWhere(ctx, filters);
    return (await this.db.rows<{ n: number }>(`select count(*)::int as n from event e where ${where}`, values))[0].n;
  }

  async byCode(code: string): Promise<EventRow | null> {
    if (code.includes('\0')) return null; // PostgreSQL text cannot hold NUL: no such code, and the query would fail
    const rows = await this.db.rows<EventRow>(`select ${eventColumns()} from event e where e.code = $1 and e.sanctioned_at is not null`, [code]);
    return rows[0] ?? null;
  }
}

function eventWhere(ctx: ReadContext, filters: EventFilters): { where: string; values: unknown[] } {
  const where = ['e.sanctioned_at is not null'];
  const values: unknown[] = [];
  if (filters.country) {
    values.push(filters.country);
    where.push(`e.country_slug = $${values.length}`);
  }
  if (filters.level) {
    values.push(filters.level);
    where.push(`e.level = $${values.length}`);
  }
  if (filters.upcoming) {
    values.push(ctx.today);
    where.push(`e.date >= $${values.length}::date`);
  }
  return { where: where.join(' and '), values };
}
