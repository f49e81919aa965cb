import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReadModelChange } from './catalog/read-model/read-model.refresh';
import type { DomainEvent } from './domain-events';
import type { ChangeTopic } from '../ports/change-feed';
import { rethrowDbError, withDbRetry } from './storage-errors';

/**
 * What a write changed, as the service states it; the unit of work runs the side effects
 * (docs/adr/0012-unit-of-work.md), so no service refreshes, announces or publishes by hand.
 */
export interface Change {
  /** Partner read-model rows to re-derive on the transaction; the `catalog` topic follows. */
  refresh?: ReadModelChange;
  /** Cached answers every instance must drop, told on commit (the change feed). */
  topics?: readonly ChangeTopic[];
  /** What happened, for the webhook outbox (DomainEventSink.publish on the same transaction). */
  events?: readonly DomainEvent[];
}

/** States a change inside the transaction at hand; its side effects have run when it resolves. */
export type Changed = (change: Change) => Promise<void>;

/** The side effects of a change, run in one place, in one order (domain/change-effects.ts). */
export interface ChangeEffects {
  apply(em: EntityManager, change: Change): Promise<void>;
}

/**
 * A write's transaction (the caller's or its own, as inTransaction) with the way to state what it
 * changed. Built once by the composition root with the effects (the outbox behind them).
 */
export class UnitOfWork {
  constructor(
    readonly root: EntityManager,
    private readonly effects: ChangeEffects,
  ) {}

  run<T>(tx: EntityManager | undefined, fn: (em: EntityManager, changed: Changed) => Promise<T>): Promise<T> {
    return inTransaction(this.root, tx, (em) => fn(em, (change) => this.effects.apply(em, change)));
  }

  /** An EntityManager of its own for reads outside any transaction. */
  read(): EntityManager {
    return this.root.fork();
  }
}

/**
 * Runs `fn` in the caller's transaction when one is given, otherwise in a new one on a fresh
 * fork. Lets the operator CLI, the demo seeder and tests compose several domain operations in
 * one transaction, while a single call stays atomic on its own.
 *
 * PostgreSQL errors leave as domain errors (a unique violation is a `conflict`, a foreign key
 * an `invalid_reference`). A transaction of its own is run again after a serialization failure
 * or deadlock; inside the caller's transaction only the caller can retry.
 */
export async function inTransaction<T>(root: EntityManager, outer: EntityManager | undefined, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  if (outer) return fn(outer).catch(rethrowDbError);
  return withDbRetry(() => root.fork().transactional((em) => fn(em as EntityManager)));
}

/**
 * What a service holds instead of the EntityManager: its feature's repository, built on a
 * transaction (`run`: the caller's `tx`, or one of its own, as inTransaction) or outside one
 * (`read`). A repository states its transaction's changes with the `changed` it is built with.
 * A unit test gives the service an in-memory repository instead.
 */
export interface Transactional<R> {
  run<T>(tx: EntityManager | undefined, fn: (repo: R) => Promise<T>): Promise<T>;
  read(): R;
}

/** A feature's repository on MikroORM: `make` builds it from the transaction's EntityManager. */
export function transactional<R>(uow: UnitOfWork, make: (em: EntityManager, changed: Changed) => R): Transactional<R> {
  return {
    run: (tx, fn) => uow.run(tx, (em, changed) => fn(make(em, changed))),
    read: () => {
      const em = uow.read();
      return make(em, () => Promise.reject(new Error('a change is stated inside a transaction (Transactional.run), not on a read')));
    },
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
  const raw = em
    .getConnection()
    .getKnex()
    .raw(query, params as never[]);
  const trx = em.getTransactionContext();
  await (trx ? raw.transacting(trx) : raw);
}
