import { Migration } from '@mikro-orm/migrations';
import { REBUILD_STATEMENTS } from '../../domain/catalog/read-model/read-model.sql';

const FEED_ORDER = `event_date desc, event_code, bout_order, outcome_rank, fighter_slug`;

/**
 * The partner read model (docs/adr/0001): one card per fighter in the shape served, one row per
 * side of each verified bout at a sanctioned event in feed order. Maintained by the operator's
 * workflow in the transaction of each change; filled here from what already exists.
 * pg_trgm serves substring search of 3 or more characters (the embedded database loads it too).
 */
export class Migration20261122090000_read_model extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "fighter_card" (
      "fighter_id" uuid not null primary key references "fighter" ("id") on update cascade on delete cascade,
      "slug" text collate "C" not null unique, "name" text not null, "nickname" text null,
      "sort_name" text collate "C" not null, "search_text" text not null,
      "country_slug" text not null, "country_name" text not null, "country_code" text not null, "continent_slug" text not null,
      "division_id" text not null, "discipline" text not null, "category" text not null, "gender" text not null,
      "weight_class" text not null, "division_label" text not null,
      "status" text not null, "ranking_published" boolean not null, "fighter_code" text null,
      "licence_state" text not null, "licence_valid_until" date null, "adult_on" date not null,
      "record" json not null, "points" double precision null, "ranks" json null);`);
    this.addSql(`create index "fighter_card_list_index" on "fighter_card" ("sort_name", "slug");`);
    this.addSql(`create index "fighter_card_country_index" on "fighter_card" ("country_slug", "sort_name", "slug");`);
    this.addSql(`create index "fighter_card_search_trgm" on "fighter_card" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(`create unique index "fighter_card_fighter_code_index" on "fighter_card" ("fighter_code");`);
    this.addSql(`create table "result_row" (
      "bout_id" uuid not null, "fighter_id" uuid not null,
      "event_id" uuid not null, "event_code" text collate "C" not null, "event_date" date not null,
      "bout_order" int not null, "outcome_rank" smallint not null, "fighter_slug" text collate "C" not null,
      "fighter_country" text not null, "discipline" text not null, "adult_on" date not null,
      "result" text not null, "method" text null, "round" int null, "verified_at" timestamptz not null, "opponent_name" text not null,
      constraint "result_row_pkey" primary key ("bout_id", "fighter_id"));`);
    this.addSql(`create index "result_row_feed_index" on "result_row" (${FEED_ORDER});`);
    this.addSql(`create index "result_row_fighter_index" on "result_row" ("fighter_id", ${FEED_ORDER});`);
    this.addSql(`create index "result_row_country_index" on "result_row" ("fighter_country", ${FEED_ORDER});`);
    this.addSql(`create index "result_row_discipline_index" on "result_row" ("discipline", ${FEED_ORDER});`);
    this.addSql(`create index "result_row_event_index" on "result_row" ("event_code", "bout_order", "outcome_rank", "fighter_slug");`);
    this.addSql(`create index "result_row_event_id_index" on "result_row" ("event_id");`);
    this.addSql(`create index "event_sanctioned_date_index" on "event" ("date", "code") where "sanctioned_at" is not null;`);
    for (const statement of REBUILD_STATEMENTS) this.addSql(`${statement};`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "event_sanctioned_date_index";`);
    this.addSql(`drop table if exists "result_row";`);
    this.addSql(`drop table if exists "fighter_card";`);
  }
}
