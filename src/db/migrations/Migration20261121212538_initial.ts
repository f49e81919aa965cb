import { Migration } from '@mikro-orm/migrations';

export class Migration20261121212538_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_entry" ("id" uuid not null, "actor" text not null, "action" text not null, "subject" text null, "data" jsonb null, "at" timestamptz not null, constraint "audit_entry_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_entry_at_index" on "audit_entry" ("at");`);

    this.addSql(`create table "continent" ("slug" text not null, "name" text not null, constraint "continent_pkey" primary key ("slug"));`);

    this.addSql(
      `create table "country" ("slug" text not null, "name" text not null, "code" text not null, "continent_slug" text not null, constraint "country_pkey" primary key ("slug"));`,
    );
    this.addSql(`alter table "country" add constraint "country_code_unique" unique ("code");`);

    this.addSql(
      `create table "division" ("id" text not null, "discipline" text not null, "category" text not null, "gender" text not null, "weight_class" text not null, "label" text not null, "sort_order" int not null, constraint "division_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "division_discipline_category_gender_sort_order_index" on "division" ("discipline", "category", "gender", "sort_order");`);

    this.addSql(
      `create table "fighter" ("id" uuid not null, "slug" text not null, "name" text not null, "search_text" text not null, "sort_name" text not null, "nickname" text null, "country_slug" text not null, "division_id" text not null, "status" text not null default 'applicant', "ranking_published" boolean not null default true, "fighter_code" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "fighter_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "fighter" add constraint "fighter_slug_unique" unique ("slug");`);
    this.addSql(`create index "fighter_search_text_index" on "fighter" ("search_text");`);
    this.addSql(`create index "fighter_sort_name_index" on "fighter" ("sort_name" collate "C", "slug" collate "C");`);
    this.addSql(`alter table "fighter" add constraint "fighter_fighter_code_unique" unique ("fighter_code");`);

    this.addSql(
      `create table "certificate" ("id" uuid not null, "fighter_id" uuid not null, "certificate_no" text not null, "kind" text not null default 'medical', "state" text not null default 'pending', "issued_on" date null, "valid_until" date null, "created_at" timestamptz not null, constraint "certificate_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "certificate" add constraint "certificate_certificate_no_unique" unique ("certificate_no");`);

    this.addSql(
      `create table "fighter_identity" ("fighter_id" uuid not null, "date_of_birth" date not null, "email" text not null, "phone" text not null, "address" text not null, constraint "fighter_identity_pkey" primary key ("fighter_id"));`,
    );

    this.addSql(
      `create table "licence" ("id" uuid not null, "fighter_id" uuid not null, "licence_no" text not null, "state" text not null default 'pending', "current" boolean not null default true, "issued_on" date null, "valid_until" date null, "verified_at" timestamptz null, "created_at" timestamptz not null, constraint "licence_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "licence" add constraint "licence_licence_no_unique" unique ("licence_no");`);
    this.addSql(`create index "licence_fighter_id_current_index" on "licence" ("fighter_id", "current");`);

    this.addSql(
      `create table "partner" ("id" uuid not null, "slug" text not null, "name" text not null, "status" text not null default 'active', "created_at" timestamptz not null, constraint "partner_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "partner" add constraint "partner_slug_unique" unique ("slug");`);

    this.addSql(
      `create table "api_key" ("id" uuid not null, "partner_id" uuid not null, "name" text not null, "prefix" text not null, "hash" text not null, "scopes" text[] not null, "rate_limit_per_minute" int not null default 60, "expires_at" timestamptz null, "revoked_at" timestamptz null, "request_count" bigint not null default 0, "last_used_at" timestamptz null, "created_at" timestamptz not null, constraint "api_key_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "api_key" add constraint "api_key_hash_unique" unique ("hash");`);

    this.addSql(
      `create table "ranking_run" ("id" uuid not null, "as_of" date not null, "published_at" timestamptz not null, constraint "ranking_run_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "ranking_run" add constraint "ranking_run_as_of_unique" unique ("as_of");`);

    this.addSql(
      `create table "ranking_entry" ("id" uuid not null, "run_id" uuid not null, "division_id" text not null, "scope" text not null, "fighter_id" uuid not null, "rank" int not null, "position" int not null, "points" double precision not null, "previous_rank" int null, "movement" int null, "record" jsonb not null, constraint "ranking_entry_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ranking_entry_run_id_fighter_id_index" on "ranking_entry" ("run_id", "fighter_id");`);
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_run_id_division_id_scope_fighter_id_unique" unique ("run_id", "division_id", "scope", "fighter_id");`,
    );

    this.addSql(
      `create table "event" ("id" uuid not null, "code" text not null, "name" text not null, "city" text null, "country_slug" text not null, "date" date not null, "level" text null, "status" text not null default 'scheduled', "sanctioned_at" timestamptz null, "created_at" timestamptz not null, constraint "event_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "event" add constraint "event_code_unique" unique ("code");`);
    this.addSql(`create index "event_date_index" on "event" ("date");`);

    this.addSql(
      `create table "bout" ("id" uuid not null, "event_id" uuid not null, "order" int not null, "division_id" text not null, "fighter_a_id" uuid not null, "fighter_b_id" uuid not null, "outcome" text not null, "method" text null, "round" int null, "recorded_at" timestamptz not null, "verified_at" timestamptz null, constraint "bout_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "bout_fighter_b_id_index" on "bout" ("fighter_b_id");`);
    this.addSql(`create index "bout_fighter_a_id_index" on "bout" ("fighter_a_id");`);
    this.addSql(`alter table "bout" add constraint "bout_event_id_order_unique" unique ("event_id", "order");`);

    this.addSql(
      `alter table "country" add constraint "country_continent_slug_foreign" foreign key ("continent_slug") references "continent" ("slug") on update cascade;`,
    );

    this.addSql(
      `alter table "fighter" add constraint "fighter_country_slug_foreign" foreign key ("country_slug") references "country" ("slug") on update cascade;`,
    );
    this.addSql(
      `alter table "fighter" add constraint "fighter_division_id_foreign" foreign key ("division_id") references "division" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "certificate" add constraint "certificate_fighter_id_foreign" foreign key ("fighter_id") references "fighter" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "fighter_identity" add constraint "fighter_identity_fighter_id_foreign" foreign key ("fighter_id") references "fighter" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "licence" add constraint "licence_fighter_id_foreign" foreign key ("fighter_id") references "fighter" ("id") on update cascade;`);

    this.addSql(`alter table "api_key" add constraint "api_key_partner_id_foreign" foreign key ("partner_id") references "partner" ("id") on update cascade;`);

    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_run_id_foreign" foreign key ("run_id") references "ranking_run" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_division_id_foreign" foreign key ("division_id") references "division" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "ranking_entry" add constraint "ranking_entry_fighter_id_foreign" foreign key ("fighter_id") references "fighter" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "event" add constraint "event_country_slug_foreign" foreign key ("country_slug") references "country" ("slug") on update cascade;`,
    );

    this.addSql(`alter table "bout" add constraint "bout_event_id_foreign" foreign key ("event_id") references "event" ("id") on update cascade;`);
    this.addSql(`alter table "bout" add constraint "bout_division_id_foreign" foreign key ("division_id") references "division" ("id") on update cascade;`);
    this.addSql(`alter table "bout" add constraint "bout_fighter_a_id_foreign" foreign key ("fighter_a_id") references "fighter" ("id") on update cascade;`);
    this.addSql(`alter table "bout" add constraint "bout_fighter_b_id_foreign" foreign key ("fighter_b_id") references "fighter" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "country" drop constraint "country_continent_slug_foreign";`);

    this.addSql(`alter table "fighter" drop constraint "fighter_country_slug_foreign";`);

    this.addSql(`alter table "event" drop constraint "event_country_slug_foreign";`);

    this.addSql(`alter table "fighter" drop constraint "fighter_division_id_foreign";`);

    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_division_id_foreign";`);

    this.addSql(`alter table "bout" drop constraint "bout_division_id_foreign";`);

    this.addSql(`alter table "certificate" drop constraint "certificate_fighter_id_foreign";`);

    this.addSql(`alter table "fighter_identity" drop constraint "fighter_identity_fighter_id_foreign";`);

    this.addSql(`alter table "licence" drop constraint "licence_fighter_id_foreign";`);

    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_fighter_id_foreign";`);

    this.addSql(`alter table "bout" drop constraint "bout_fighter_a_id_foreign";`);

    this.addSql(`alter table "bout" drop constraint "bout_fighter_b_id_foreign";`);

    this.addSql(`alter table "api_key" drop constraint "api_key_partner_id_foreign";`);

    this.addSql(`alter table "ranking_entry" drop constraint "ranking_entry_run_id_foreign";`);

    this.addSql(`alter table "bout" drop constraint "bout_event_id_foreign";`);

    this.addSql(`drop table if exists "audit_entry" cascade;`);

    this.addSql(`drop table if exists "continent" cascade;`);

    this.addSql(`drop table if exists "country" cascade;`);

    this.addSql(`drop table if exists "division" cascade;`);

    this.addSql(`drop table if exists "fighter" cascade;`);

    this.addSql(`drop table if exists "certificate" cascade;`);

    this.addSql(`drop table if exists "fighter_identity" cascade;`);

    this.addSql(`drop table if exists "licence" cascade;`);

    this.addSql(`drop table if exists "partner" cascade;`);

    this.addSql(`drop table if exists "api_key" cascade;`);

    this.addSql(`drop table if exists "ranking_run" cascade;`);

    this.addSql(`drop table if exists "ranking_entry" cascade;`);

    this.addSql(`drop table if exists "event" cascade;`);

    this.addSql(`drop table if exists "bout" cascade;`);
  }
}
