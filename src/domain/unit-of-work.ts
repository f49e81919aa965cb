import type { EntityManager } from '@mikro-orm/postgresql';
import { rethrowDbError, withDbRetry } from './storage-errors';

/**
 * Runs `fn` in the caller's transaction when one is given, otherwise in a new one on a fresh
 * fork. Lets the operator CLI, the demo seeder and tests compose several domain operations in
 * one transaction, while a single call stays atomic on its own.
 *
 * PostgreSQL errors leave as domain errors (a unique violation is a `conflict`, a foreign key
 * an `invalid_reference`). A transaction of its own is run again after a serialization failure
 * or deadlock; inside the caller's transaction only the caller can retry.
 */
export async function inTransaction<T>(
  root: EntityManager,
  outer: EntityManager | undefined,
  fn: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (outer) return fn(outer).catch(rethrowDbError);
  return withDbRetry(() => root.fork().transactional((em) => fn(em as EntityManager)));
}

/**
 * What a service holds instead of the EntityManager: its feature's repository, built on a
 * transaction (`run`: the caller's `tx`, or one of its own, as inTransaction) or outside one
 * (`read`). A unit test gives the service an in-memory repository instead.
 */
export interface Transactional<R> {
  run<T>(tx: EntityManager | undefined, fn: (repo: R) => Promise<T>): Promise<T>;
  read(): R;
}

/** A feature's repository on MikroORM: `make` builds it from the transaction's EntityManager. */
export function transactional<R>(root: EntityManager, make: (em: EntityManager) => R): Transactional<R> {
  return {
    run: (tx, fn) => inTransaction(root, tx, (em) => fn(make(em))),
    read: () => make(root.fork()),
  };
}

export async function nextSequenceValue(em: EntityManager, sequence: string): Promise<number> {
  const rows = await sql<{ v: string }[]>(em, `select nextval('${sequence}') as v`);
  return Number(rows[0].v);
}

/** Raw SQL on the transaction of `em` (never a second pool connection: one PGlite session is shared by every connection). */
export function sql<T = Record<string, unknown>[]>(em: EntityManager, query: string, params: unknown[] = []): Promise<T> {
  return em.getConnection().execute(query, params, 'all', em.getTransactionContext()) as Promise<T>;
}

/**
 * Raw SQL on the transaction of `em` with real bind parameters ($1, $2, ...): for statements
 * carrying large array parameters, which `sql` would format into the SQL text client-side.
 */
export async function bulkSql(em: EntityManager, query: string, params: unknown[] = []): Promise<void> {
  const raw = em.getConnection().getKnex().raw(query, params as never[]);
  const trx = em.getTransactionContext();
  await (trx ? raw.transacting(trx) : raw);
}
