import { Migration } from '@mikro-orm/migrations';

/**
 * Ranking entries are derived data, written only by the publication, in one transaction, from
 * fighter and division ids it has just read: the foreign keys to fighter and division checked
 * each of a run's rows again (one lookup and row lock per key per row) and took most of the
 * write at scale. The key to the run stays, with its cascade. See docs/adr/0009-ranking-publication-at-scale.md.
 */
export class Migration20261123090000_ranking_entry_derived extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ranking_entry" drop constraint if exists "ranking_entry_fighter_id_foreign";`);
    this.addSql(`alter table "ranking_entry" drop constraint if exists "ranking_entry_division_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_fighter_id_foreign" foreign key ("fighter_id") references "fighter" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_division_id_foreign" foreign key ("division_id") references "division" ("id") on update cascade;`,
    );
  }
}
