import type { Connection } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A Connection-shaped view of `em`'s transaction, so the catalog queries (which take a
 * connection getter) run inside the transaction that writes the outbox.
 */
export function txConnection(em: EntityManager): () => Connection {
  const conn = em.getConnection();
  const view = {
    execute: (query: string, params: unknown[] = [], method: 'all' | 'get' | 'run' = 'all') =>
      conn.execute(query, params, method, em.getTransactionContext()),
  };
  return () => view as unknown as Connection;
}
