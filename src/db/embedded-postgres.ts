import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  /** In-process LISTEN on the embedded database (its socket connections share one session). */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) served in-process over the wire protocol, so the same
 * MikroORM/pg code runs against it. All socket connections share one PostgreSQL session, so the
 * pool must be one connection (see STACK-NOTES).
 */
export async function startEmbeddedPostgres(opts: { dataDir?: string; port?: number; host?: string }): Promise<EmbeddedPostgres> {
  // ESM packages that ship CommonJS builds: require() keeps jest and tsc's CommonJS output happy.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PGLiteSocketServer } = require('@electric-sql/pglite-socket') as typeof import('@electric-sql/pglite-socket');
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = resolve(opts.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as typeof import('@electric-sql/pglite/contrib/pg_trgm');
  // pg_trgm backs the fighter search index (docs/adr/0001); PostgreSQL ships it as well.
  const db = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), extensions: { pg_trgm } });
  const host = opts.host ?? '127.0.0.1';
  const server = new PGLiteSocketServer({ db, host, port: opts.port ?? 0, maxConnections: 100 });
  await server.start();
  const address = server.getServerConn();
  const port = Number(address.split(':').pop());
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    async listen(channel, onNotify) {
      return db.listen(channel, () => onNotify());
    },
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
