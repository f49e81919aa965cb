/**
 * `npm run bench:attack`: legitimate partner traffic while /graphql is attacked.
 *
 * - starts the service (dist/main.js, NODE_ENV=production) on DATABASE_URL when it is set, otherwise
 *   on the embedded database in BENCH_DATA_DIR (default ./.data/bench; the first start seeds the demo);
 *   the per-session studio limit is lifted so the signed-in attacks reach the query limits (the worst
 *   case: the anonymous ones meet the 30-per-minute IP limit as they would in production);
 * - measures GET /api/v1/rankings with the key pk_demo_bench on BENCH_CONNECTIONS (64) connections,
 *   first alone, then while one client loops the fragment fan-out and the 3,200-alias query on
 *   /graphql (anonymous and with the demo owner's session) and another floods unknown partner keys;
 * - prints the legitimate p50, p99 and req/s of both runs, the attack answers by status and code, and
 *   whether the goal (legitimate p99 under 50 ms under attack) is met.
 *
 * A benchmark, never a test: a missed goal is reported, not failed. Error answers to the legitimate
 * load are failures (exit code 1). Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (64),
 * BENCH_DATA_DIR, BENCH_START_TIMEOUT_SECONDS (600), DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { Agent, fetch as attackFetch } from 'undici';
import { runAutocannon, type AutocannonResult } from './autocannon';

/**
 * The attackers connect from another loopback address (127.0.0.2), as they would from another
 * machine: the failed-authentication budget is per client address, so an unknown-key flood from
 * the partner's own address would (rightly) lock the partner out too.
 */
const attacker = new Agent({ localAddress: '127.0.0.2' });

