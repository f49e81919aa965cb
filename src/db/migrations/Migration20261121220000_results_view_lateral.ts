import { Migration } from '@mikro-orm/migrations';

/**
 * The results view as a lateral expansion of each verified bout rather than a UNION: the planner
 * can then walk events newest first through the bout index and stop after a page, instead of
 * materialising every result. `side_a` / `side_b` let per-fighter reads use the bout indexes.
 */
export class Migration20261121220000_results_view_lateral extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop view if exists "verified_result";`);
    this.addSql(`create view "verified_result" as
      select b.id as bout_id, b."order" as bout_order, b.event_id, b.division_id, b.method, b.round, b.verified_at,
             b.fighter_a_id as side_a, b.fighter_b_id as side_b, s.fighter_id, s.opponent_id, s.result
        from bout b
        cross join lateral (values
          (b.fighter_a_id, b.fighter_b_id, case b.outcome when 'a' then 'W' when 'b' then 'L' when 'draw' then 'D' else 'NC' end),
          (b.fighter_b_id, b.fighter_a_id, case b.outcome when 'b' then 'W' when 'a' then 'L' when 'draw' then 'D' else 'NC' end)
        ) as s(fighter_id, opponent_id, result)
       where b.verified_at is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists "verified_result";`);
    this.addSql(`create view "verified_result" as
      select b.id as bout_id, b."order" as bout_order, b.event_id, b.division_id, b.method, b.round, b.verified_at,
             b.fighter_a_id as fighter_id, b.fighter_b_id as opponent_id,
             case b.outcome when 'a' then 'W' when 'b' then 'L' when 'draw' then 'D' else 'NC' end as result
        from bout b where b.verified_at is not null
      union all
      select b.id, b."order", b.event_id, b.division_id, b.method, b.round, b.verified_at,
             b.fighter_b_id, b.fighter_a_id,
             case b.outcome when 'b' then 'W' when 'a' then 'L' when 'draw' then 'D' else 'NC' end
        from bout b where b.verified_at is not null;`);
  }
}
