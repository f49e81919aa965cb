// Development aid: diffs the entities against a migrated scratch database and writes a new
// migration into src/db/migrations. Usage: DATABASE_URL=postgres://... node -r @swc-node/register scripts/create-migration.ts
import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { buildOrmOptions } from '../src/db/orm.config';
import { entities } from '../src/entities';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const options = buildOrmOptions({ clientUrl: url, entities, poolMax: 2 });
  const orm = await MikroORM.init({
    ...options,
    migrations: {
      ...options.migrations,
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      emit: 'ts',
      fileName: (ts: string, name?: string) => `Migration${ts}${name ? `_${name}` : ''}`,
    },
  });
  await orm.getMigrator().up();
  const result = await orm.getMigrator().createMigration('src/db/migrations', false, false, process.argv[2]);
  console.log(result.fileName || 'no changes');
  await orm.close();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