const RANKINGS_PATH = '/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg';
const BENCH_KEY = 'pk_demo_bench';
const GOAL_P99_MS = 50;
const FAN_OUT = `{ viewer { ...F0 } } ${Array.from({ length: 20 }, (_, i) => `fragment F${i} on Viewer { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F20 on Viewer { email }`;
const ALIASES = `{${Array.from({ length: 3_200 }, (_, i) => `a${i}:channel(slug:"demo-tv"){broadcasts(first:1){edges{node{health{signal}}}}}`).join(' ')}}`;

const PROJECT_ROOT = resolve(__dirname, '..', '..');
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

async function startService(startTimeoutSeconds: number): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    STUDIO_SESSION_PER_MINUTE: '1000000000',
    // as npm start and the image run it (package.json, Dockerfile)
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  };
  delete env.PUBLIC_URL;
  if (process.env.DATABASE_URL) delete env.DATA_DIR;
  else env.DATA_DIR = process.env.BENCH_DATA_DIR ? resolve(process.env.BENCH_DATA_DIR) : resolve(PROJECT_ROOT, '.data', 'bench');
  const child = spawn(process.execPath, [resolve(__dirname, '..', 'main.js')], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Log lines (JSON) and errors are passed through; the start banner is not.
  child.stdout!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.startsWith('{')) log(`[service] ${line}`);
  });
  child.stderr!.on('data', (chunk: Buffer) => log(`[service] ${chunk.toString('utf8').trimEnd()}`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  log(`starting the service on ${process.env.DATABASE_URL ? 'DATABASE_URL' : env.DATA_DIR} (port ${port})`);
  while (Date.now() - started < startTimeoutSeconds * 1000) {
    if (child.exitCode !== null) throw new Error(`the service stopped while starting (exit code ${child.exitCode})`);
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return { child, baseUrl };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  child.kill('SIGKILL');
  throw new Error(`the service was not ready after ${startTimeoutSeconds} s`);
}

async function login(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' }),
  });
  const body = (await res.json()) as { data?: { login?: { token?: string } }; errors?: unknown };
  const token = body.data?.login?.token;
  if (!token) throw new Error(`the demo owner could not sign in: ${JSON.stringify(body)}`);
  return token;
}

/** Counts of answers per "status code" (code = extensions.code or the REST error). */
type Tally = Map<string, number>;
const count = (t: Tally, key: string) => t.set(key, (t.get(key) ?? 0) + 1);

/** Loops until `stop()`: each iteration waits for its answer, so this is one client. */
function loop(iteration: (i: number) => Promise<string>): { tally: Tally; stop: () => Promise<void> } {
  const tally: Tally = new Map();
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      try {
        count(tally, await iteration(i));
      } catch (err) {
        count(tally, `client error ${(err as Error).message}`);
      }
    }
  })();
  return {
    tally,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function describe(res: { status: number; text(): Promise<string> }): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[]; error?: string };
    return `${res.status} ${body.errors?.[0]?.extensions?.code ?? body.error ?? 'ok'}`;
  } catch {
    return `${res.status} (not JSON)`;
  }
}

function graphqlAttacker(baseUrl: string, token: string) {
  const variants = [
    { query: FAN_OUT, session: false },
    { query: FAN_OUT, session: true },
    { query: ALIASES, session: false },
    { query: ALIASES, session: true },
  ].map((v) => ({
    ...v,
    body: JSON.stringify({ query: v.query }),
    name: `${v.query === FAN_OUT ? 'fan-out' : '3,200 aliases'} ${v.session ? 'session' : 'anonymous'}`,
  }));
  return loop(async (i) => {
    const v = variants[i % variants.length];
    const res = await attackFetch(`${baseUrl}/graphql`, {
      dispatcher: attacker,
      method: 'POST',
      body: v.body,
      headers: { 'content-type': 'application/json', ...(v.session ? { authorization: `Bearer ${token}` } : {}) },
    });
    return `${v.name}: ${await describe(res)}`;
  });
}

function unknownKeyFlood(baseUrl: string) {
  return loop(async () => {
    const res = await attackFetch(`${baseUrl}${RANKINGS_PATH}`, {
      dispatcher: attacker,
      headers: { authorization: `Bearer pk_live_${randomBytes(16).toString('hex')}` },
    });
    return `unknown partner key: ${await describe(res)}`;
  });
}

function legitimate(baseUrl: string, seconds: number, connections: number): Promise<AutocannonResult> {
  return runAutocannon({ url: `${baseUrl}${RANKINGS_PATH}`, connections, duration: seconds, headers: { authorization: `Bearer ${BENCH_KEY}` } });
}

/** The service's resident memory (VmRSS) and its peak so far (VmHWM), in MiB, from /proc (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/** Samples the service's RSS every 250 ms: the highest seen, and the last. */
function watchMemory(pid: number): { stop(): { max: number; last: number; peak: number } | null } {
  let max = 0;
  let last: { rss: number; peak: number } | null = null;
  const sample = () => {
    last = memoryOf(pid) ?? last;
    if (last) max = Math.max(max, last.rss);
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return last ? { max, last: last.rss, peak: last.peak } : null;
    },
  };
}

const GOAL_RSS_MIB = 300;

const row = (name: string, r: AutocannonResult) =>
  `${name.padEnd(26)} ${String(Math.round(r.requests.average)).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   max ${String(r.latency.max).padStart(5)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;

async function main(): Promise<number> {
  const seconds = intEnv('BENCH_SECONDS', 10);
  const connections = intEnv('BENCH_CONNECTIONS', 64);
  const { child, baseUrl } = await startService(intEnv('BENCH_START_TIMEOUT_SECONDS', 600));
  const stopService = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('SIGINT', () => {
    stopService();
    process.exit(130);
  });
  try {
    const token = await login(baseUrl);
    const ready = memoryOf(child.pid!);
    log('warm-up (3 s)');
    await runAutocannon({ url: `${baseUrl}${RANKINGS_PATH}`, connections, duration: 3, headers: { authorization: `Bearer ${BENCH_KEY}` } });
    const memory = watchMemory(child.pid!);
    log(`legitimate load alone: ${connections} connections, ${seconds} s`);
    const alone = await legitimate(baseUrl, seconds, connections);
    log(`legitimate load under attack: ${connections} connections, ${seconds} s`);
    const attackers = [graphqlAttacker(baseUrl, token), unknownKeyFlood(baseUrl)];
    const attacked = await legitimate(baseUrl, seconds, connections);
    await Promise.all(attackers.map((a) => a.stop()));
    const rss = memory.stop();

    const out = [
      `GET /api/v1/rankings (${BENCH_KEY}), ${connections} connections, ${seconds} s each:`,
      row('alone', alone),
      row('under attack', attacked),
      '',
      'attack answers (one client each, sequential):',
      ...attackers.flatMap((a) => [...a.tally].sort().map(([k, n]) => `  ${k}: ${n}`)),
      '',
      attacked.latency.p99 < GOAL_P99_MS
        ? `goal met: legitimate p99 under attack ${attacked.latency.p99} ms < ${GOAL_P99_MS} ms`
        : `goal MISSED: legitimate p99 under attack ${attacked.latency.p99} ms >= ${GOAL_P99_MS} ms`,
      '',
      rss
        ? `service RSS: ${ready?.rss ?? '?'} MiB when ready, ${rss.max} MiB at most during the runs (sampled), ${rss.last} MiB at the end, peak ${rss.peak} MiB (VmHWM, start-up and seeding included)`
        : 'service RSS: not available (no /proc)',
      rss
        ? rss.max < GOAL_RSS_MIB
          ? `goal met: RSS under ${GOAL_RSS_MIB} MiB during the runs`
          : `goal MISSED: RSS ${rss.max} MiB >= ${GOAL_RSS_MIB} MiB during the runs`
        : '',
      `load average (1, 5, 15 min): ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    const failed = alone.non2xx + alone.errors + attacked.non2xx + attacked.errors;
    if (failed > 0) log(`the legitimate load had ${failed} error answers: the figures are not meaningful`);
    return failed > 0 ? 1 : 0;
  } finally {
    stopService();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`bench:attack failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
