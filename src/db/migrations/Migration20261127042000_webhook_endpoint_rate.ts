import { Migration } from '@mikro-orm/migrations';

/**
 * An optional per-endpoint delivery rate set by the operator (docs/decisions.md#delivery-rate,
 * src/webhooks/delivery-rate.ts): `rate_per_second` (null = no limit, as before) and the state the
 * workers share to honour it together, `rate_refilled_at` (when the endpoint's bucket is full
 * again; written only by the claim, not mapped on the entity).
 */
export class Migration20261127042000_webhook_endpoint_rate extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "webhook_endpoint" add column "rate_per_second" double precision null constraint "webhook_endpoint_rate_per_second_check" check ("rate_per_second" > 0), add column "rate_refilled_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoint" drop column "rate_per_second", drop column "rate_refilled_at";`);
  }
}
