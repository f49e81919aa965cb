import { Migration } from '@mikro-orm/migrations';

export class Migration20261121214003_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_endpoint" ("id" uuid not null, "partner_id" uuid null, "channel_id" uuid null, "url" text not null, "events" text[] not null, "secret" text not null, "next_secret" text null, "next_secret_from" timestamptz null, "enabled" boolean not null default true, "disabled_reason" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_endpoint_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_endpoint_channel_id_index" on "webhook_endpoint" ("channel_id");`);

    this.addSql(
      `create table "webhook_event" ("id" text not null, "type" text not null, "payload" text not null, "created_at" timestamptz not null, constraint "webhook_event_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_event_created_at_index" on "webhook_event" ("created_at");`);

    this.addSql(
      `create table "webhook_delivery" ("id" uuid not null, "event_id" text not null, "endpoint_id" uuid not null, "status" text not null default 'pending', "attempt" int not null default 0, "next_attempt_at" timestamptz not null, "lease_until" timestamptz null, "replay_of" uuid null, "last_status_code" int null, "last_error" text null, "created_at" timestamptz not null, "completed_at" timestamptz null, constraint "webhook_delivery_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_delivery_endpoint_id_created_at_index" on "webhook_delivery" ("endpoint_id", "created_at");`);
    this.addSql(`create index "webhook_delivery_status_next_attempt_at_index" on "webhook_delivery" ("status", "next_attempt_at");`);

    this.addSql(
      `create table "webhook_attempt" ("id" uuid not null, "delivery_id" uuid not null, "attempt_no" int not null, "started_at" timestamptz not null, "duration_ms" int not null, "request_headers" jsonb not null, "status_code" int null, "error" text null, "response_excerpt" text null, constraint "webhook_attempt_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_attempt_delivery_id_attempt_no_index" on "webhook_attempt" ("delivery_id", "attempt_no");`);

    this.addSql(
      `alter table "webhook_endpoint" add constraint "webhook_endpoint_partner_id_foreign" foreign key ("partner_id") references "partner" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_event_id_foreign" foreign key ("event_id") references "webhook_event" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoint" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "webhook_attempt" add constraint "webhook_attempt_delivery_id_foreign" foreign key ("delivery_id") references "webhook_delivery" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_endpoint_id_foreign";`);

    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_event_id_foreign";`);

    this.addSql(`alter table "webhook_attempt" drop constraint "webhook_attempt_delivery_id_foreign";`);

    this.addSql(`drop table if exists "webhook_endpoint" cascade;`);

    this.addSql(`drop table if exists "webhook_event" cascade;`);

    this.addSql(`drop table if exists "webhook_delivery" cascade;`);

    this.addSql(`drop table if exists "webhook_attempt" cascade;`);
  }
}
