import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// CI installs with `npm ci`, which refuses a lockfile that lacks an optional platform package.
// The registry used here does not serve every platform, so `npm install` drops some of them:
// scripts/lockfile-platforms.js puts them back. This fails before CI would.
it('package-lock.json lists every optional dependency (run node scripts/lockfile-platforms.js)', () => {
  const lock = JSON.parse(readFileSync(join(__dirname, '..', 'package-lock.json'), 'utf8'));
  const missing: string[] = [];
  for (const [key, pkg] of Object.entries<any>(lock.packages)) {
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
      if (!lock.packages[`node_modules/${dep}`] && !lock.packages[`${key}/node_modules/${dep}`]) missing.push(`${dep} (of ${key})`);
    }
  }
  expect(missing).toEqual([]);
});
