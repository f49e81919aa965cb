import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from './audit-entry.entity';

export interface Actor {
  /** e.g. 'operator:alice', 'demo-seed', 'studio:user@example.com' */
  id: string;
}

export const SYSTEM_ACTOR: Actor = { id: 'system' };

/** Records who changed what; persisted with the caller's transaction. */
export function audit(em: EntityManager, actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>): void {
  em.persist(Object.assign(new AuditEntry(), { actor: actor.id, action, subject, data: data ?? null }));
}
