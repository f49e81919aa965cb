import type { EntityManager } from '@mikro-orm/postgresql';
import { announceChange } from '../../../db/announce-change';
import { sql } from '../../unit-of-work';
import { pgArray } from '../fighter-summary.sql';
import { insertResultRowsSql, REBUILD_STATEMENTS, upsertCardsSql } from './read-model.sql';

/**
 * Maintenance of the partner read model (fighter_card, result_row; see docs/adr/0001), always on
 * the transaction of the change, so a reader never sees the change without its read model. Each
 * function also announces the change on the `catalog` topic (src/domain/announce-change.ts:
 * NOTIFY delivered at commit; this process bumps its own caches right after the commit).
 */

const announced = new WeakSet<object>();

/** Announces a change of partner-visible data (the `catalog` topic), once per transaction. */
export async function catalogChanged(em: EntityManager): Promise<void> {
  const tx = em.getTransactionContext<object>();
  if (tx && announced.has(tx)) return;
  await announceChange(em, 'catalog');
  if (tx) announced.add(tx);
}

/** Rebuilds the cards of these fighters from their rows, licence, results and latest standing. */
export async function refreshFighters(em: EntityManager, fighterIds: readonly string[]): Promise<void> {
  const ids = [...new Set(fighterIds)];
  if (ids.length === 0) return;
  const list = pgArray(ids);
  await sql(em, upsertCardsSql(true), [list, list]);
  await catalogChanged(em);
}

/** Re-derives the result rows of these bouts (verified, at a sanctioned event), then their fighters' cards. */
export async function refreshResultsOfBouts(em: EntityManager, boutIds: readonly string[]): Promise<void> {
  if (boutIds.length === 0) return;
  await refreshResults(em, 'bout_id', 'b.id', pgArray([...new Set(boutIds)]));
}

/** The same for every bout of these events (an event sanctioned makes its results visible). */
export async function refreshResultsOfEvents(em: EntityManager, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await refreshResults(em, 'event_id', 'b.event_id', pgArray([...new Set(eventIds)]));
}

async function refreshResults(em: EntityManager, rowColumn: string, boutColumn: string, list: string): Promise<void> {
  const before = await sql<{ fighter_id: string }[]>(em, `delete from result_row where ${rowColumn} = any(?::uuid[]) returning fighter_id`, [list]);
  const after = await sql<{ fighter_id: string }[]>(em, `${insertResultRowsSql(`${boutColumn} = any(?::uuid[])`)} returning fighter_id`, [list]);
  await refreshFighters(em, [...before, ...after].map((r) => r.fighter_id));
  await catalogChanged(em);
}

/**
 * After a ranking run is stored: no card changes (a card's standing is read from the run it is
 * served with, fighter_standing; docs/adr/0009), but every partner body names the run.
 */
export async function refreshAfterPublish(em: EntityManager): Promise<void> {
  await catalogChanged(em);
}

/** Country and division names and labels changed: every card takes them again. */
export async function refreshReferenceNames(em: EntityManager): Promise<void> {
  await sql(em, `update fighter_card fc set country_name = c.name, country_code = c.code, continent_slug = c.continent_slug,
      discipline = d.discipline, category = d.category, gender = d.gender, weight_class = d.weight_class, division_label = d.label
    from country c, division d
   where c.slug = fc.country_slug and d.id = fc.division_id
     and (fc.country_name, fc.country_code, fc.continent_slug, fc.discipline, fc.category, fc.gender, fc.weight_class, fc.division_label)
         is distinct from (c.name, c.code, c.continent_slug, d.discipline, d.category, d.gender, d.weight_class, d.label)`);
  await catalogChanged(em);
}

/** Everything from the source tables (migration, demo seed, `readmodel:rebuild`). */
export async function rebuildReadModel(em: EntityManager): Promise<void> {
  for (const statement of REBUILD_STATEMENTS) await sql(em, statement);
  await catalogChanged(em);
}
