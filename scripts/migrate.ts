// Applies the migrations to DATABASE_URL and exits. Used by the test set-up (in a child process,
// so jest's global set-up never loads the ORM) and handy for operators.
import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { buildOrmOptions } from '../src/db/orm.config';
import { entities } from '../src/entities';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const orm = await MikroORM.init(buildOrmOptions({ clientUrl: url, entities, poolMax: 1 }));
  await orm.getMigrator().up();
  await orm.close(true);
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
