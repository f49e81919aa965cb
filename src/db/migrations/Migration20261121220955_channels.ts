import { Migration } from '@mikro-orm/migrations';

export class Migration20261121220955_channels extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "channel" ("id" uuid not null, "slug" text not null, "name" text not null, "approved_at" timestamptz null, "plan" text not null default 'free', "billing_state" text not null default 'active', "created_at" timestamptz not null, constraint "channel_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "channel" add constraint "channel_slug_unique" unique ("slug");`);

    this.addSql(
      `create table "broadcast" ("id" uuid not null, "slug" text not null, "channel_id" uuid not null, "title" text not null, "source" text not null, "source_url" text null, "scheduled_at" timestamptz not null, "started_at" timestamptz null, "ended_at" timestamptz null, "state" text not null default 'scheduled', "visibility" text not null default 'public', "discipline" text null, "language" text not null default 'en', "tags" text[] not null, "replay_url" text null, "stream_key_hash" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "broadcast_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "broadcast" add constraint "broadcast_slug_unique" unique ("slug");`);
    this.addSql(`alter table "broadcast" add constraint "broadcast_stream_key_hash_unique" unique ("stream_key_hash");`);
    this.addSql(`create index "broadcast_channel_id_state_index" on "broadcast" ("channel_id", "state");`);
    this.addSql(`create index "broadcast_state_scheduled_at_index" on "broadcast" ("state", "scheduled_at");`);

    this.addSql(
      `create table "broadcast_telemetry" ("broadcast_id" uuid not null, "publishing" boolean not null default false, "bitrate_kbps" int null, "resolution" text null, "fps" double precision null, "viewers" int null, "reported_at" timestamptz not null, constraint "broadcast_telemetry_pkey" primary key ("broadcast_id"));`,
    );

    this.addSql(
      `create table "channel_api_key" ("id" uuid not null, "channel_id" uuid not null, "name" text not null, "prefix" text not null, "hash" text not null, "scopes" text[] not null, "created_by" uuid null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, "created_at" timestamptz not null, constraint "channel_api_key_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "channel_api_key" add constraint "channel_api_key_hash_unique" unique ("hash");`);

    this.addSql(
      `create table "studio_user" ("id" uuid not null, "email" text not null, "password_hash" text not null, "created_at" timestamptz not null, constraint "studio_user_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "studio_user" add constraint "studio_user_email_unique" unique ("email");`);

    this.addSql(
      `create table "channel_member" ("id" uuid not null, "channel_id" uuid not null, "user_id" uuid not null, "role" text not null, "created_at" timestamptz not null, constraint "channel_member_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "channel_member" add constraint "channel_member_channel_id_user_id_unique" unique ("channel_id", "user_id");`);

    this.addSql(
      `alter table "broadcast" add constraint "broadcast_channel_id_foreign" foreign key ("channel_id") references "channel" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "broadcast_telemetry" add constraint "broadcast_telemetry_broadcast_id_foreign" foreign key ("broadcast_id") references "broadcast" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "channel_api_key" add constraint "channel_api_key_channel_id_foreign" foreign key ("channel_id") references "channel" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "channel_member" add constraint "channel_member_channel_id_foreign" foreign key ("channel_id") references "channel" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "channel_member" add constraint "channel_member_user_id_foreign" foreign key ("user_id") references "studio_user" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "webhook_endpoint" add constraint "webhook_endpoint_channel_id_foreign" foreign key ("channel_id") references "channel" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" drop constraint "webhook_endpoint_channel_id_foreign";`);
    this.addSql(`alter table "broadcast" drop constraint "broadcast_channel_id_foreign";`);

    this.addSql(`alter table "channel_api_key" drop constraint "channel_api_key_channel_id_foreign";`);

    this.addSql(`alter table "channel_member" drop constraint "channel_member_channel_id_foreign";`);

    this.addSql(`alter table "broadcast_telemetry" drop constraint "broadcast_telemetry_broadcast_id_foreign";`);

    this.addSql(`alter table "channel_member" drop constraint "channel_member_user_id_foreign";`);

    this.addSql(`drop table if exists "channel" cascade;`);

    this.addSql(`drop table if exists "broadcast" cascade;`);

    this.addSql(`drop table if exists "broadcast_telemetry" cascade;`);

    this.addSql(`drop table if exists "channel_api_key" cascade;`);

    this.addSql(`drop table if exists "studio_user" cascade;`);

    this.addSql(`drop table if exists "channel_member" cascade;`);
  }
}
