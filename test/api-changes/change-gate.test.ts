import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, print, visit } from 'graphql';
import { report, runGate, unreleasedNames } from '../../scripts/change-gate';

/**
 * The change gate on the repository itself (what CI runs) and on a copy of it with a breaking
 * change in each kind of document: it fails until CHANGELOG.md's Unreleased section names it.
 */

const ROOT = join(__dirname, '..', '..');
let copy: string;
beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'gate-'));
  // Today's documents as both the released and the current ones: only the test's edit differs.
  cpSync(join(ROOT, 'schema'), join(copy, 'schema'), { recursive: true });
  for (const file of ['openapi.json', 'openapi-tv.json', 'studio.graphql']) cpSync(join(copy, 'schema', file), join(copy, 'schema', 'released', file));
  writeFileSync(
    join(copy, 'CHANGELOG.md'),
    '# Changelog\n\n## [Unreleased]\n\n## [1.0.0] - 2026-11-01\n\n### Removed\n- `GET /api/v1/me`\n- `StudioChannel.name`\n',
  );
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

const gate = (root: string) =>
  spawnSync(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'scripts/change-gate.ts'), '--root', root], { cwd: ROOT, encoding: 'utf8' });

function unrelease(text: string) {
  const file = join(copy, 'CHANGELOG.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace('## [Unreleased]\n', `## [Unreleased]\n\n${text}\n`));
}

test('the repository passes its own gate: every breaking change since the release is in CHANGELOG.md', async () => {
  const { text, failed } = report(await runGate(ROOT));
  expect({ failed, text }).toEqual({ failed: false, text: expect.stringContaining('change gate: passed') });
});

test('a removed partner operation fails the gate (exit 1, saying what to name) until the Unreleased section names it', () => {
  const file = join(copy, 'schema', 'openapi.json');
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  delete doc.paths['/me'];
  writeFileSync(file, JSON.stringify(doc));
  const failed = gate(copy);
  expect(failed.status).toBe(1);
  expect(failed.stdout).toContain('UNNAMED partner API: GET /api/v1/me: api-path-removed');
  expect(failed.stdout).toContain('name one of `GET /api/v1/me`');
  unrelease("### Removed\n- `GET /api/v1/me`: use the key's own records.");
  const passed = gate(copy);
  expect(passed.status).toBe(0);
  expect(passed.stdout).toContain('named   partner API: GET /api/v1/me');
});

test('a removed GraphQL field fails the gate until its coordinate (or its type) is named; an older release naming it does not count', async () => {
  const file = join(copy, 'schema', 'studio.graphql');
  const sdl = visit(parse(readFileSync(file, 'utf8')), {
    ObjectTypeDefinition: (node) =>
      node.name.value === 'StudioChannel' ? { ...node, fields: node.fields?.filter((f) => f.name.value !== 'name') } : undefined,
  });
  writeFileSync(file, print(sdl));
  const changes = await runGate(copy);
  expect(changes.filter((c) => c.level === 'breaking')).toEqual([
    expect.objectContaining({ surface: 'studio GraphQL', id: 'FIELD_REMOVED', names: ['StudioChannel', 'StudioChannel.name'], named: false }),
  ]);
  unrelease('### Removed\n- `StudioChannel` loses its name.');
  expect(report(await runGate(copy)).failed).toBe(false);
});

test('only backticked names in the Unreleased section count', () => {
  expect([...unreleasedNames('# C\n\n## [Unreleased]\n\n- `A.b` and B.c\n- `GET /x`\n\n## [1.0.0]\n- `Old`\n')]).toEqual(['A.b', 'GET /x']);
  expect([...unreleasedNames('# C\n\n## [1.0.0]\n- `Old`\n')]).toEqual([]);
});

test("--release copies today's documents over the released ones", () => {
  writeFileSync(join(copy, 'schema', 'released', 'openapi.json'), '{}');
  execFileSync(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'scripts/change-gate.ts'), '--root', copy, '--release'], { cwd: ROOT });
  expect(readFileSync(join(copy, 'schema', 'released', 'openapi.json'), 'utf8')).toBe(readFileSync(join(copy, 'schema', 'openapi.json'), 'utf8'));
});
