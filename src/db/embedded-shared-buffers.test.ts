import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The embedded database keeps a small buffer cache (EMBEDDED_DB_SHARED_BUFFERS_MB, 16 MB by
 * default), not PostgreSQL's 128 MB. PGlite cannot start inside jest's VM (dynamic import), so a
 * child process starts it and asks PostgreSQL.
 */
const ROOT = join(__dirname, '..', '..');
const SCRIPT = `
const { startEmbeddedPostgres } = require('./src/db/embedded-postgres');
const { Client } = require('pg');
(async () => {
  const db = await startEmbeddedPostgres(process.argv[1] ? { sharedBuffersMb: Number(process.argv[1]) } : {});
  const client = new Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query('show shared_buffers');
  await client.end();
  await db.close();
  process.stdout.write(rows[0].shared_buffers);
})().catch((err) => { console.error(err); process.exit(1); });
`;
const sharedBuffers = async (...arg: string[]) =>
  (await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', '-e', SCRIPT, ...arg], { cwd: ROOT })).stdout;

it("runs with the configured shared_buffers, not PostgreSQL's 128 MB", async () => {
  expect(await sharedBuffers('24')).toBe('24MB');
}, 120_000);
