import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive (.ci/run installs it when it is missing). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * `describe` when the browser is here, `describe.skip` (saying so) on a developer's machine without
 * it; under CI a missing browser fails the file instead, since CI never skips the browser tests.
 */
export function describeWithBrowser(file: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  if (process.env.CI) throw new Error(`${file}: no browser at ${CHROMIUM}, and CI never skips the browser tests (.ci/run installs Debian's chromium)`);
  console.warn(`${file}: skipped, no browser at ${CHROMIUM} (install Debian's chromium to run it)`);
  return describe.skip;
}

/** Headless Chromium, offline: no background networking, updates, sync or first-run pages. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
