import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeTopic } from './ports/change-feed';
import { announceChange } from '../db/announce-change';
import { audit, type Actor } from './audit/audit.log';

/** What a feature's repository offers for writing, inside one transaction; `E` is what it may add. */
export interface UnitRepository<E> {
  /** A new entity, written with the next save. */
  add(entity: E): void;
  /** An audit entry, written with the next save. */
  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void;
  /** Writes what was added and changed so far. */
  save(): Promise<void>;
  /** Tells every instance that `topics` changed, on commit. */
  announce(...topics: ChangeTopic[]): Promise<void>;
}

/**
 * What the MikroORM repositories of the features share, on one transaction's EntityManager:
 * staging new entities, audit lines, the flush, and the change-feed announcement.
 */
export abstract class MikroRepository {
  constructor(protected readonly em: EntityManager) {}

  add(entity: object): void {
    this.em.persist(entity);
  }

  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void {
    audit(this.em, actor, action, subject, data);
  }

  save(): Promise<void> {
    return this.em.flush();
  }

  announce(...topics: ChangeTopic[]): Promise<void> {
    return announceChange(this.em, ...topics);
  }
}
