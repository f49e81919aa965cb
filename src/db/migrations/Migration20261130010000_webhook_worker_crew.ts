import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery workers alive now (src/webhooks/delivery-crew.ts): each worker writes its row,
 * and moves `alive_until` on while it runs, and the claim shares the enabled endpoints out among
 * the workers listed, so that one endpoint is served by one worker at a time. Written only by the
 * workers; not mapped on an entity.
 */
export class Migration20261130010000_webhook_worker_crew extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_worker" ("id" uuid not null primary key, "alive_until" timestamptz not null);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "webhook_worker";`);
  }
}
