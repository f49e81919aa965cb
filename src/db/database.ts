import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import type { Config } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { buildOrmOptions } from './orm.config';
import { runningEmbeddedUrl } from './server-info';

export interface Database {
  orm: MikroORM;
  /**
   * Runs `fn` while holding a cluster-wide advisory lock, so that several instances starting
   * together migrate and seed one at a time.
   */
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** The URL the ORM uses: DATABASE_URL, or the embedded server's socket. */
  url: string;
  embedded: EmbeddedPostgres | null;
  close(): Promise<void>;
}

/** An arbitrary, fixed advisory-lock key for start-up work (migrations, demo seed). */
const STARTUP_LOCK = 727_001;

export interface OpenDatabaseOptions {
  /** The application's entities (src/entities.ts). */
  entities: Options['entities'];
  migrate?: boolean;
  debug?: boolean;
  /** For the CLI and workers: use the running server's embedded database when there is one. */
  joinRunningServer?: boolean;
}

export async function openDatabase(config: Config, options: OpenDatabaseOptions): Promise<Database> {
  const joined = !config.databaseUrl && options.joinRunningServer ? runningEmbeddedUrl(config.dataDir) : null;
  const embedded =
    config.databaseUrl || joined
      ? null
      : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedDbPort, sharedBuffersMb: config.embeddedDbSharedBuffersMb });
  const url = config.databaseUrl ?? joined ?? embedded!.url;
  try {
    const orm = await MikroORM.init(
      buildOrmOptions({
        clientUrl: url,
        entities: options.entities,
        // One PGlite session is shared by every connection: a second one could interleave transactions.
        poolMax: embedded || joined ? 1 : config.dbPoolMax,
        replicaUrls: config.replicaUrls,
        debug: options.debug,
      }),
    );
    const runExclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
      // The embedded database is one process's: nothing to coordinate with.
      if (embedded || joined) return fn();
      const lock = new Client({ connectionString: url });
      await lock.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        return await fn();
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
        await lock.end();
      }
    };
    if (options.migrate !== false) await runExclusive(() => orm.getMigrator().up());
    return {
      orm,
      runExclusive,
      url,
      embedded,
      async close() {
        await orm.close(true);
        await embedded?.close();
      },
    };
  } catch (err) {
    await embedded?.close();
    throw err;
  }
}
