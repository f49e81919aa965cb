import { Migration } from '@mikro-orm/migrations';

/**
 * A change's payloads as its transaction committed them (docs/decisions.md#outbox): every event
 * but a ranking publication's is built in the transaction of the change and kept here, so the
 * workers' expansion only fans it out (`broadcast.live` can no longer carry the state of a later
 * `broadcast.ended`). `json`, not `jsonb`: the text keeps the builders' key order, which is the
 * order partners read. Null for a publication's chunks, built at expansion from `subject`.
 */
export class Migration20261128050000_webhook_change_payloads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_change" add column "payloads" json null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_change" drop column "payloads";`);
  }
}
