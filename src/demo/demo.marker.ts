import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../domain/unit-of-work';
import type { DemoSeedState } from './demo-seed.entity';

/**
 * What the database says about the demo seed:
 * - 'empty': no marker and no data, seed it;
 * - 'foreign': no marker but data (a production database, or one seeded before the marker
 *   existed), leave it alone;
 * - 'started': a seed was killed part-way, wipe its rows and seed again;
 * - 'completed': nothing to do.
 */
export type DemoSeedStatus = 'empty' | 'foreign' | DemoSeedState;

export async function demoSeedStatus(em: EntityManager): Promise<DemoSeedStatus> {
  const marker = await sql<{ state: DemoSeedState }[]>(em, `select state from demo_seed where id = 1`);
  if (marker[0]) return marker[0].state;
  const rows = await sql<{ n: number }[]>(em, `select (select count(*) from partner)::int + (select count(*) from fighter)::int as n`);
  return rows[0].n > 0 ? 'foreign' : 'empty';
}

/** Committed before the first demo row is written, so that a kill leaves 'started' behind. */
export async function markDemoSeedStarted(em: EntityManager): Promise<void> {
  await sql(
    em,
    `insert into demo_seed (id, state, started_at, completed_at) values (1, 'started', now(), null)
                 on conflict (id) do update set state = 'started', started_at = now(), completed_at = null`,
  );
}

export async function markDemoSeedCompleted(em: EntityManager): Promise<void> {
  await sql(em, `update demo_seed set state = 'completed', completed_at = now() where id = 1`);
}

/**
 * Empties what a killed seed left behind. Only called when the marker says 'started': the seed
 * only ever starts on an empty database, so every row in the schema's tables is demo data.
 * The migrations' bookkeeping and the marker itself stay; document-number sequences restart.
 */
export async function wipePartialDemo(em: EntityManager): Promise<void> {
  const tables = await sql<{ name: string }[]>(
    em,
    `select quote_ident(tablename) as name from pg_tables
      where schemaname = current_schema() and tablename not in ('mikro_orm_migrations', 'demo_seed')`,
  );
  if (tables.length) await sql(em, `truncate ${tables.map((t) => t.name).join(', ')} restart identity cascade`);
  const sequences = await sql<{ name: string }[]>(
    em,
    `select quote_ident(c.relname) as name from pg_class c
      where c.relkind = 'S' and c.relnamespace = current_schema()::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i'))`,
  );
  for (const s of sequences) await sql(em, `alter sequence ${s.name} restart`);
}
