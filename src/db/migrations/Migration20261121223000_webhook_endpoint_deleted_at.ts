import { Migration } from '@mikro-orm/migrations';

/** Channel webhook endpoints deleted in the studio are kept (their delivery log stays) but hidden. */
export class Migration20261121223000_webhook_endpoint_deleted_at extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" add column "deleted_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" drop column "deleted_at";`);
  }
}
