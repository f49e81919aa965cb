import type { Connection } from '@mikro-orm/core';
import { TtlCache } from '../../lib/ttl-cache';
import type { FighterRecord } from '../rankings/ranking.engine';
import { escapeLike, foldText } from '../text';
import { fighterColumns, fighterJoins, PARAMS_CTE, type FighterRow, type Page, type Paged } from './fighter-summary.sql';
import { contextParams, type ReadContext } from './read-context';

export interface FighterFilters {
  q?: string;
  country?: string;
  disc?: string;
  status?: string;
}

const EMPTY_RECORD: FighterRecord = { W: 0, L: 0, D: 0, NC: 0, KO: 0 };

/**
 * The list's order key: the name folded as search_text is. search_text itself cannot be the key
 * because it ends with the nickname, which would put a namesake without a nickname first
 * whatever the slugs say (D2.14: name, then slug).
 */
const NAME_ORDER = `f.sort_name collate "C"`;

export class FighterQueries {
  constructor(private readonly connection: () => Connection, private readonly counts: TtlCache<number> = new TtlCache(0)) {}

  /** Adults only: minors are never listed. Ordered by name (accent-folded), then slug. */
  async list(ctx: ReadContext, filters: FighterFilters, page: Page): Promise<Paged<FighterRow>> {
    const where: string[] = ['fi.date_of_birth <= p.adult_cutoff'];
    const params: unknown[] = [];
    if (filters.q) {
      where.push(`f.search_text like ? escape '\\'`);
      params.push(`%${escapeLike(foldText(filters.q))}%`);
    }
    if (filters.country) { where.push('f.country_slug = ?'); params.push(filters.country); }
    if (filters.disc) { where.push('fd.discipline = ?'); params.push(filters.disc); }
    if (filters.status) { where.push('f.status = ?'); params.push(filters.status); }
    const from = `from p cross join fighter f ${fighterJoins()} where ${where.join(' and ')}`;
    const conn = this.connection();
    const [total, rows] = await Promise.all([
      this.counts.get(JSON.stringify([ctx.today, where, params]), async () =>
        (await conn.execute<{ n: number }[]>(`${PARAMS_CTE} select count(*)::int as n ${from}`, [...contextParams(ctx), ...params]))[0].n),
      conn.execute<FighterRow[]>(
        `${PARAMS_CTE} select ${fighterColumns()} ${from}
          order by ${NAME_ORDER}, f.slug collate "C" limit ? offset ?`,
        [...contextParams(ctx), ...params, page.perPage, (page.page - 1) * page.perPage],
      ),
    ]);
    return { rows, total };
  }

  async bySlug(ctx: ReadContext, slug: string): Promise<FighterRow | null> {
    if (slug.includes('\0')) return null; // PostgreSQL text cannot hold NUL: no such slug, and the query would fail
    const rows = await this.connection().execute<FighterRow[]>(
      `${PARAMS_CTE} select ${fighterColumns()} from p cross join fighter f ${fighterJoins()} where f.slug = ?`,
      [...contextParams(ctx), slug],
    );
    return rows[0] ?? null;
  }

  /**
   * Counts of verified bouts, all divisions, all time, at sanctioned events only: the bouts the
   * profile lists and the ranking run counts, so that record and bouts never disagree.
   */
  async records(fighterIds: string[]): Promise<Map<string, FighterRecord>> {
    const out = new Map<string, FighterRecord>();
    if (fighterIds.length === 0) return out;
    const rows = await this.connection().execute<(FighterRecord & { fighter_id: string })[]>(
      `select r.fighter_id,
              count(*) filter (where r.result = 'W')::int as "W", count(*) filter (where r.result = 'L')::int as "L",
              count(*) filter (where r.result = 'D')::int as "D", count(*) filter (where r.result = 'NC')::int as "NC",
              count(*) filter (where r.result = 'W' and upper(coalesce(r.method, '')) in ('KO', 'TKO'))::int as "KO"
         from verified_result r join event e on e.id = r.event_id and e.sanctioned_at is not null
        where (r.side_a = any(?::uuid[]) or r.side_b = any(?::uuid[])) and r.fighter_id = any(?::uuid[])
        group by r.fighter_id`,
      [`{${fighterIds.join(',')}}`, `{${fighterIds.join(',')}}`, `{${fighterIds.join(',')}}`],
    );
    for (const r of rows) out.set(r.fighter_id, { W: r.W, L: r.L, D: r.D, NC: r.NC, KO: r.KO });
    for (const id of fighterIds) if (!out.has(id)) out.set(id, { ...EMPTY_RECORD });
    return out;
  }
}
