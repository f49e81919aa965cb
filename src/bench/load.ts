/**
 * The bench's load generator: `wrk` where it is installed (a C program on one thread: it leaves the
 * cores to the servers it compares), autocannon otherwise (a Node process that takes most of a
 * core on a 2-core machine, which caps the bare server and flatters the service's ratio to it).
 * BENCH_LOAD=wrk|autocannon chooses; both report the same figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAutocannon, type AutocannonOptions } from './autocannon';
import { CRAWL_LUA } from './crawl';

export interface LoadResult {
  /** Requests per second over the run. */
  reqPerSec: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** A crawl: requests that repeated a URL of the crawl (its URLs ran out before the time did). */
  repeats?: number;
}

/** A crawl's URLs: lines `start` to `start + count` of a file, each once (wrk only). */
export interface CrawlSlice {
  file: string;
  start: number;
  count: number;
}

export type LoadGenerator = 'wrk' | 'autocannon';

const WRK = '/usr/bin/wrk';

export function loadGenerator(): LoadGenerator {
  const chosen = process.env.BENCH_LOAD;
  if (chosen === 'wrk' || chosen === 'autocannon') return chosen;
  if (chosen) throw new Error(`BENCH_LOAD must be wrk or autocannon, got "${chosen}"`);
  return existsSync(WRK) ? 'wrk' : 'autocannon';
}

/** Stops the load under way (SIGINT). */
let stopCurrent: (() => void) | undefined;
export const stopLoad = () => stopCurrent?.();

export async function runLoad(
  generator: LoadGenerator,
  opts: AutocannonOptions & { duration: number; connections: number; crawl?: CrawlSlice },
): Promise<LoadResult> {
  if (generator === 'wrk') return runWrk(opts);
  if (opts.crawl) throw new Error('a crawl needs wrk (BENCH_LOAD=wrk, /usr/bin/wrk)');
  const r = await runAutocannon(opts, (instance) => (stopCurrent = () => instance.stop()));
  stopCurrent = undefined;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  return {
    reqPerSec: r.requests.average,
    requests: r.requests.total,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}

// wrk's Lua hooks: the method, body and headers of every request, and a JSON summary at the end
// (latency in microseconds; `errors.status` counts answers of 400 and above).
const SCRIPT = `${CRAWL_LUA}
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body and body ~= "" then wrk.body = body end
done = function(summary, latency, requests)
  local e = summary.errors
  local repeated = 0
  for _, t in ipairs(threads) do repeated = repeated + (t:get("repeats") or 0) end
  io.write(string.format('\\n{"requests":%d,"duration_us":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p99":%d,"max":%d,"repeats":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, repeated))
end
`;

let scriptFile: string | undefined;

function runWrk(opts: AutocannonOptions & { duration: number; connections: number; crawl?: CrawlSlice }): Promise<LoadResult> {
  scriptFile ??= (() => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-wrk-')), 'summary.lua');
    writeFileSync(file, SCRIPT);
    return file;
  })();
  const args = ['-t1', `-c${opts.connections}`, `-d${Math.max(1, Math.round(opts.duration))}s`, `--timeout`, `${opts.timeout ?? 10}s`, '-s', scriptFile];
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(opts.url);
  const c = opts.crawl;
  const env = {
    ...process.env,
    WRK_METHOD: opts.method ?? 'GET',
    WRK_BODY: opts.body === undefined ? '' : String(opts.body),
    CRAWL_FILE: c?.file ?? '',
    CRAWL_START: String(c?.start ?? 0),
    CRAWL_COUNT: String(c?.count ?? 0),
  };
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(WRK, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    stopCurrent = () => child.kill('SIGINT');
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', () => {
      stopCurrent = undefined;
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{"requests"'));
      if (!line) return reject(new Error(`wrk gave no summary: ${out.slice(-500)}`));
      const s = JSON.parse(line) as Record<string, number>;
      const errors = s.connect + s.read + s.write + s.timeout;
      const ms = (us: number) => Math.round(us / 10) / 100;
      resolve({
        reqPerSec: s.requests / (s.duration_us / 1e6),
        requests: s.requests,
        p50Ms: ms(s.p50),
        p99Ms: ms(s.p99),
        maxMs: ms(s.max),
        non2xx: s.non2xx,
        errors,
        timeouts: s.timeout,
        statusCodes: s.non2xx ? { '4xx/5xx': s.non2xx } : {},
        ...(c ? { repeats: s.repeats } : {}),
      });
    });
  });
}
