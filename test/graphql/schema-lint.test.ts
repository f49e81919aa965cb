import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * graphql-schema-linter on schema/studio.graphql with the rules graphql-schema-linter.config.js
 * keeps; the config names every rule it leaves out, with the reason, in its comment.
 */
const root = join(__dirname, '../..');
const linterDir = join(root, 'node_modules/graphql-schema-linter');

describe('the studio schema lint (graphql-schema-linter)', () => {
  it('passes every rule kept, on the checked-in SDL', () => {
    const run = spawnSync(process.execPath, [join(linterDir, 'lib/cli.js'), '--format', 'compact'], { cwd: root, encoding: 'utf8' });
    expect({
      status: run.status,
      errors: `${run.stdout}${run.stderr}`
        .trim()
        .split('\n')
        .filter((l) => /\d+:\d+/.test(l)),
    }).toEqual({ status: 0, errors: [] });
  });

  it('keeps or explains every rule the linter has', () => {
    const all = readdirSync(join(linterDir, 'lib/rules'))
      .map((f) => f.replace(/\.js$/, '').replace(/_/g, '-'))
      .sort();
    const config = require(join(root, 'graphql-schema-linter.config.js')) as { rules: string[]; schemaPaths: string[] };
    const comment = readFileSync(join(root, 'graphql-schema-linter.config.js'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .join('\n');
    const leftOut = all.filter((r) => !config.rules.includes(r));
    expect(config.schemaPaths).toEqual(['schema/studio.graphql']);
    expect(config.rules.filter((r) => !all.includes(r))).toEqual([]);
    expect(leftOut.filter((r) => !comment.includes(r))).toEqual([]);
  });
});
