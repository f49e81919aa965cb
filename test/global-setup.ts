import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Prepares one migrated database for the whole run:
 * - with DATABASE_URL (CI): a template database that each test file clones (CREATE DATABASE ...
 *   TEMPLATE), so files run in parallel on their own data;
 * - without it: an in-memory PGlite served on a socket; files run one at a time and each starts
 *   by emptying the tables.
 * Migrations run in a child process so that this file never loads the ORM.
 */
export default async function globalSetup(): Promise<void> {
  const root = join(__dirname, '..');
  // Asynchronous: the embedded database is served by this very process, so it must not block.
  const migrate = (url: string) =>
    promisify(execFile)(process.execPath, ['-r', '@swc-node/register', join(root, 'scripts', 'migrate.ts')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
    });
  if (process.env.DATABASE_URL) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const template = `svc_tmpl_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${template}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${template}`;
    await migrate(url.toString());
    process.env.TEST_TEMPLATE_DB = template;
    process.env.TEST_ADMIN_URL = process.env.DATABASE_URL;
  } else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startEmbeddedPostgres } = require('../src/db/embedded-postgres') as typeof import('../src/db/embedded-postgres');
    const embedded = await startEmbeddedPostgres({});
    (globalThis as Record<string, unknown>).__EMBEDDED__ = embedded;
    await migrate(embedded.url);
    process.env.TEST_EMBEDDED_URL = embedded.url;
  }
}
