import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys (docs/decisions.md#idempotency): one row per credential scope and key, kept
 * 24 hours; `answer` is the kept answer, encrypted with a key derived from the credential.
 */
export class Migration20261126010000_idempotency_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_key" (
      "scope" text not null, "key" text not null, "request_hash" text not null,
      "state" text not null check ("state" in ('in_progress', 'done')), "answer" text null,
      "locked_at" timestamptz null, "created_at" timestamptz not null, "expires_at" timestamptz not null,
      constraint "idempotency_key_pkey" primary key ("scope", "key"));`);
    this.addSql(`create index "idempotency_key_expires_at_index" on "idempotency_key" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_key";`);
  }
}
