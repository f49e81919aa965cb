import { Migration } from '@mikro-orm/migrations';

const FEED_ORDER = `"event_date" desc, "event_code", "bout_order", "outcome_rank", "fighter_slug"`;

/**
 * Each result row keeps what a page of the results feed shows of its fighter's card, its event and
 * its opponent (the opponent's day of majority), so a page is one index scan of result_row
 * (docs/adr/0013-cold-reads.md, decision 6). The table is written anew (a copy with the new
 * columns filled from the cards, events and opponents' rows, then its key and indexes, as in
 * Migration20261122090000_read_model) rather than updated in place, which would write every row
 * twice and every index entry again; its rows are written in feed order, so a page's rows share a
 * few heap pages rather than each having its own. The statements as they were when this migration was written
 * (a migration never changes with later code).
 */
export class Migration20261128070000_result_row_shown extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "result_row_next" (
      "bout_id" uuid not null, "fighter_id" uuid not null,
      "event_id" uuid not null, "event_code" text collate "C" not null, "event_date" date not null,
      "bout_order" int not null, "outcome_rank" smallint not null, "fighter_slug" text collate "C" not null,
      "fighter_country" text not null, "discipline" text not null, "adult_on" date not null,
      "result" text not null, "method" text null, "round" int null, "verified_at" timestamptz not null, "opponent_name" text not null,
      "opponent_adult_on" date null,
      "fighter_name" text not null, "fighter_nickname" text null, "fighter_status" text not null,
      "fighter_ranking_published" boolean not null, "fighter_code" text null, "fighter_division_id" text not null,
      "country_name" text not null, "country_code" text not null, "continent_slug" text not null,
      "division_discipline" text not null, "division_category" text not null, "division_gender" text not null,
      "division_weight_class" text not null, "division_label" text not null,
      "licence_state" text not null, "licence_valid_until" date null,
      "event_name" text not null, "event_city" text null, "event_country" text not null, "event_level" text null, "event_status" text not null);`);
    this.addSql(`insert into "result_row_next"
      select r.bout_id, r.fighter_id, r.event_id, r.event_code, r.event_date, r.bout_order, r.outcome_rank, r.fighter_slug,
             r.fighter_country, r.discipline, r.adult_on, r.result, r.method, r.round, r.verified_at, r.opponent_name,
             o.adult_on,
             f.name, f.nickname, f.status, f.ranking_published, f.fighter_code, f.division_id,
             f.country_name, f.country_code, f.continent_slug, f.discipline, f.category, f.gender, f.weight_class, f.division_label,
             f.licence_state, f.licence_valid_until,
             e.name, e.city, e.country_slug, e.level, e.status
        from result_row r
        join fighter_card f on f.fighter_id = r.fighter_id
        join event e on e.id = r.event_id
        left join result_row o on o.bout_id = r.bout_id and o.fighter_id <> r.fighter_id
       order by r.event_date desc, r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug;`);
    this.addSql(`drop table "result_row";`);
    this.addSql(`alter table "result_row_next" rename to "result_row";`);
    this.addSql(`alter table "result_row" add constraint "result_row_pkey" primary key ("bout_id", "fighter_id");`);
    this.addSql(`create index "result_row_feed_index" on "result_row" (${FEED_ORDER});`);
    this.addSql(`create index "result_row_fighter_index" on "result_row" ("fighter_id", ${FEED_ORDER});`);
    this.addSql(`create index "result_row_country_index" on "result_row" ("fighter_country", ${FEED_ORDER});`);
    this.addSql(`create index "result_row_discipline_index" on "result_row" ("discipline", ${FEED_ORDER});`);
    this.addSql(`create index "result_row_event_index" on "result_row" ("event_code", "bout_order", "outcome_rank", "fighter_slug");`);
    this.addSql(`create index "result_row_event_id_index" on "result_row" ("event_id");`);
    this.addSql(`analyze result_row;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "result_row" drop column "opponent_adult_on", drop column "fighter_name", drop column "fighter_nickname",
      drop column "fighter_status", drop column "fighter_ranking_published", drop column "fighter_code", drop column "fighter_division_id",
      drop column "country_name", drop column "country_code", drop column "continent_slug", drop column "division_discipline",
      drop column "division_category", drop column "division_gender", drop column "division_weight_class", drop column "division_label",
      drop column "licence_state", drop column "licence_valid_until", drop column "event_name", drop column "event_city",
      drop column "event_country", drop column "event_level", drop column "event_status";`);
  }
}
