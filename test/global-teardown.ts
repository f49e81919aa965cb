import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const embedded = (globalThis as Record<string, unknown>).__EMBEDDED__ as { close(): Promise<void> } | undefined;
  if (embedded) await embedded.close();
  if (process.env.TEST_TEMPLATE_DB && process.env.TEST_ADMIN_URL) {
    const admin = new Client({ connectionString: process.env.TEST_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${process.env.TEST_TEMPLATE_DB} with (force)`).catch(() => undefined);
    await admin.end();
  }
}
