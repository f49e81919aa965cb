import { Migration } from '@mikro-orm/migrations';

/**
 * Stored `result.verified` payloads written before the rule of docs/decisions.md#minors was kept
 * name a minor as `opponent`; pending deliveries, retries and replays would send them again. Each
 * such payload gets `(withheld)` in place of the name (the value of
 * src/domain/catalog/withheld-opponent.ts, spelled out: a migration must not change when that file
 * does). A minor is who is under 18 on the day the migration runs. The text is edited in place, so
 * the payload keeps its key order and its `id` (receivers de-duplicate on it); every attempt is
 * signed anew, so signatures follow. Not reversible: the name is gone.
 */
export const WITHHOLD_MINOR_OPPONENTS_SQL = `update webhook_event ev
        set payload = replace(ev.payload, '"opponent":' || to_json(o.name)::text, '"opponent":"(withheld)"')
       from event e, bout b, fighter f, fighter o, fighter_identity oi
      where ev.type = 'result.verified'
        and e.code = (ev.payload::jsonb #>> '{data,event,code}')
        and b.event_id = e.id
        and f.slug = (ev.payload::jsonb #>> '{data,fighter,slug}')
        and f.id in (b.fighter_a_id, b.fighter_b_id)
        and o.id = case when b.fighter_a_id = f.id then b.fighter_b_id else b.fighter_a_id end
        and o.name = (ev.payload::jsonb #>> '{data,opponent}')
        and oi.fighter_id = o.id
        and oi.date_of_birth > (current_date - interval '18 years')::date`;

export class Migration20261126000000_withhold_minor_opponents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`${WITHHOLD_MINOR_OPPONENTS_SQL};`);
  }
}
