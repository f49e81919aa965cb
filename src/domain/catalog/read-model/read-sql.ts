import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';

/** Partner reads: parameterised SQL (`$1`...) on the read connection. */
export interface ReadSql {
  rows<T>(text: string, values: readonly unknown[]): Promise<T[]>;
}

interface PgClient {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

const names = new Map<string, string>();

/** A stable statement name per text, so every pooled connection plans each read once. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `rm_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
  return name;
}

/**
 * Runs reads on a pooled connection of the ORM's read side, as named (prepared) statements on
 * PostgreSQL so plans are reused across requests. On the embedded database (PGlite, recognised
 * by its version string) every connection shares one session, where named statements would
 * collide: there statements stay unnamed.
 */
export function pooledReadSql(orm: MikroORM): ReadSql {
  let named: Promise<boolean> | null = null;
  return {
    async rows<T>(text: string, values: readonly unknown[]): Promise<T[]> {
      const client = orm.em.getConnection('read').getKnex().client as unknown as KnexClient;
      const connection = await client.acquireConnection();
      try {
        named ??= connection.query({ text: 'select version() as v', values: [] }).then((r) => !String((r.rows[0] as { v: string }).v).includes('PGlite'));
        named.catch(() => (named = null));
        const config = { text, values: [...values], ...((await named) ? { name: statementName(text) } : {}) };
        return (await connection.query(config)).rows as T[];
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}
