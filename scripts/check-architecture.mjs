// Runs dependency-cruiser's API over the given folders (default src) with .dependency-cruiser.cjs
// and prints the rule violations as JSON. dependency-cruiser is ESM-only, so the jest test
// (test/architecture.test.ts) runs this in a child process.
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const roots = process.argv.slice(2);
const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const tsConfig = extractTSConfig('./tsconfig.json');
const { output } = await cruise(roots.length ? roots : ['src'], { ...options, outputType: 'json' }, undefined, { tsConfig });
const result = typeof output === 'string' ? JSON.parse(output) : output;
const violations = result.summary.violations.map((v) => ({
  rule: v.rule.name,
  from: v.from,
  to: v.to,
  ...(v.cycle ? { cycle: v.cycle.map((c) => (typeof c === 'string' ? c : c.name)) } : {}),
}));
// Runtime imports between top-level folders of src (a file directly in src counts as its own
// folder); type-only imports vanish at compile time and are left out.
const folderOf = (path) => /^src\/([^/]+)\//.exec(path)?.[1] ?? (path.startsWith('src/') ? path : null);
const folderEdges = [];
for (const m of result.modules) {
  for (const d of m.dependencies) {
    const from = folderOf(m.source);
    const to = folderOf(d.resolved);
    if (!from || !to || from === to || d.dependencyTypes.includes('type-only')) continue;
    folderEdges.push({ from, to, via: `${m.source} -> ${d.resolved}` });
  }
}
process.stdout.write(`${JSON.stringify({ modules: result.summary.totalCruised, violations, folderEdges })}\n`);
