import DataLoader from 'dataloader';
import type { Page } from './fighter-summary.sql';
import { licenceStatusSql } from './read-model/card.sql';
import { FEED_ORDER } from './read-model/read-model.sql';
import type { ReadSql } from './read-model/read-sql';
import type { ReadContext } from './read-context';
import type { FeedRow, ResultFilters } from './results.queries';

/** Where a row stands in the feed: its sort key (event date, event code, bout order, outcome rank, fighter slug). */
export interface FeedKey {
  d: string;
  c: string;
  o: number;
  r: number;
  s: string;
}

/** A page that starts from a known row of the feed: `key` is the row at `offset` of the filtered feed. */
export interface FeedAnchor {
  key: FeedKey;
  offset: number;
}

/**
 * Verified results from the read model (result_row): one row per fighter of a bout, stored in
 * feed order with the filters' columns, the fighter's day of majority and what a page shows of
 * the fighter's card, the event and the opponent (docs/adr/0013-cold-reads.md, decision 6). A page
 * reads result_row alone, by index scans in feed order (decision 7 for a deep page).
 */
/** A page from an anchor: the anchor's key, and the rows to skip after it and to take. */
interface AnchoredPage {
  key: FeedKey;
  skip: number;
  perPage: number;
}

/** At most this many anchored pages in one statement. */
const PAGE_BATCH = 64;
/** Anchored pages read together take at most this many rows of each scan (`perPage` + `skip`; a page is at most 100 rows and the reader's anchors are 25 apart, further only in a feed it thins); a page further from its anchor is read alone. */
const BATCHED_ROWS_MAX = 200;

export class ResultFeedQueries {
  /** Anchored pages of one day and filter set waiting for the statement that reads them together. */
  private readonly pageBatches = new Map<string, DataLoader<AnchoredPage, FeedRow[]>>();

  constructor(private readonly db: ReadSql) {}

  /** Adults only: minors' results never appear. */
  /**
   * A page, by offset; with an anchor at or before the page's start (see `anchors`), the index scans
   * start at the anchor's row and skip only the rows between it and the page, where an offset
   * alone walks every row before the page (seconds, deep in a feed of a million rows). The rows
   * from the anchor on are those of the anchor's day at or after it, then those of earlier days:
   * two index scans, each of which starts at its first row (the day descends and the rest of the
   * key ascends, so no one comparison of the whole key bounds the index; a day has 3,000 rows on
   * average at 100k fighters, which one scan bounded by the day alone read and dropped).
   */
  async list(ctx: ReadContext, filters: ResultFilters, page: Page, anchor?: FeedAnchor): Promise<FeedRow[]> {
    const offset = (page.page - 1) * page.perPage;
    if (anchor && anchor.offset <= offset) {
      const skip = offset - anchor.offset;
      if (page.perPage + skip <= BATCHED_ROWS_MAX) return this.batchOf(ctx, filters).load({ key: anchor.key, skip, perPage: page.perPage });
      return this.anchoredPage(ctx, filters, { key: anchor.key, skip, perPage: page.perPage });
    }
    const { where, values } = feedWhere(ctx, filters);
    values.push(page.perPage, offset);
    const n = values.length;
    return this.page(`result_row r where ${where}`, values, `limit $${n - 1} offset $${n}`);
  }

  /** One anchored page by itself (a skip longer than anchors are apart). */
  private anchoredPage(ctx: ReadContext, filters: ResultFilters, p: AnchoredPage): Promise<FeedRow[]> {
    const { where, values } = feedWhere(ctx, filters);
    const k = p.key;
    values.push(k.d, k.c, k.o, k.r, k.s, p.perPage, p.skip);
    const n = values.length;
    const [day, per, skip] = [`$${n - 6}::date`, `$${n - 1}`, `$${n}`];
    const rows = `order by ${FEED_ORDER} limit ${per}::int + ${skip}::int`;
    const from = `((select * from result_row r where ${where} and r.event_date = ${day}
        and (r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug) >= ($${n - 5}, $${n - 4}::int, $${n - 3}::smallint, $${n - 2}) ${rows})
      union all (select * from result_row r where ${where} and r.event_date < ${day} ${rows})) r`;
    return this.page(from, values, `limit ${per} offset ${skip}`);
  }

  /**
   * The anchored pages of one day and filter set asked while the event loop handles one round of
   * input (a crawler's requests arriving together on its connections) are read by one statement,
   * as profiles are (decision 2 of docs/adr/0013-cold-reads.md): one round trip and one plan for
   * them all.
   */
  private batchOf(ctx: ReadContext, filters: ResultFilters): DataLoader<AnchoredPage, FeedRow[]> {
    const key = `${ctx.today}|${JSON.stringify(filters)}`;
    let batch = this.pageBatches.get(key);
    if (!batch) {
      if (this.pageBatches.size >= 64) this.pageBatches.clear(); // a new day: the old ones are done
      batch = new DataLoader((pages) => this.anchoredPages(ctx, filters, pages), {
        cache: false,
        maxBatchSize: PAGE_BATCH,
        batchScheduleFn: (run) => setImmediate(run),
      });
      this.pageBatches.set(key, batch);
    }
    return batch;
  }

