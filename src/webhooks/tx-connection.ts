import type { Connection } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A Connection-shaped view of `em`'s transaction, so the catalog queries (which take a
 * connection getter) run inside the transaction that writes the outbox.
 *
 * A transaction is one pg client, and a client runs one query at a time. The catalog queries
 * issue independent statements together (Promise.all), which on a pool spreads them over
 * clients; here they would be handed to the same client while it is busy, which pg deprecates
 * ("Calling client.query() when the client is already executing a query") and pg 9 refuses.
 * So this view runs its statements one after another, in the order they were issued.
 */
export function txConnection(em: EntityManager): () => Connection {
  const conn = em.getConnection();
  let last: Promise<unknown> = Promise.resolve();
  const view = {
    execute: (query: string, params: unknown[] = [], method: 'all' | 'get' | 'run' = 'all') => {
      const run = last.then(() => conn.execute(query, params, method, em.getTransactionContext()));
      last = run.catch(() => undefined);
      return run;
    },
  };
  return () => view as unknown as Connection;
}
