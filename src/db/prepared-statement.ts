import { createHash, randomBytes } from 'node:crypto';
import type { Connection } from '@mikro-orm/core';

/** What of a knex client a prepared statement needs: a pooled pg client, and giving it back. */
interface KnexPool {
  client: { acquireConnection(): Promise<PgClient>; releaseConnection(c: PgClient): Promise<unknown> };
}

/** A pg client: a simple query (several statements in one answer a result each). */
interface PgClient {
  query<R>(text: string): Promise<{ rows: R[] } | { rows: R[] }[]>;
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

/** The statements each client has prepared, by name, with when (see `replanAfterMs`). */
const preparedOn = new WeakMap<object, Map<string, number>>();
const preparedBy = (client: object): Map<string, number> => {
  let prepared = preparedOn.get(client);
  if (!prepared) preparedOn.set(client, (prepared = new Map()));
  return prepared;
};

export interface PreparedStatementOptions {
  /**
   * How long a connection keeps a statement's plan before preparing it again (ms). PostgreSQL
   * keeps the generic plan it made at the sixth execution until a table's statistics change, and
   * a queue table swings from empty to a million rows in seconds: a plan made on the empty table
   * (a sequential scan) would be kept for the million. Autovacuum's analyze would replace it, but
   * only when it runs (never on the embedded database).
   */
  replanAfterMs?: number;
  /**
   * Planner settings in force whenever PostgreSQL plans the statement (`enable_bitmapscan: 'off'`):
   * each execution sets them LOCAL in the same message, so they hold for that execution's
   * implicit transaction only, on PostgreSQL and on the embedded database's shared session alike.
   */
  planner?: Readonly<Record<string, string>>;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * A value as an SQL literal, for EXECUTE: the statement's parameters are all strings, numbers,
 * booleans or null. A string's quotes are doubled, and one holding a backslash is an `E''` literal
 * with its backslashes doubled (read alike whatever `standard_conforming_strings` says). Native
 * replaces: `pg`'s `escapeLiteral`, a loop over the characters, took 380 µs for the 24 KB of a
 * group of 32 outcomes, against 1 µs.
 */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    const quoted = value.replace(/'/g, "''");
    return value.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  throw new TypeError(`a prepared statement's parameter must be a string, a finite number, a boolean or null, not ${typeof value}`);
}

const SETTING = /^[a-z_]+$/;
const SETTING_VALUE = /^[A-Za-z0-9_.]+$/;

/**
 * A statement that PostgreSQL parses and plans once per connection, not once per execution
 * (`PREPARE`, then `EXECUTE` with the parameters as literals, the planner settings set LOCAL in
 * the same message), on a client of the connection's pool, where MikroORM's `execute` inlines the
 * parameters into a new text each time. For the hot statements whose planning is a large share of
 * their cost (the webhook worker's claim and record, docs/adr/0015-webhook-fan-out.md). `sql`
 * takes `?` placeholders, as `execute` does, and holds no other `?`. Outside a transaction only.
 * A statement whose result types a migration changed is prepared again. A connection without a pg
 * pool (a test's fake) runs it through `execute`.
 */
export function preparedStatement<R>(sql: string, options: PreparedStatementOptions = {}): (connection: Connection, params: unknown[]) => Promise<R[]> {
  const { replanAfterMs = 10_000, now = Date.now, planner = {} } = options;
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  const base = `s_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const settings = Object.entries(planner)
    .map(([setting, value]) => {
      if (!SETTING.test(setting) || !SETTING_VALUE.test(value)) throw new Error(`not a planner setting: ${setting} = ${value}`);
      return `set local ${setting} = ${value}; `;
    })
    .join('');
  return async (connection, params) => {
    const knex = (connection as Connection & { getKnex?: () => KnexPool }).getKnex?.();
    if (!knex) return connection.execute<R[]>(sql, params);
    const values = params.map(literal).join(', ');
    const client = await knex.client.acquireConnection();
    const name = `${base}_${clientName(client)}`;
    const call = `${settings}execute ${name}(${values})`;
    const run = async (): Promise<R[]> => {
      const prepared = preparedBy(client);
      if (!prepared.has(name)) {
        await client.query(`prepare ${name} as ${text}`);
        prepared.set(name, now());
      }
      const results = await client.query<R>(call);
      return (Array.isArray(results) ? results[results.length - 1] : results).rows;
    };
    try {
      if (planIsOld(client, name, replanAfterMs, now())) await forget(client, name);
      try {
        return await run();
      } catch (err) {
        if (!planChangedType(err)) throw err;
        // Prepared again from its text: the failed execution changed nothing (its own implicit transaction).
        await forget(client, name);
        return await run();
      }
    } finally {
      await knex.client.releaseConnection(client);
    }
  };
}

/** Drops a client's prepared statement; it is prepared again at its next execution. */
async function forget(client: PgClient, name: string): Promise<void> {
  preparedBy(client).delete(name);
  await client.query(`deallocate ${name}`);
}

/** Whether the client prepared the statement at least `after` ms before `at` (`replanAfterMs`). */
function planIsOld(client: PgClient, name: string, after: number, at: number): boolean {
  const since = preparedBy(client).get(name);
  return since !== undefined && at - since >= after;
}
