import { Migration } from '@mikro-orm/migrations';

const FEED_ORDER = `"event_date" desc, "event_code", "bout_order", "outcome_rank", "fighter_slug"`;

/**
 * The feed's indexes carry each row's day of majority (`include ("adult_on")`), the one column
 * every read of the feed filters on besides the index's own (docs/adr/0013-cold-reads.md): a
 * filter set's count and its anchors (one ordered scan of the whole filtered feed) become
 * index-only scans where the heap's pages are all-visible, instead of a scan of the heap (390 MB
 * at 100k fighters against 70 MB of index). Each index is built anew under its own name, then the
 * old one dropped and the new one renamed, so the feed keeps an index throughout.
 */
const INDEXES: readonly (readonly [name: string, columns: string])[] = [
  ['result_row_feed_index', FEED_ORDER],
  ['result_row_country_index', `"fighter_country", ${FEED_ORDER}`],
  ['result_row_discipline_index', `"discipline", ${FEED_ORDER}`],
  ['result_row_event_index', `"event_code", "bout_order", "outcome_rank", "fighter_slug"`],
];

export class Migration20261129020000_feed_index_adult_on extends Migration {
  override async up(): Promise<void> {
    for (const [name, columns] of INDEXES) {
      this.addSql(`create index "${name}_next" on "result_row" (${columns}) include ("adult_on");`);
      this.addSql(`drop index "${name}";`);
      this.addSql(`alter index "${name}_next" rename to "${name}";`);
    }
  }

  override async down(): Promise<void> {
    for (const [name, columns] of INDEXES) {
      this.addSql(`create index "${name}_next" on "result_row" (${columns});`);
      this.addSql(`drop index "${name}";`);
      this.addSql(`alter index "${name}_next" rename to "${name}";`);
    }
  }
}
