import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks at scale (docs/adr/0015-webhook-fan-out.md): `webhook_change` holds what a transaction
 * changed (one row per domain event, a ranking publication's changes in chunks), expanded into
 * payloads and per-endpoint deliveries by the workers after the commit; deliveries are claimed per
 * endpoint (the index); an endpoint remembers since when its deliveries fail and when it was
 * disabled (health).
 */
export class Migration20261126030000_webhook_fanout_health extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_change" ("id" bigserial primary key, "type" text not null, "channel_id" uuid null, "subject" jsonb not null, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "webhook_delivery_endpoint_id_status_next_attempt_at_index" on "webhook_delivery" ("endpoint_id", "status", "next_attempt_at");`);
    this.addSql(`alter table "webhook_endpoint" add column "failing_since" timestamptz null, add column "disabled_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" drop column "failing_since", drop column "disabled_at";`);
    this.addSql(`drop index "webhook_delivery_endpoint_id_status_next_attempt_at_index";`);
    this.addSql(`drop table "webhook_change";`);
  }
}
