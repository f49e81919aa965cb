import type { EntityManager } from '@mikro-orm/postgresql';
import { bulkSql, sql } from '../../domain/unit-of-work';

/** A column and its PostgreSQL type: `['division_id', 'text']`. */
export type ColumnSpec = readonly [name: string, type: string];
export type Cell = string | number | boolean | Date | Record<string, unknown> | null;

function element(v: Cell): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : JSON.stringify(v);
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** A PostgreSQL array literal, bound as one text parameter (no per-row placeholders). */
export function arrayLiteral(values: readonly Cell[]): string {
  return `{${values.map(element).join(',')}}`;
}

/**
 * `insert into table (...) select * from unnest($1::type[], ...)`: one statement and one array
 * parameter per column, whatever the number of rows.
 */
export async function unnestInsert(em: EntityManager, table: string, columns: readonly ColumnSpec[], rows: readonly Cell[][]): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const arrays = columns.map(([, type]) => `?::${type}[]`).join(', ');
  await bulkSql(
    em,
    `insert into "${table}" (${names}) select * from unnest(${arrays})`,
    columns.map((_, i) => arrayLiteral(rows.map((r) => r[i]))),
  );
}

/** Reserves `count` consecutive values of a sequence the way `nextval` would hand them out. */
export async function reserveSequence(em: EntityManager, sequence: string, count: number): Promise<number> {
  const rows = await sql<{ v: string }[]>(em, `select nextval('${sequence}') as v`);
  const first = Number(rows[0].v);
  if (count === 0) await sql(em, `select setval('${sequence}', ?, false)`, [first]);
  else await sql(em, `select setval('${sequence}', ?, true)`, [first + count - 1]);
  return first;
}
