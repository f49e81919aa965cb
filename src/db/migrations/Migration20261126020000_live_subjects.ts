import { Migration } from '@mikro-orm/migrations';

/**
 * The studio's live subscriptions hear which row changed from the database itself: these triggers
 * NOTIFY `live:<kind>:<channel id>:<id>` on the change feed's channel (svc_changes) in the
 * writer's transaction, so PostgreSQL delivers the subject on commit and never on rollback, to every
 * instance, whoever wrote (a service, the webhook worker, the operator's command line). The payload
 * is read by parseSubject (src/db/change-feed.ts); a listener that knows only topics ignores it.
 *
 * - a broadcast inserted or changed: `live:broadcast:<channel>:<broadcast>`;
 * - a broadcast's telemetry written (the media server's callbacks): `live:health:<channel>:<broadcast>`;
 * - a channel endpoint's delivery inserted or changed (created, claimed, attempted, failed):
 *   `live:delivery:<channel>:<delivery>`, one statement-level trigger per statement, so the worker's
 *   batch claim costs one extra look-up, not one per row. Partner endpoints' deliveries send none.
 * PostgreSQL folds identical notifications of one transaction into one.
 */
export class Migration20261126020000_live_subjects extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "live_broadcast_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('svc_changes', 'live:broadcast:' || new."channel_id" || ':' || new."id");
        return null;
      end $$;`);
    this.addSql(`create trigger "live_broadcast_notify" after insert or update on "broadcast" for each row execute function "live_broadcast_notify"();`);
    this.addSql(`create function "live_telemetry_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('svc_changes', 'live:health:' || b."channel_id" || ':' || b."id") from "broadcast" b where b."id" = new."broadcast_id";
        return null;
      end $$;`);
    this.addSql(
      `create trigger "live_telemetry_notify" after insert or update on "broadcast_telemetry" for each row execute function "live_telemetry_notify"();`,
    );
    this.addSql(`create function "live_delivery_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('svc_changes', 'live:delivery:' || e."channel_id" || ':' || d."id")
           from "changed_deliveries" d join "webhook_endpoint" e on e."id" = d."endpoint_id"
          where e."channel_id" is not null;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "live_delivery_inserted" after insert on "webhook_delivery" referencing new table as "changed_deliveries" for each statement execute function "live_delivery_notify"();`,
    );
    this.addSql(
      `create trigger "live_delivery_updated" after update on "webhook_delivery" referencing new table as "changed_deliveries" for each statement execute function "live_delivery_notify"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "live_delivery_updated" on "webhook_delivery";`);
    this.addSql(`drop trigger if exists "live_delivery_inserted" on "webhook_delivery";`);
    this.addSql(`drop function if exists "live_delivery_notify"();`);
    this.addSql(`drop trigger if exists "live_telemetry_notify" on "broadcast_telemetry";`);
    this.addSql(`drop function if exists "live_telemetry_notify"();`);
    this.addSql(`drop trigger if exists "live_broadcast_notify" on "broadcast";`);
    this.addSql(`drop function if exists "live_broadcast_notify"();`);
  }
}
