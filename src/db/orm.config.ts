import { ReflectMetadataProvider } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { migrationsList } from './migrations';

export interface OrmOptionsInput {
  clientUrl: string;
  /** The application's entities (src/entities.ts): the database edge names no feature itself. */
  entities: Options['entities'];
  poolMax: number;
  replicaUrls?: readonly string[];
  debug?: boolean;
}

export function buildOrmOptions(input: OrmOptionsInput): Options {
  return defineConfig({
    clientUrl: input.clientUrl,
    entities: input.entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    pool: { min: 0, max: input.poolMax },
    replicas: input.replicaUrls?.map((url) => ({ name: url, clientUrl: url })),
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: input.debug ?? false,
    // Partner reads are served from precomputed rows through explicit queries; the identity map
    // of a request context is all the caching the write side needs.
    ensureDatabase: false,
  });
}
