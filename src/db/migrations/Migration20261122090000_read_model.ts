import { Migration } from '@mikro-orm/migrations';

const FEED_ORDER = `event_date desc, event_code, bout_order, outcome_rank, fighter_slug`;

/**
 * The partner read model (docs/adr/0001): one card per fighter in the shape served, one row per
 * side of each verified bout at a sanctioned event in feed order. Maintained by the operator's
 * workflow in the transaction of each change; filled here from what already exists.
 * pg_trgm serves substring search of 3 or more characters (the embedded database loads it too).
 */
/**
 * The read model filled from what already exists: the statements of rebuildReadModel as they were
 * when this migration was written (a migration never changes with later code).
 */
const FILL: readonly string[] = [
  'delete from result_row',
  "insert into result_row (bout_id, fighter_id, event_id, event_code, event_date, bout_order, outcome_rank, fighter_slug,\n      fighter_country, discipline, adult_on, result, method, round, verified_at, opponent_name)\n    select b.id, s.fighter_id, b.event_id, e.code, e.date, b.\"order\",\n           case s.result when 'W' then 0 when 'D' then 1 when 'NC' then 2 else 3 end,\n           f.slug, f.country_slug, d.discipline, (fi.date_of_birth + interval '18 years'\n    + case when extract(month from fi.date_of_birth) = 2 and extract(day from fi.date_of_birth) = 29 then interval '1 day' else interval '0 days' end)::date, s.result, b.method, b.round, b.verified_at, o.name\n      from bout b\n      join event e on e.id = b.event_id and e.sanctioned_at is not null\n      join division d on d.id = b.division_id\n      cross join lateral (values (b.fighter_a_id, b.fighter_b_id, case b.outcome when 'a' then 'W' when 'b' then 'L' when 'draw' then 'D' else 'NC' end), (b.fighter_b_id, b.fighter_a_id, case b.outcome when 'b' then 'W' when 'a' then 'L' when 'draw' then 'D' else 'NC' end))\n        as s(fighter_id, opponent_id, result)\n      join fighter f on f.id = s.fighter_id\n      join fighter_identity fi on fi.fighter_id = f.id\n      join fighter o on o.id = s.opponent_id\n     where b.verified_at is not null and true",
  'delete from fighter_card',
  "with latest as (select id from ranking_run order by as_of desc limit 1)\n    insert into fighter_card (fighter_id, slug, name, nickname, sort_name, search_text, country_slug, country_name, country_code, continent_slug,\n  division_id, discipline, category, gender, weight_class, division_label, status, ranking_published, fighter_code,\n  licence_state, licence_valid_until, adult_on, record, points, ranks)\n    select f.id, f.slug, f.name, f.nickname, f.sort_name, f.search_text, f.country_slug, c.name, c.code, c.continent_slug,\n           d.id, d.discipline, d.category, d.gender, d.weight_class, d.label, f.status, f.ranking_published, f.fighter_code,\n           case when l.id is null then 'none' when l.state in ('pending', 'suspended') then l.state else 'active' end,\n           l.valid_until, (fi.date_of_birth + interval '18 years'\n    + case when extract(month from fi.date_of_birth) = 2 and extract(day from fi.date_of_birth) = 29 then interval '1 day' else interval '0 days' end)::date,\n           json_build_object('W', coalesce(rec.w, 0), 'L', coalesce(rec.l, 0), 'D', coalesce(rec.d, 0), 'NC', coalesce(rec.nc, 0), 'KO', coalesce(rec.ko, 0)),\n           st.points, st.ranks\n      from fighter f\n      join country c on c.slug = f.country_slug\n      join division d on d.id = f.division_id\n      join fighter_identity fi on fi.fighter_id = f.id\n      left join licence l on l.fighter_id = f.id and l.current\n      left join (\n        select r.fighter_id, count(*) filter (where r.result = 'W')::int as w, count(*) filter (where r.result = 'L')::int as l,\n               count(*) filter (where r.result = 'D')::int as d, count(*) filter (where r.result = 'NC')::int as nc,\n               count(*) filter (where r.result = 'W' and upper(coalesce(r.method, '')) in ('KO', 'TKO'))::int as ko\n          from result_row r where true group by r.fighter_id\n      ) rec on rec.fighter_id = f.id\n      left join (select e.fighter_id, max(e.points) filter (where e.scope = 'world') as points,\n           json_object_agg(e.scope, e.rank order by case when e.scope = 'world' then 0 when e.scope = c.continent_slug then 1 else 2 end, e.scope) as ranks\n      from ranking_entry e\n      join fighter f on f.id = e.fighter_id and f.division_id = e.division_id\n      join country c on c.slug = f.country_slug\n     where e.run_id = (select id from latest) and true\n     group by e.fighter_id) st on st.fighter_id = f.id\n     where true\n    on conflict (fighter_id) do update set slug = excluded.slug, name = excluded.name, nickname = excluded.nickname, sort_name = excluded.sort_name, search_text = excluded.search_text, country_slug = excluded.country_slug, country_name = excluded.country_name, country_code = excluded.country_code, continent_slug = excluded.continent_slug, division_id = excluded.division_id, discipline = excluded.discipline, category = excluded.category, gender = excluded.gender, weight_class = excluded.weight_class, division_label = excluded.division_label, status = excluded.status, ranking_published = excluded.ranking_published, fighter_code = excluded.fighter_code, licence_state = excluded.licence_state, licence_valid_until = excluded.licence_valid_until, adult_on = excluded.adult_on, record = excluded.record, points = excluded.points, ranks = excluded.ranks",
  'analyze fighter_card',
  'analyze result_row',
];

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
    for (const statement of FILL) this.addSql(`${statement};`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "event_sanctioned_date_index";`);
    this.addSql(`drop table if exists "result_row";`);
    this.addSql(`drop table if exists "fighter_card";`);
  }
}
