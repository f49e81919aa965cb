import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The layering rules live in .dependency-cruiser.cjs; scripts/check-architecture.mjs runs
// dependency-cruiser's API over src with them (in a child process: the package is ESM-only).
const root = join(__dirname, '..');

interface Report {
  modules: number;
  violations: { rule: string; from: string; to: string; cycle?: string[] }[];
  folderEdges: { from: string; to: string; via: string }[];
}

async function check(): Promise<Report> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts/check-architecture.mjs'), 'src'], { cwd: root, maxBuffer: 32 << 20 });
  return JSON.parse(stdout) as Report;
}

function folderCycles(edges: Report['folderEdges']): string[] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!graph.has(e.from)) graph.set(e.from, new Set());
    graph.get(e.from)!.add(e.to);
  }
  const cycles = new Set<string>();
  const walk = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.add([...path.slice(at), next].join(' -> '));
      else walk(next, [...path, next]);
    }
  };
  for (const start of graph.keys()) walk(start, [start]);
  return [...cycles];
}

let report: Report;
beforeAll(async () => {
  report = await check();
});

describe('the layering of src', () => {
  it('cruises the whole source tree', () => {
    expect(report.modules).toBeGreaterThan(100);
  });

  it('breaks none of the dependency rules (doors apart, transport-free domain, outbox behind no door, db below the domain and knowing no feature, config knowing no feature, no cycles)', () => {
    const listed = report.violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.join(' -> ')})` : ''}`);
    expect(listed).toEqual([]);
  });

  it('has no import cycle between top-level folders', () => {
    expect(folderCycles(report.folderEdges)).toEqual([]);
  });
});
