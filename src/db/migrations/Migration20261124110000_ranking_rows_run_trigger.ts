import { Migration } from '@mikro-orm/migrations';

/**
 * A run's rows (ranking_entry, fighter_standing) lose their foreign key to ranking_run: the key's
 * per-row check (a lookup and a FOR KEY SHARE lock of the same run row, 184,000 times) took half of
 * the entries' write at scale, and only the publication writes these rows, in the transaction that
 * has just inserted their run. Deleting a run still deletes its rows, by a trigger instead of the
 * keys' cascade. See docs/adr/0009-ranking-publication-at-scale.md.
 */
export class Migration20261124110000_ranking_rows_run_trigger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_run_id_foreign";`);
    this.addSql(`alter table "fighter_standing" drop constraint "fighter_standing_run_id_foreign";`);
    this.addSql(`create function "ranking_run_delete_rows"() returns trigger language plpgsql as $$
      begin
        delete from "ranking_entry" where "run_id" = old."id";
        delete from "fighter_standing" where "run_id" = old."id";
        return null;
      end $$;`);
    this.addSql(`create trigger "ranking_run_delete_rows" after delete on "ranking_run" for each row execute function "ranking_run_delete_rows"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "ranking_run_delete_rows" on "ranking_run";`);
    this.addSql(`drop function if exists "ranking_run_delete_rows"();`);
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_run_id_foreign" foreign key ("run_id") references "ranking_run" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "fighter_standing" add constraint "fighter_standing_run_id_foreign" foreign key ("run_id") references "ranking_run" ("id") on update cascade on delete cascade;`,
    );
  }
}
