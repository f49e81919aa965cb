// Compares two OpenAPI documents semantically (`node -r @swc-node/register scripts/openapi-diff.ts
// old.json new.json`): key order and the order of `required` are ignored; every other difference is
// printed as `<JSON pointer>: <old> -> <new>`, prose (description, summary, example) separately.
import { readFileSync } from 'node:fs';

type Json = unknown;
const PROSE = new Set(['description', 'summary', 'example']);

function flatten(node: Json, pointer: string, out: Map<string, string>): void {
  if (Array.isArray(node)) {
    const items = pointer.endsWith('/required') ? [...node].sort() : node;
    if (items.length === 0) out.set(pointer, '[]');
    items.forEach((item, i) => {
      flatten(item, `${pointer}/${i}`, out);
    });
  } else if (node !== null && typeof node === 'object') {
    const entries = Object.entries(node as Record<string, Json>);
    if (entries.length === 0) out.set(pointer, '{}');
    for (const [key, value] of entries) flatten(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  } else {
    out.set(pointer, JSON.stringify(node));
  }
}

export function diffDocuments(before: Json, after: Json): { semantic: string[]; prose: string[] } {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(before, '', a);
  flatten(after, '', b);
  const semantic: string[] = [];
  const prose: string[] = [];
  for (const key of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (a.get(key) === b.get(key)) continue;
    const line = `${key}: ${a.get(key) ?? '(absent)'} -> ${b.get(key) ?? '(absent)'}`;
    const isProse = key.split('/').some((token) => PROSE.has(token));
    (isProse ? prose : semantic).push(line);
  }
  return { semantic, prose };
}

if (require.main === module) {
  const [before, after] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')));
  const { semantic, prose } = diffDocuments(before, after);
  console.log(`semantic differences: ${semantic.length}`);
  for (const line of semantic) console.log(`  ${line}`);
  console.log(`prose differences: ${prose.length}`);
  for (const line of prose) console.log(`  ${line}`);
}
