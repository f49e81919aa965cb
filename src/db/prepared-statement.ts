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

/** When each client last prepared each statement, by name (see `replanAfterMs`). */
const preparedAt = new WeakMap<object, Map<string, number>>();

export interface PreparedStatementOptions {
  /**
   * How long a connection keeps a statement's plan before preparing it again (ms). PostgreSQL
   * keeps the generic plan it made at the sixth execution until a table's statistics change, and
   * a queue table swings from empty to a million rows in seconds: a plan made on the empty table
   * (a sequential scan) would be kept for the million. Autovacuum's analyze would replace it, but
   * only when it runs (never on the embedded database).
   */
  replanAfterMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

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
export function preparedStatement<R>(sql: string, options: PreparedStatementOptions = {}): (connection: Connection, params: unknown[]) => Promise<R[]> {
  const { replanAfterMs = 10_000, now = Date.now } = options;
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  return async (connection, params) => {
    const knex = (connection as Connection & { getKnex?: () => KnexPool }).getKnex?.();
    if (!knex) return connection.execute<R[]>(sql, params);
    const client = await knex.client.acquireConnection();
    const named = { name: `${name}_${clientName(client)}`, text, values: params };
    try {
      if (planIsOld(client, named.name, replanAfterMs, now())) await forget(client, named.name);
      try {
        return (await client.query<R>(named)).rows;
      } catch (err) {
        if (!planChangedType(err)) throw err;
        // Prepared again from its text: the failed execution changed nothing (one statement, its own transaction).
        await forget(client, named.name);
        return (await client.query<R>(named)).rows;
      }
    } finally {
      await knex.client.releaseConnection(client);
    }
  };
}

/** Drops a client's prepared statement; pg parses it again at its next execution. */
async function forget(client: PgClient, name: string): Promise<void> {
  await client.query(`deallocate ${name}`);
  delete client.connection?.parsedStatements?.[name];
}

/**
 * Whether the client's statement was prepared at least `after` ms before `at` (`replanAfterMs`):
 * then it is to be prepared again, and its time starts over now.
 */
function planIsOld(client: PgClient, name: string, after: number, at: number): boolean {
  let times = preparedAt.get(client);
  if (!times) preparedAt.set(client, (times = new Map()));
  const since = times.get(name);
  if (since !== undefined && at - since < after) return false;
  times.set(name, at);
  return since !== undefined && client.connection?.parsedStatements?.[name] !== undefined;
}
