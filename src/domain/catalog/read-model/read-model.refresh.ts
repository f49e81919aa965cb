import type { EntityManager } from '@mikro-orm/postgresql';
import { announceChange } from '../../../db/announce-change';
import { sql } from '../../unit-of-work';
import { pgArray } from '../fighter-summary.sql';
import { insertResultRowsSql, REBUILD_STATEMENTS, syncRowsWithCardsSql, syncRowsWithEventsSql, upsertCardsSql } from './read-model.sql';

/**
 * Maintenance of the partner read model (fighter_card, result_row; see docs/adr/0001), always on
 * the transaction of the change, so a reader never sees the change without its read model. A
 * service states what it changed (`changed({ refresh })`, domain/unit-of-work.ts) and the unit of
 * work runs `refreshReadModel`, then announces the `catalog` topic (domain/change-effects.ts).
 */

/** What a change asks of the read model. */
export interface ReadModelChange {
  /** Fighters whose cards are rebuilt from their rows, licence, results and latest standing; their result rows then take the cards' columns. */
  fighters?: readonly string[];
  /** Bouts whose result rows are re-derived (verified, at a sanctioned event), then their fighters' cards. */
  bouts?: readonly string[];
  /** The same for every bout of these events (an event sanctioned makes its results visible). */
  events?: readonly string[];
  /** Events whose own columns changed (status): their result rows take them, and the cards of their fighters, which keep their latest bouts with the event, are rebuilt. */
  eventDetails?: readonly string[];
  /** Country and division names and labels changed: every card takes them again. */
  referenceNames?: boolean;
}

/** Runs what `change` asks, on em's transaction. */
export async function refreshReadModel(em: EntityManager, change: ReadModelChange): Promise<void> {
  if (change.referenceNames) await refreshReferenceNames(em);
  if (change.events?.length) await refreshResults(em, 'event_id', 'b.event_id', pgArray([...new Set(change.events)]));
  if (change.bouts?.length) await refreshResults(em, 'bout_id', 'b.id', pgArray([...new Set(change.bouts)]));
  if (change.eventDetails?.length) await refreshEventFighters(em, pgArray([...new Set(change.eventDetails)]));
  if (change.fighters?.length) await refreshFighters(em, change.fighters);
}

async function refreshFighters(em: EntityManager, fighterIds: readonly string[]): Promise<void> {
  const ids = [...new Set(fighterIds)];
  if (ids.length === 0) return;
  const list = pgArray(ids);
  await sql(em, upsertCardsSql(true), [list, list, list]);
  await sql(em, syncRowsWithCardsSql('f.fighter_id = any(?::uuid[])'), [list]);
}

async function refreshResults(em: EntityManager, rowColumn: string, boutColumn: string, list: string): Promise<void> {
  const before = await sql<{ fighter_id: string }[]>(em, `delete from result_row where ${rowColumn} = any(?::uuid[]) returning fighter_id`, [list]);
  const after = await sql<{ fighter_id: string }[]>(em, `${insertResultRowsSql(`${boutColumn} = any(?::uuid[])`)} returning fighter_id`, [list]);
  await refreshFighters(
    em,
    [...before, ...after].map((r) => r.fighter_id),
  );
}

async function refreshEventFighters(em: EntityManager, events: string): Promise<void> {
  await sql(em, syncRowsWithEventsSql('e.id = any(?::uuid[])'), [events]);
  const rows = await sql<{ fighter_id: string }[]>(em, `select distinct fighter_id from result_row where event_id = any(?::uuid[])`, [events]);
  await refreshFighters(
    em,
    rows.map((r) => r.fighter_id),
  );
}

async function refreshReferenceNames(em: EntityManager): Promise<void> {
  const changed = await sql<{ fighter_id: string }[]>(
    em,
    `update fighter_card fc set country_name = c.name, country_code = c.code, continent_slug = c.continent_slug,
      discipline = d.discipline, category = d.category, gender = d.gender, weight_class = d.weight_class, division_label = d.label
    from country c, division d
   where c.slug = fc.country_slug and d.id = fc.division_id
     and (fc.country_name, fc.country_code, fc.continent_slug, fc.discipline, fc.category, fc.gender, fc.weight_class, fc.division_label)
         is distinct from (c.name, c.code, c.continent_slug, d.discipline, d.category, d.gender, d.weight_class, d.label)
   returning fc.fighter_id`,
  );
  // The result rows of the cards that changed keep the same names (a page of the feed reads no card).
  if (changed.length) await sql(em, syncRowsWithCardsSql('f.fighter_id = any(?::uuid[])'), [pgArray(changed.map((r) => r.fighter_id))]);
}

/**
 * Everything from the source tables (migration, demo seed, `readmodel:rebuild`): maintenance
 * outside any service, so it announces the `catalog` topic itself.
 */
export async function rebuildReadModel(em: EntityManager): Promise<void> {
  for (const statement of REBUILD_STATEMENTS) await sql(em, statement);
  await announceChange(em, 'catalog');
}
