import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The studio app's typed operations (studio/src/gql/) are GraphQL Code Generator's output for
 * schema/studio.graphql and the app's operations, checked in: this fails when they are stale
 * (run npm run studio:codegen, after npm run schema when the schema changed). The generator runs
 * with the app's own configuration (studio/codegen.json), writing into a temporary folder.
 */
const ROOT = join(__dirname, '..', '..');

it("studio/src/gql is what the code generator makes of the schema and the app's operations (npm run studio:codegen)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-app-codegen-'));
  try {
    const config = JSON.parse(readFileSync(join(ROOT, 'studio', 'codegen.json'), 'utf8'));
    // Every output (the client preset's folder, the enum descriptions' file) made under dir/gql.
    const generates = Object.fromEntries(
      Object.entries(config.generates).map(([out, options]) => [out.replace(/^studio\/src\/gql\//, `${join(dir, 'gql')}/`), options]),
    );
    expect(Object.keys(generates).every((out) => out.startsWith(dir))).toBe(true);
    writeFileSync(join(dir, 'codegen.json'), JSON.stringify({ ...config, generates }));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@graphql-codegen/cli/cjs/bin.js'), '--config', join(dir, 'codegen.json'), '--silent'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: run.status, out: run.status === 0 ? '' : `${run.stdout}${run.stderr}` }).toEqual({ status: 0, out: '' });
    const made = readdirSync(join(dir, 'gql')).sort();
    expect(made).toContain('enum-descriptions.ts');
    expect(readdirSync(join(ROOT, 'studio/src/gql')).sort()).toEqual(made);
    for (const file of made) {
      expect({ file, content: readFileSync(join(ROOT, 'studio/src/gql', file), 'utf8') }).toEqual({
        file,
        content: readFileSync(join(dir, 'gql', file), 'utf8'),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
