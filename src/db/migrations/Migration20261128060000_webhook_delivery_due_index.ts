import { Migration } from '@mikro-orm/migrations';

/**
 * One partial index for what a worker still has to do (docs/adr/0015, issue 19 item 1): the
 * claim's per-endpoint scans (one status each, ordered by `next_attempt_at`), its count of live
 * leases, the rate's check for a due attempt, the pause of a channel's pending deliveries and
 * /metrics' outbox counts all read deliveries `pending` or `sending`, and nothing else reads
 * `status` through an index. It replaces `(endpoint_id, status, next_attempt_at)` and
 * `(status, next_attempt_at)` over every row: a delivery's outcome (`succeeded`, `failed`) now
 * leaves the index instead of adding an entry to two, and the claim writes one index entry fewer.
 * The log's `(endpoint_id, created_at)` is unchanged.
 */
export class Migration20261128060000_webhook_delivery_due_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "webhook_delivery_due_index" on "webhook_delivery" ("endpoint_id", "status", "next_attempt_at") where "status" in ('pending', 'sending');`,
    );
    this.addSql(`drop index "webhook_delivery_endpoint_id_status_next_attempt_at_index";`);
    this.addSql(`drop index "webhook_delivery_status_next_attempt_at_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "webhook_delivery_status_next_attempt_at_index" on "webhook_delivery" ("status", "next_attempt_at");`);
    this.addSql(`create index "webhook_delivery_endpoint_id_status_next_attempt_at_index" on "webhook_delivery" ("endpoint_id", "status", "next_attempt_at");`);
    this.addSql(`drop index "webhook_delivery_due_index";`);
  }
}
