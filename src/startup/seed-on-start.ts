import type { Logger } from '../lib/logger';
import type { Container } from '../container';
import type { Database } from '../db/database';
import { seedDemoIfEmpty, type DemoSeedOutcome } from '../demo/demo.seed';
import { describeSeeding, type SeedingProgress, type StartupState } from './startup-state';

const REPORT_EVERY_MS = 3_000;

/**
 * Seeds the demo data on start (after the server listens): under the start-up lock, so that
 * several instances seed once; with the progress logged every few seconds and on each phase;
 * and the start-up state marked ready once the demo is whole.
 */
export async function seedDemoOnStart(c: Container, db: Database, state: StartupState, logger: Logger): Promise<DemoSeedOutcome | null> {
  const started = Date.now();
  let last: SeedingProgress | null = null;
  let lastAt = 0;
  const report = (p: SeedingProgress, force: boolean) => {
    const now = Date.now();
    if (!force && now - lastAt < REPORT_EVERY_MS) return;
    lastAt = now;
    logger.info({ seeding: p, seconds: Math.round((now - started) / 100) / 10 }, `seeding the demo data: ${describeSeeding(p)}`);
  };
  const onProgress = (p: SeedingProgress) => {
    state.progress(p);
    report(p, last?.phase !== p.phase);
    last = p;
  };
  // Reports even while one long step (a ranking run) sends no progress.
  const timer = setInterval(() => {
    if (last) report(last, true);
  }, REPORT_EVERY_MS);
  timer.unref();
  try {
    const outcome = await db.runExclusive(() => seedDemoIfEmpty(c, onProgress));
    if (outcome) logger.info({ ...outcome, seconds: Math.round((Date.now() - started) / 100) / 10 }, 'demo data seeded');
    state.markReady();
    return outcome;
  } finally {
    clearInterval(timer);
  }
}
