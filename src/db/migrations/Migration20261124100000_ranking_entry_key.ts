import { Migration } from '@mikro-orm/migrations';

/**
 * A ranking entry is identified by its run, division, scope and fighter (already unique): that key
 * becomes the primary key, and the random uuid `id` (read by nothing) and its index go, with the
 * (run, fighter) index, whose only reader was the cards' standing (now fighter_standing). Each
 * index cost about a second of the 184,000-row write of a run at scale, the uuid one the most (its
 * inserts land on random pages). See docs/adr/0009-ranking-publication-at-scale.md.
 */
export class Migration20261124100000_ranking_entry_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_pkey";`);
    this.addSql(`alter table "ranking_entry" drop column "id";`);
    this.addSql(`drop index if exists "ranking_entry_run_id_fighter_id_index";`);
    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_run_id_division_id_scope_fighter_id_unique";`);
    this.addSql(`alter table "ranking_entry" add constraint "ranking_entry_pkey" primary key ("run_id", "division_id", "scope", "fighter_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_pkey";`);
    this.addSql(`alter table "ranking_entry" add column "id" uuid not null default gen_random_uuid();`);
    this.addSql(`alter table "ranking_entry" alter column "id" drop default;`);
    this.addSql(`alter table "ranking_entry" add constraint "ranking_entry_pkey" primary key ("id");`);
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_run_id_division_id_scope_fighter_id_unique" unique ("run_id", "division_id", "scope", "fighter_id");`,
    );
    this.addSql(`create index "ranking_entry_run_id_fighter_id_index" on "ranking_entry" ("run_id", "fighter_id");`);
  }
}
