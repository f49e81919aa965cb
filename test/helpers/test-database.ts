import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A database of this test file's own: a clone of the migrated template on PostgreSQL, or the
 * shared embedded one emptied (files run one at a time there).
 */
export async function provisionTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (process.env.TEST_TEMPLATE_DB && process.env.TEST_ADMIN_URL) {
    const name = `svc_t_${randomBytes(5).toString('hex')}`;
    const admin = new Client({ connectionString: process.env.TEST_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name} template ${process.env.TEST_TEMPLATE_DB}`);
    await admin.end();
    const url = new URL(process.env.TEST_ADMIN_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        const c = new Client({ connectionString: process.env.TEST_ADMIN_URL });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
        await c.end();
      },
    };
  }
  const url = process.env.TEST_EMBEDDED_URL;
  if (!url) throw new Error('the jest global set-up did not prepare a database');
  const c = new Client({ connectionString: url });
  await c.connect();
  const tables = await c.query<{ t: string }>(
    `select quote_ident(tablename) as t from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations'`,
  );
  if (tables.rows.length) await c.query(`truncate ${tables.rows.map((r) => r.t).join(', ')} restart identity cascade`);
  const seqs = await c.query<{ s: string }>(`select quote_ident(sequence_name) as s from information_schema.sequences where sequence_schema = 'public'`);
  for (const { s } of seqs.rows) await c.query(`alter sequence ${s} restart with 1`);
  await c.end();
  return { url, async drop() {} };
}
