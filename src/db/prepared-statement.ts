import { createHash, randomBytes } from 'node:crypto';
import type { Connection } from '@mikro-orm/core';

/** What of a knex client a prepared statement needs: a pooled pg client, and giving it back. */
interface KnexPool {
  client: { acquireConnection(): Promise<PgClient>; releaseConnection(c: PgClient): Promise<unknown> };
}

interface PgClient {
  query<R>(q: { name: string; text: string; values: unknown[] } | string): Promise<{ rows: R[] }>;
  /** pg's record of the statements this client has parsed, by name. */
  connection?: { parsedStatements?: Record<string, string> };
}

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed type since it was
 * prepared (a migration ran meanwhile): 0A000, "cached plan must not change result type".
 */
const planChangedType = (err: unknown): boolean =>
  (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((err as Error).message);

/**
 * A name per pg client: on the embedded database every socket connection (of this process and of
 * the others) shares one PostgreSQL session, where two clients preparing one name would clash.
 * On PostgreSQL, where each client is its own session, the suffix costs nothing.
 */
const clientNames = new WeakMap<object, string>();
const clientName = (client: object): string => {
  let name = clientNames.get(client);
  if (!name) clientNames.set(client, (name = randomBytes(6).toString('hex')));
  return name;
};

/**
 * A statement that PostgreSQL parses and plans once per connection, not once per execution: run
 * through the pg driver's named statements (`{ name, text, values }`) on a client of the
 * connection's pool, where MikroORM's `execute` inlines the parameters into a new text each time.
 * For the hot statements whose planning is a large share of their cost (the webhook worker's
 * claim and record, docs/adr/0015-webhook-fan-out.md). `sql` takes `?` placeholders, as
 * `execute` does, and holds no other `?`. Outside a transaction only. A statement whose result
 * types a migration changed is prepared again. A connection without a pg pool (a test's fake)
 * runs it through `execute`.
 */
export function preparedStatement<R>(sql: string): (connection: Connection, params: unknown[]) => Promise<R[]> {
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  return async (connection, params) => {
    const knex = (connection as Connection & { getKnex?: () => KnexPool }).getKnex?.();
    if (!knex) return connection.execute<R[]>(sql, params);
    const client = await knex.client.acquireConnection();
    const named = { name: `${name}_${clientName(client)}`, text, values: params };
    try {
      try {
        return (await client.query<R>(named)).rows;
      } catch (err) {
        if (!planChangedType(err)) throw err;
        // Prepared again from its text: the failed execution changed nothing (one statement, its own transaction).
        await client.query(`deallocate ${named.name}`);
        delete client.connection?.parsedStatements?.[named.name];
        return (await client.query<R>(named)).rows;
      }
    } finally {
      await knex.client.releaseConnection(client);
    }
  };
}