  /**
   * Each page is the statement of `anchoredPage`, laterally over the pages' keys; its rows are
   * numbered in feed order, and the rows come ordered by page, then that number. The scan of the
   * earlier days is capped by a constant (BATCHED_ROWS_MAX; it stops at the rows the page takes
   * anyway): with the cap a parameter PostgreSQL costs each page for a tenth of the feed and
   * compiles the statement (JIT, tens of milliseconds).
   */
  private async anchoredPages(ctx: ReadContext, filters: ResultFilters, pages: readonly AnchoredPage[]): Promise<FeedRow[][]> {
    const { where, values } = feedWhere(ctx, filters);
    const n = values.length;
    values.push(
      pages.map((p) => p.key.d),
      pages.map((p) => p.key.c),
      pages.map((p) => p.key.o),
      pages.map((p) => p.key.r),
      pages.map((p) => p.key.s),
      pages.map((p) => p.perPage),
      pages.map((p) => p.skip),
    );
    const arrays = ['date', 'text', 'int', 'smallint', 'text', 'int', 'int'].map((type, i) => `$${n + i + 1}::${type}[]`).join(', ');
    const rows = await this.db.rows<FeedRow & { page_index?: number; n?: string }>(
      `select p.i::int - 1 as page_index, x.*
         from unnest(${arrays}) with ordinality as p(d, c, o, r, s, per, skip, i)
        cross join lateral (
          select ${ROW_COLUMNS}, row_number() over (order by ${FEED_ORDER}) as n
            from ((select * from result_row r where ${where} and r.event_date = p.d
                     and (r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug) >= (p.c, p.o, p.r, p.s)
                     order by ${FEED_ORDER} limit p.per + p.skip)
                  union all (select * from result_row r where ${where} and r.event_date < p.d order by ${FEED_ORDER} limit ${BATCHED_ROWS_MAX})) r
           order by ${FEED_ORDER} limit p.per offset p.skip) x
        order by p.i, x.n`,
      values,
    );
    const byPage: FeedRow[][] = pages.map(() => []);
    // Each row goes to its page as parsed, its two routing columns cleared rather than the row
    // copied without them (a copy of 29 fields a row was 4% of a page's CPU).
    for (const row of rows) {
      byPage[row.page_index as number].push(row);
      row.page_index = undefined;
      row.n = undefined;
    }
    return byPage;
  }

  /**
   * The sort keys of the rows at offsets `every`, 2 × `every`, ... of the filtered feed, in one
   * ordered scan: a deep page then starts from the nearest anchor before it (`list`).
   */
  async anchors(ctx: ReadContext, filters: ResultFilters, every: number): Promise<FeedKey[]> {
    const { where, values } = feedWhere(ctx, filters);
    const n = values.length;
    return this.db.rows<FeedKey>(
      `select d, c, o, r, s from (
         select r.event_date::text as d, r.event_code as c, r.bout_order as o, r.outcome_rank::int as r, r.fighter_slug as s,
                row_number() over (order by ${FEED_ORDER}) - 1 as n
           from result_row r where ${where}) x
        where n > 0 and n % $${n + 1} = 0 order by n`,
      [...values, every],
    );
  }

  async count(ctx: ReadContext, filters: ResultFilters): Promise<number> {
    const { where, values } = feedWhere(ctx, filters);
    return (await this.db.rows<{ n: number }>(`select count(*)::int as n from result_row r where ${where}`, values))[0].n;
  }

  async forEvent(ctx: ReadContext, eventCode: string): Promise<FeedRow[]> {
    return this.page('result_row r where r.adult_on <= $1::date and r.event_code = $2', [ctx.today, eventCode], '');
  }

  /** The fighter's last verified bouts, newest first (the profile shows them only for an adult). */
  async forFighter(ctx: ReadContext, fighterId: string, limit: number): Promise<FeedRow[]> {
    return this.page('result_row r where r.fighter_id = $2::uuid', [ctx.today, fighterId, limit], 'limit $3');
  }

  /** `$1` is always today: licence expiry, minority and the opponent's minority are decided from the stored dates. */
  private page(from: string, values: unknown[], tail: string): Promise<FeedRow[]> {
    return this.db.rows<FeedRow>(`select ${ROW_COLUMNS} from ${from} order by ${FEED_ORDER} ${tail}`, values);
  }
}

/**
 * A FeedRow from a result row `r` alone, `$1` being today: the FighterRow and EventRow columns of
 * cardColumns and eventColumns and the bout's, less the ids and dates no view of the feed sends
 * (decision 10 of docs/adr/0013-cold-reads.md).
 */
const ROW_COLUMNS = `r.fighter_slug as f_slug, r.fighter_name as f_name, r.fighter_nickname as f_nickname,
    r.fighter_status as f_status, r.fighter_ranking_published as f_ranking_published, r.fighter_code as f_fighter_code,
    r.fighter_country as c_slug, r.country_name as c_name, r.country_code as c_code,
    r.continent_slug as c_continent, r.division_discipline as d_discipline, r.division_category as d_category,
    r.division_gender as d_gender, r.division_weight_class as d_weight_class, r.division_label as d_label,
    ${licenceStatusSql('r')} as f_licence_status,
    r.event_code as e_code, r.event_name as e_name, r.event_city as e_city, r.event_country as e_country,
    r.event_date::text as e_date, r.event_level as e_level, r.event_status as e_status,
    r.result, r.method, r.round,
    r.opponent_name as opponent, coalesce(r.opponent_adult_on > $1::date, true) as opponent_minor`;

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
