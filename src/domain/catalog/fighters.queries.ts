import DataLoader from 'dataloader';
import type { FighterRecord } from '../rankings/ranking.engine';
import { escapeLike, foldText } from '../text';
import type { FighterRow, Page } from './fighter-summary.sql';
import { cardColumns, STANDING_COLUMNS, standingJoin } from './read-model/card.sql';
import type { ReadSql } from './read-model/read-sql';
import type { ReadContext } from './read-context';
import type { BoutRow } from './results.queries';
import { opponentMinorOn } from './withheld-opponent';

export interface FighterFilters {
  q?: string;
  country?: string;
  disc?: string;
  status?: string;
}

/** A fighter as its card holds it (the summary, the record), with their standing in the run read. */
export interface FighterCardRow extends FighterRow {
  record: FighterRecord;
  points: number | null;
  ranks: Record<string, number> | null;
}

/** A profile: the card, the standing and, for an adult, the last bouts (null for a minor). */
export interface FighterProfileRow extends FighterCardRow {
  bouts: BoutRow[] | null;
}

/** A bout as the card stores it (read-model.sql.ts): the opponent's day of majority in place of whether they are a minor today. */
type StoredBout = Omit<BoutRow, 'opponent_minor'> & { opponent_adult_on: string | null };

// Made once: a statement's text is also its prepared statement's key (read-sql.ts).
const BY_SLUG = `select ${cardColumns()}, ${STANDING_COLUMNS} from fighter_card f ${standingJoin('$3')} where f.slug = $2`;
const PROFILES = `select ${cardColumns()}, ${STANDING_COLUMNS}, case when f.adult_on <= $1::date then f.bouts end as bouts
  from fighter_card f ${standingJoin('$3')} where f.slug = any($2::text[])`;

/** At most this many profiles in one statement. */
const PROFILE_BATCH = 64;

/**
 * Fighters from the read model (fighter_card), each with their standing in the context's run
 * (fighter_standing, by primary key; docs/adr/0009). The list is ordered by the
 * folded name, then slug (both `collate "C"` in the table, as the index). A search of 3 or more
 * characters can use the trigram index; a 2-character one walks the name index and stops once a
 * page is full (docs/adr/0001).
 */
export class FighterQueries {
  /** Profile reads of one context (day, run) waiting for the statement that reads them together. */
  private readonly profileBatches = new Map<string, DataLoader<string, FighterProfileRow | null>>();

  constructor(private readonly db: ReadSql) {}

  /** Adults only: minors are never listed. */
  async list(ctx: ReadContext, filters: FighterFilters, page: Page): Promise<FighterCardRow[]> {
    const { where, values } = listWhere(ctx, filters);
    const n = values.length;
    return this.db.rows<FighterCardRow>(
      `select ${cardColumns()}, ${STANDING_COLUMNS} from fighter_card f ${standingJoin(`$${n + 3}`)} where ${where}
        order by f.sort_name, f.slug limit $${n + 1} offset $${n + 2}`,
      [...values, page.perPage, (page.page - 1) * page.perPage, ctx.runId],
    );
  }

  async count(ctx: ReadContext, filters: FighterFilters): Promise<number> {
    const { where, values } = listWhere(ctx, filters);
    const rows = await this.db.rows<{ n: number }>(`select count(*)::int as n from fighter_card f where ${where}`, values);
    return rows[0].n;
  }

  async bySlug(ctx: ReadContext, slug: string): Promise<FighterCardRow | null> {
    if (slug.includes('\0')) return null; // PostgreSQL text cannot hold NUL: no such slug, and the query would fail
    const rows = await this.db.rows<FighterCardRow>(BY_SLUG, [ctx.today, slug, ctx.runId]);
    return rows[0] ?? null;
  }

  /**
   * A fighter's profile: the card, the standing and the last CARD_BOUTS bouts (what bySlug and
   * ResultFeedQueries.forFighter read in two statements): the card keeps its latest bouts, so a
   * profile is one row read by key. The profiles asked for while the event
   * loop handles one batch of input (a crawler's requests arriving together on its connections)
   * are read by one statement, so a cold profile costs a share of one round trip
   * (docs/adr/0013-cold-reads.md).
   */
  profile(ctx: ReadContext, slug: string): Promise<FighterProfileRow | null> {
    if (slug.includes('\0')) return Promise.resolve(null); // PostgreSQL text cannot hold NUL: no such slug, and the query would fail
    const key = `${ctx.today}|${ctx.runId}`;
    let batch = this.profileBatches.get(key);
    if (!batch) {
      if (this.profileBatches.size >= 8) this.profileBatches.clear(); // a new day or run: the old contexts are done
      batch = new DataLoader((slugs) => this.profiles(ctx, slugs), {
        cache: false,
        maxBatchSize: PROFILE_BATCH,
        batchScheduleFn: (run) => setImmediate(run),
      });
      this.profileBatches.set(key, batch);
    }
    return batch.load(slug);
  }

  private async profiles(ctx: ReadContext, slugs: readonly string[]): Promise<(FighterProfileRow | null)[]> {
    const rows = await this.db.rows<FighterCardRow & { bouts: StoredBout[] | null }>(PROFILES, [ctx.today, [...slugs], ctx.runId]);
    const bySlug = new Map<string, FighterProfileRow>();
    for (const r of rows) bySlug.set(r.f_slug, Object.assign(r, { bouts: r.bouts && shownBouts(r.bouts, ctx.today) }));
    return slugs.map((slug) => bySlug.get(slug) ?? null);
  }
}

/**
 * The stored bouts as a profile reads them: each opponent a minor or not on `today`. The rows
 * parsed for this read are completed in place (no copy of each); the views read the fields they
 * show, not the stored day of majority.
 */
function shownBouts(stored: StoredBout[], today: string): BoutRow[] {
  const bouts = stored as (StoredBout & { opponent_minor: boolean })[];
  for (const b of bouts) b.opponent_minor = opponentMinorOn(b.opponent_adult_on, today);
  return bouts;
}

function listWhere(ctx: ReadContext, filters: FighterFilters): { where: string; values: unknown[] } {
  const where = ['f.adult_on <= $1::date'];
  const values: unknown[] = [ctx.today];
  const add = (clause: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };
  if (filters.q) add((p) => `f.search_text like ${p} escape '\\'`, `%${escapeLike(foldText(filters.q))}%`);
  if (filters.country) add((p) => `f.country_slug = ${p}`, filters.country);
  if (filters.disc) add((p) => `f.discipline = ${p}`, filters.disc);
  if (filters.status) add((p) => `f.status = ${p}`, filters.status);
  return { where: where.join(' and '), values };
}
