/**
 * `node dist/bench/cpuprofile.js FILE.cpuprofile [N]`: where a `node --cpu-prof` profile spent its
 * time. Prints the top N functions by self time (share of all samples, idle excluded), and the
 * self time grouped by where the code lives (the service, node internals, each dependency), so
 * a profile of a bench run reads in a terminal without Chrome's DevTools.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per node id, in µs, from the samples and their time deltas. */
export function selfTimes(p: Profile): Map<number, number> {
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
  }
  return self;
}

/** Where a frame's code lives: `service`, `node`, `(gc)`, `(program)`, or a package name. */
export function placeOf(f: CallFrame): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : 'native';
  if (f.url.startsWith('node:')) return 'node';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url);
  if (m) return m[1];
  return 'service';
}

function main(): void {
  const [file, n = '30'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node dist/bench/cpuprofile.js FILE.cpuprofile [N]\n');
    process.exit(2);
  }
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const self = selfTimes(p);
  let total = 0;
  let idle = 0;
  const byFn = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    total += us;
    if (f.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const name = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${f.lineNumber + 1}` : ''}`;
    byFn.set(name, (byFn.get(name) ?? 0) + us);
    const place = placeOf(f);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  process.stdout.write(
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((busy / total) * 100).toFixed(0)}%); shares of busy time\n\nby place\n`,
  );
  for (const [place, us] of top(byPlace, 15)) process.stdout.write(`  ${pct(us)}  ${place}\n`);
  process.stdout.write(`\ntop ${n} functions by self time\n`);
  for (const [name, us] of top(byFn, Number(n))) process.stdout.write(`  ${pct(us)}  ${name}\n`);
}

if (require.main === module) main();
