import { Migration } from '@mikro-orm/migrations';

export class Migration20261121221936_studio_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "studio_session" ("id" uuid not null, "user_id" uuid not null, "token_hash" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null, constraint "studio_session_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "studio_session" add constraint "studio_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "studio_session_user_id_index" on "studio_session" ("user_id");`);

    this.addSql(
      `alter table "studio_session" add constraint "studio_session_user_id_foreign" foreign key ("user_id") references "studio_user" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "studio_session" cascade;`);
  }
}
