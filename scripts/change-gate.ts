// The change gate (`npm run check:changes`, run by .ci/run; docs/api-changes.md): both OpenAPI
// documents and the studio SDL against the last release's copies in schema/released/. A breaking
// change fails the gate unless the Unreleased section of CHANGELOG.md names it (in backticks):
// its operation (`GET /api/v1/events`), a schema or property it was found through (`Event`,
// `Event.url`), or for GraphQL its schema coordinate or a prefix of it (`Role`, `Role.OWNER`).
// `npm run check:changes -- --release` copies today's documents over the released ones, as a
// release does once CHANGELOG.md's Unreleased section has become the release's.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';
import { type ApiChange, classifyOpenApi, type Level } from './openapi-breaking';

export const SURFACES = [
  { name: 'partner API', file: 'openapi.json', kind: 'openapi' },
  { name: 'TV API', file: 'openapi-tv.json', kind: 'openapi' },
  { name: 'studio GraphQL', file: 'studio.graphql', kind: 'graphql' },
] as const;

export interface GateChange extends ApiChange {
  surface: string;
  named: boolean;
}

const LEVELS: Record<CriticalityLevel, Level> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'warning',
  [CriticalityLevel.NonBreaking]: 'info',
};

async function graphqlChanges(before: string, after: string): Promise<ApiChange[]> {
  const changes = await diff(buildSchema(before), buildSchema(after));
  return changes.map((c) => {
    const segments = (c.path ?? '').split('.').filter(Boolean);
    const names = segments.map((_s, i) => segments.slice(0, i + 1).join('.'));
    return { level: LEVELS[c.criticality.level], id: c.type, operation: c.path ?? '(schema)', where: c.message, names };
  });
}

/** The Unreleased section of a Keep a Changelog file, and the `names` in backticks in it. */
export function unreleasedNames(changelog: string): Set<string> {
  const start = changelog.search(/^## \[Unreleased\]/m);
  if (start < 0) return new Set();
  const rest = changelog.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return new Set([...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim()));
}

export async function runGate(root: string): Promise<GateChange[]> {
  const named = unreleasedNames(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'));
  const out: GateChange[] = [];
  for (const surface of SURFACES) {
    const released = readFileSync(join(root, 'schema', 'released', surface.file), 'utf8');
    const current = readFileSync(join(root, 'schema', surface.file), 'utf8');
    const changes = surface.kind === 'openapi' ? classifyOpenApi(JSON.parse(released), JSON.parse(current)) : await graphqlChanges(released, current);
    for (const c of changes) out.push({ ...c, surface: surface.name, named: c.names.some((n) => named.has(n)) });
  }
  return out;
}

export function report(changes: GateChange[]): { text: string; failed: boolean } {
  const lines: string[] = [];
  const unnamed = changes.filter((c) => c.level === 'breaking' && !c.named);
  for (const level of ['breaking', 'warning'] as const) {
    const these = changes.filter((c) => c.level === level);
    lines.push(`${level} changes since the last release: ${these.length}`);
    for (const c of these) {
      const mark = level === 'breaking' ? (c.named ? '  named   ' : '  UNNAMED ') : '  ';
      lines.push(
        `${mark}${c.surface}: ${c.operation}: ${c.id} (${c.where})${level === 'breaking' && !c.named ? `; name one of ${c.names.map((n) => `\`${n}\``).join(', ')}` : ''}`,
      );
    }
  }
  lines.push(`other changes: ${changes.filter((c) => c.level === 'info').length}`);
  lines.push(
    unnamed.length === 0
      ? 'change gate: passed'
      : `change gate: FAILED: ${unnamed.length} breaking change(s) not named in CHANGELOG.md's Unreleased section (docs/api-changes.md)`,
  );
  return { text: lines.join('\n'), failed: unnamed.length > 0 };
}

if (require.main === module) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? process.argv[at + 1] : join(__dirname, '..');
  if (process.argv.includes('--release')) {
    for (const s of SURFACES) copyFileSync(join(root, 'schema', s.file), join(root, 'schema', 'released', s.file));
    console.log(`schema/released/ now holds today's ${SURFACES.map((s) => s.file).join(', ')}`);
  } else {
    runGate(root).then(
      (changes) => {
        const { text, failed } = report(changes);
        console.log(text);
        process.exit(failed ? 1 : 0);
      },
      (err: Error) => {
        console.error(`change gate: ${err.message}`);
        process.exit(2);
      },
    );
  }
}
