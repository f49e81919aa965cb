import { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { buildOrmOptions } from './orm.config';

export interface Database {
  orm: MikroORM;
  /** The URL the ORM uses: DATABASE_URL, or the embedded server's socket. */
  url: string;
  embedded: EmbeddedPostgres | null;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  migrate?: boolean;
  debug?: boolean;
}

export async function openDatabase(config: Config, options: OpenDatabaseOptions = {}): Promise<Database> {
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedDbPort });
  const url = config.databaseUrl ?? embedded!.url;
  try {
    const orm = await MikroORM.init(
      buildOrmOptions({
        clientUrl: url,
        // One PGlite session is shared by every connection: a second one could interleave transactions.
        poolMax: embedded ? 1 : config.dbPoolMax,
        replicaUrls: config.replicaUrls,
        debug: options.debug,
      }),
    );
    if (options.migrate !== false) await orm.getMigrator().up();
    return {
      orm,
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
