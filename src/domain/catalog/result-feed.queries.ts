import { eventColumns, type Page } from './fighter-summary.sql';
import { cardColumns } from './read-model/card.sql';
import type { ReadSql } from './read-model/read-sql';
import type { ReadContext } from './read-context';
import type { ResultFilters, ResultRow } from './results.queries';

/** The feed order, held by the result_row indexes (slug and code are `collate "C"` there). */
const ORDER = `r.event_date desc, r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug`;

/**
 * Verified results from the read model (result_row): one row per fighter of a bout, stored in
 * feed order with the filters' columns and the fighter's day of majority. A page is one ordered
 * index scan; its fighters' cards and events are then taken by primary key.
 */
export class ResultFeedQueries {
  constructor(private readonly db: ReadSql) {}

  /** Adults only: minors' results never appear. */
  async list(ctx: ReadContext, filters: ResultFilters, page: Page): Promise<ResultRow[]> {
    const { where, values } = feedWhere(ctx, filters);
    const n = values.length;
    return this.page(where, values, `limit $${n + 1} offset $${n + 2}`, [page.perPage, (page.page - 1) * page.perPage]);
  }

  async count(ctx: ReadContext, filters: ResultFilters): Promise<number> {
    const { where, values } = feedWhere(ctx, filters);
    return (await this.db.rows<{ n: number }>(`select count(*)::int as n from result_row r where ${where}`, values))[0].n;
  }

  async forEvent(ctx: ReadContext, eventCode: string): Promise<ResultRow[]> {
    return this.page('r.adult_on <= $1::date and r.event_code = $2', [ctx.today, eventCode], '', []);
  }

  /** The fighter's last verified bouts, newest first (the profile shows them only for an adult). */
  async forFighter(ctx: ReadContext, fighterId: string, limit: number): Promise<ResultRow[]> {
    return this.page('r.fighter_id = $2::uuid', [ctx.today, fighterId], 'limit $3', [limit]);
  }

  /** `$1` is always today: the opponent's side of the bout (the other result_row) tells whether the opponent is a minor. */
  private page(where: string, values: unknown[], tail: string, tailValues: unknown[]): Promise<ResultRow[]> {
    return this.db.rows<ResultRow>(
      `select ${cardColumns()}, ${eventColumns()}, r.bout_id, r.bout_order, r.result, r.method, r.round, r.verified_at,
              r.opponent_name as opponent, coalesce(o.adult_on > $1::date, true) as opponent_minor
         from (select * from result_row r where ${where} order by ${ORDER} ${tail}) r
         join fighter_card f on f.fighter_id = r.fighter_id
         left join result_row o on o.bout_id = r.bout_id and o.fighter_id <> r.fighter_id
         join event e on e.id = r.event_id
        order by ${ORDER}`,
      [...values, ...tailValues],
    );
  }
}

function feedWhere(ctx: ReadContext, filters: ResultFilters): { where: string; values: unknown[] } {
  const where = ['r.adult_on <= $1::date'];
  const values: unknown[] = [ctx.today];
  const add = (clause: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };
  if (filters.since) add((p) => `r.event_date >= ${p}::date`, filters.since);
  if (filters.country) add((p) => `r.fighter_country = ${p}`, filters.country);
  if (filters.disc) add((p) => `r.discipline = ${p}`, filters.disc);
  if (filters.event) add((p) => `r.event_code = ${p}`, filters.event);
  return { where: where.join(' and '), values };
}
