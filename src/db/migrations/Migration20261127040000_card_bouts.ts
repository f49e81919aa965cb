import { Migration } from '@mikro-orm/migrations';

/**
 * Each fighter card keeps the fighter's latest 20 bouts as one JSON array (docs/adr/0013-cold-reads.md),
 * so a profile is one row read by key: the statement of upsertCardsSql as it was when this
 * migration was written (a migration never changes with later code). Whether an opponent is a
 * minor depends on the day: the opponent's day of majority is stored, the decision is made at read time.
 */
const FILL = `update fighter_card fc set bouts = lb.bouts
  from (select r.fighter_id, json_agg(json_build_object('e_id', e.id, 'e_code', e.code, 'e_name', e.name, 'e_city', e.city,
            'e_country', e.country_slug, 'e_date', e.date::text, 'e_level', e.level, 'e_status', e.status,
            'opponent', r.opponent_name, 'opponent_adult_on', o.adult_on::text,
            'result', r.result, 'method', r.method, 'round', r.round)
          order by r.event_date desc, r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug) as bouts
     from (select r.*, row_number() over (partition by r.fighter_id
             order by r.event_date desc, r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug) as n from result_row r) r
     join event e on e.id = r.event_id
     left join result_row o on o.bout_id = r.bout_id and o.fighter_id <> r.fighter_id
    where r.n <= 20
    group by r.fighter_id) lb
 where lb.fighter_id = fc.fighter_id`;

export class Migration20261127040000_card_bouts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "fighter_card" add column "bouts" json not null default '[]';`);
    this.addSql(`${FILL};`);
    this.addSql(`alter table "fighter_card" alter column "bouts" drop default;`);
    this.addSql(`analyze fighter_card;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "fighter_card" drop column "bouts";`);
  }
}
