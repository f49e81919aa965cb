import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../config/config';
import { type Database, openDatabase } from '../db/database';
import { entities } from '../entities';

export interface BenchDatabase {
  config: Config;
  db: Database;
  /** Closes the database and removes the bench's data folder. */
  close(): Promise<void>;
}

/**
 * The database a bench drives the service's code on: DATABASE_URL when it is set, otherwise an
 * embedded one in a fresh folder; no demo seeding, no in-process webhook worker, logs at warn.
 * `env` adds or overrides settings (a bench's own limits, private webhook targets).
 */
export async function openBenchDatabase(name: string, env: Record<string, string | undefined> = {}): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: '0', WEBHOOK_WORKER: 'off', ...env });
  const db = await openDatabase(config, { entities });
  return {
    config,
    db,
    close: async () => {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
