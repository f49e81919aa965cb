import { Migration } from '@mikro-orm/migrations';

/** The demo seed's completion marker, so that a start killed mid-seed is redone on the next one. */
export class Migration20261122090000_demo_seed extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "demo_seed" ("id" int not null default 1, "state" text not null, "started_at" timestamptz not null, "completed_at" timestamptz null, constraint "demo_seed_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "demo_seed" cascade;`);
  }
}
