import type { EntityManager } from '@mikro-orm/postgresql';
import type { Change, Changed } from './unit-of-work';
import { audit, type Actor } from './audit/audit.log';

/** What a feature's repository offers for writing, inside one transaction; `E` is what it may add. */
export interface UnitRepository<E> {
  /** A new entity, written with the next save. */
  add(entity: E): void;
  /** An audit entry, written with the next save. */
  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void;
  /** Writes what was added and changed so far. */
  save(): Promise<void>;
  /** States what the transaction changed (topics to announce, events, read-model rows); the unit of work runs the rest. */
  changed(change: Change): Promise<void>;
}

/**
 * What the MikroORM repositories of the features share, on one transaction's EntityManager:
 * staging new entities, audit lines, the flush, and stating the change to the unit of work.
 */
export abstract class MikroRepository {
  constructor(
    protected readonly em: EntityManager,
    readonly changed: Changed,
  ) {}

  add(entity: object): void {
    this.em.persist(entity);
  }

  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void {
    audit(this.em, actor, action, subject, data);
  }

  save(): Promise<void> {
    return this.em.flush();
  }
}
