import { Migration } from '@mikro-orm/migrations';

/**
 * A fighter's standing (world points, ranks by scope in their own division) is stored per run, by
 * the publication, beside the run's entries, instead of in every fighter card: a publication
 * changed the standing of nearly every ranked fighter (points decay with time), and rewriting
 * 60,000 wide card rows with their six indexes (the trigram one among them) took most of the
 * read-model refresh at scale. Reads join the standing of the run they serve by primary key.
 * Filled here for every run from its entries, as the cards computed it when this was written.
 * See docs/adr/0009-ranking-publication-at-scale.md.
 */
export class Migration20261124090000_fighter_standing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "fighter_standing" ("run_id" uuid not null, "fighter_id" uuid not null,
      "points" double precision not null, "ranks" json not null,
      constraint "fighter_standing_pkey" primary key ("run_id", "fighter_id"));`);
    this.addSql(
      `alter table "fighter_standing" add constraint "fighter_standing_run_id_foreign" foreign key ("run_id") references "ranking_run" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`insert into "fighter_standing" ("run_id", "fighter_id", "points", "ranks")
      select e.run_id, e.fighter_id, max(e.points) filter (where e.scope = 'world'),
             json_object_agg(e.scope, e.rank order by case when e.scope = 'world' then 0 when e.scope = c.continent_slug then 1 else 2 end, e.scope)
        from ranking_entry e
        join fighter f on f.id = e.fighter_id and f.division_id = e.division_id
        join country c on c.slug = f.country_slug
       group by e.run_id, e.fighter_id
      having max(e.points) filter (where e.scope = 'world') is not null;`);
    this.addSql(`alter table "fighter_card" drop column "points", drop column "ranks";`);
    this.addSql(`analyze "fighter_standing";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "fighter_card" add column "points" double precision null, add column "ranks" json null;`);
    this.addSql(`update "fighter_card" fc set "points" = s.points, "ranks" = s.ranks
      from "fighter_standing" s where s.run_id = (select id from ranking_run order by as_of desc limit 1) and s.fighter_id = fc.fighter_id;`);
    this.addSql(`drop table if exists "fighter_standing" cascade;`);
  }
}
