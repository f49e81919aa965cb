import { Migration } from '@mikro-orm/migrations';

/**
 * One row per fighter per verified bout: the shape partners see as a Result. A view keeps the
 * bout the single source of truth (verifying or correcting a bout changes both sides at once).
 */
export class Migration20261121213000_results_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create view "verified_result" as
      select b.id as bout_id, b."order" as bout_order, b.event_id, b.division_id, b.method, b.round, b.verified_at,
             b.fighter_a_id as fighter_id, b.fighter_b_id as opponent_id,
             case b.outcome when 'a' then 'W' when 'b' then 'L' when 'draw' then 'D' else 'NC' end as result
        from bout b where b.verified_at is not null
      union all
      select b.id, b."order", b.event_id, b.division_id, b.method, b.round, b.verified_at,
             b.fighter_b_id, b.fighter_a_id,
             case b.outcome when 'b' then 'W' when 'a' then 'L' when 'draw' then 'D' else 'NC' end
        from bout b where b.verified_at is not null;`);
    this.addSql(`create unique index "licence_one_current_per_fighter" on "licence" ("fighter_id") where "current";`);
    this.addSql(`create index "bout_verified_event_index" on "bout" ("event_id") where "verified_at" is not null;`);
    this.addSql(`create index "fighter_country_index" on "fighter" ("country_slug");`);
    // Document numbers come from sequences so that numbering is gap-tolerant, concurrent-safe
    // and deterministic for the demo data.
    this.addSql(`create sequence "fighter_code_seq";`);
    this.addSql(`create sequence "licence_no_seq";`);
    this.addSql(`create sequence "certificate_no_seq";`);
    this.addSql(`create sequence "event_code_seq";`);
  }

  override async down(): Promise<void> {
    for (const seq of ['fighter_code_seq', 'licence_no_seq', 'certificate_no_seq', 'event_code_seq']) {
      this.addSql(`drop sequence if exists "${seq}";`);
    }
    this.addSql(`drop index if exists "fighter_country_index";`);
    this.addSql(`drop index if exists "bout_verified_event_index";`);
    this.addSql(`drop index if exists "licence_one_current_per_fighter";`);
    this.addSql(`drop view if exists "verified_result";`);
  }
}
