import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { relayNotifications } from './embedded-notify';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  /**
   * In-process LISTEN on the embedded database: hears NOTIFYs committed by any connection, this
   * process's or another process's through the socket (see embedded-notify.ts).
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) served in-process over the wire protocol, so the same
 * MikroORM/pg code runs against it. All socket connections share one PostgreSQL session, so the
 * pool must be one connection (see docs/adr/0004-webhook-delivery.md).
 */
/**
 * PostgreSQL's buffer cache inside the WASM memory, which never shrinks (EMBEDDED_DB_SHARED_BUFFERS_MB
 * by default): PostgreSQL's default (128 MB, written by initdb) made most of the API process's
 * resident memory. The demo's read
 * model is small and hot pages stay in the OS page cache under the data directory. (The WASM
 * memory starts at 128 MB, the least the module accepts, and grows on demand.)
 */
export const EMBEDDED_SHARED_BUFFERS_MB = 16;

export async function startEmbeddedPostgres(opts: { dataDir?: string; port?: number; host?: string; sharedBuffersMb?: number }): Promise<EmbeddedPostgres> {
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
  const db = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffersMb ?? EMBEDDED_SHARED_BUFFERS_MB}MB`],
  });
  const host = opts.host ?? '127.0.0.1';
  const server = new PGLiteSocketServer({ db, host, port: opts.port ?? 0, maxConnections: 100 });
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const unrelay = relayNotifications(db, server, (channel, payload) => {
    for (const l of listeners.get(channel) ?? []) l(payload);
  });
  await server.start();
  const address = server.getServerConn();
  const port = Number(address.split(':').pop());
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    async listen(channel, onNotify) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      const listener = (payload: string) => onNotify(payload);
      set.add(listener);
      // The session must LISTEN for PostgreSQL to send anything; in-process NOTIFYs arrive here.
      const unlisten = await db.listen(channel, listener);
      return async () => {
        set.delete(listener);
        await unlisten();
      };
    },
    async close() {
      unrelay();
      await server.stop();
      await db.close();
    },
  };
}
