import type { Connection } from '@mikro-orm/core';
import type { FighterRecord } from '../rankings/ranking.engine';
import { fighterColumns, fighterJoins, PARAMS_CTE, type FighterRow } from './fighter-summary.sql';
import { contextParams, type ReadContext } from './read-context';

export interface DivisionRow {
  id: string;
  discipline: string;
  category: string;
  gender: string;
  weight_class: string;
  label: string;
}

export interface RankedRowData extends FighterRow {
  rank: number;
  movement: number | null;
  points: number;
  record: FighterRecord;
}

export interface DivisionSummaryRow extends DivisionRow {
  ranked: number;
  /** The world number one: a summary is only made of a division with a ranked fighter. */
  leader: FighterRow & { points: number };
}

export class RankingQueries {
  constructor(private readonly connection: () => Connection) {}

  async divisions(): Promise<DivisionRow[]> {
    return this.connection().execute<DivisionRow[]>(
      `select id, discipline, category, gender, weight_class, label from division
        order by discipline, category, gender, sort_order`,
    );
  }

  async ranked(ctx: ReadContext, divisionId: string, scope: string): Promise<RankedRowData[]> {
    if (!ctx.runId) return [];
    return this.connection().execute<RankedRowData[]>(
      `${PARAMS_CTE}
       select e.rank, e.movement, e.points, e.record, ${fighterColumns()}
         from p cross join ranking_entry e join fighter f on f.id = e.fighter_id ${fighterJoins()}
        where e.run_id = ? and e.division_id = ? and e.scope = ?
        order by e.position`,
      [...contextParams(ctx), ctx.runId, divisionId, scope],
    );
  }

  /** Divisions with at least one ranked fighter in the world scope, with their leader. */
  async divisionSummaries(ctx: ReadContext): Promise<DivisionSummaryRow[]> {
    if (!ctx.runId) return [];
    type Row = DivisionRow & FighterRow & { ranked: number; leader_points: number };
    const rows: Row[] = await this.connection().execute(
      `${PARAMS_CTE}, counts as (
         select division_id, count(*)::int as ranked, min(position) as first_position
           from ranking_entry where run_id = ? and scope = 'world' group by division_id)
       select d.id, d.discipline, d.category, d.gender, d.weight_class, d.label, c.ranked,
              e.points as leader_points, ${fighterColumns()}
         from p cross join counts c
         join division d on d.id = c.division_id
         join ranking_entry e on e.run_id = ? and e.division_id = c.division_id and e.scope = 'world' and e.position = c.first_position
         join fighter f on f.id = e.fighter_id ${fighterJoins()}
        order by d.discipline, d.category, d.gender, d.sort_order`,
      [...contextParams(ctx), ctx.runId, ctx.runId],
    );
    return rows.map((r: Row) => ({
      id: r.id,
      discipline: r.discipline,
      category: r.category,
      gender: r.gender,
      weight_class: r.weight_class,
      label: r.label,
      ranked: r.ranked,
      leader: { ...r, points: r.leader_points },
    }));
  }

  /** Every country slug: the values the `country` filters accept. */
  async countrySlugs(): Promise<string[]> {
    const rows = await this.connection().execute<{ slug: string }[]>('select slug from country order by slug');
    return rows.map((r: { slug: string }) => r.slug);
  }

  async scopeExists(scope: string): Promise<boolean> {
    if (scope === 'world') return true;
    const rows = await this.connection().execute<{ n: number }[]>(
      `select (select count(*) from continent where slug = ?) + (select count(*) from country where slug = ?) as n`,
      [scope, scope],
    );
    return Number(rows[0].n) > 0;
  }
}
