/**
 * `npm run bench`: throughput and latency of the partner API next to a bare node:http server.
 *
 * - starts the service (dist/main.js) as a child process: on DATABASE_URL when it is set, otherwise
 *   on the embedded PGlite in a bench-only DATA_DIR (BENCH_DATA_DIR, default ./.data/bench), so the
 *   user's demo data is never touched; the first start on an empty directory seeds the demo data;
 * - fetches one /api/v1/rankings body and forks a bare node:http server answering exactly those
 *   bytes with the same content type (the ceiling for that response on this machine);
 * - warms up, then loads each target in turn (never concurrently: they would compete for the CPU)
 *   with autocannon running in this process;
 * - prints req/s, p50 and p99 per target, the /rankings to bare ratio and whether the goals are met.
 *
 * A benchmark, never a timed test: missed goals are reported, not failed. Error answers are failures
 * (exit code 1), because figures measured on errors mean nothing.
 *
 * Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_WARMUP_SECONDS (3),
 * BENCH_DATA_DIR (./.data/bench), BENCH_START_TIMEOUT_SECONDS (600), BENCH_TARGETS (comma-separated
 * names, default all), BENCH_LOG_LEVEL (warn), BENCH_SERVICE_NODE_ARGS (extra node flags for the
 * service, e.g. "--cpu-prof --cpu-prof-dir=./.data/prof"), DATABASE_URL. Flags: --json, --help.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { countDashboardStatements } from './dashboard-statements';
import { runAutocannon, type AutocannonInstance, type AutocannonResult } from './autocannon';

// ---------------------------------------------------------------------------------------------
// What to load. Add a row to extend the bench (e.g. /api/tv/live, a GraphQL POST).
// ---------------------------------------------------------------------------------------------

type ServerName = 'service' | 'bare';

interface Target {
  /** Shown in the table; BENCH_TARGETS selects by it. */
  name: string;
  server: ServerName;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Extra request headers (content-type of a POST body, ...). */
  headers?: Record<string, string>;
  /** Send the partner demo key (default: true on the service). */
  auth?: boolean;
  /** Send a studio session of the demo owner instead (GraphQL). */
  session?: boolean;
  /** Sanity check of the one preflight response: return a complaint, or undefined when fine. */
  check?: (body: string) => string | undefined;
}

const RANKINGS_PATH = '/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg';
const DASHBOARD_QUERY = `query($slug: String!) { channel(slug: $slug) { slug plan billingState liveSlots { used total }
  broadcasts(first: 50) { edges { node { id title state source health { signal bitrateKbps viewers warnings { code } } } } }
  apiKeys { id name prefix scopes }
  webhookEndpoints { id url enabled deliveries(first: 10) { id status attempts { attemptNo statusCode durationMs } } } } }`;
let sessionToken = '';
const BENCH_KEY = 'pk_demo_bench';

const dataArray = (min: number) => (body: string): string | undefined => {
  const parsed = JSON.parse(body) as { data?: unknown };
  if (!Array.isArray(parsed.data)) return 'the body has no "data" array';
  return parsed.data.length >= min ? undefined : `expected at least ${min} rows in "data", got ${parsed.data.length}`;
};

const TARGETS: readonly Target[] = [
  { name: '/rankings', server: 'service', path: RANKINGS_PATH, check: dataArray(1) },
  { name: '/fighters?q=son', server: 'service', path: '/api/v1/fighters?q=son', check: dataArray(2) },
  { name: '/results', server: 'service', path: '/api/v1/results?per_page=25', check: dataArray(1) },
  // Same bytes as /rankings, from a bare node:http server (the body is fetched at start-up).
  { name: 'bare node:http', server: 'bare', path: '/', auth: false },
  { name: '/api/tv/live', server: 'service', path: '/api/tv/live', auth: false, check: dataArray(1) },
  { name: '/api/tv/upcoming', server: 'service', path: '/api/tv/upcoming', auth: false, check: dataArray(1) },
  { name: 'graphql dashboard', server: 'service', path: '/graphql', method: 'POST', session: true, headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: DASHBOARD_QUERY, variables: { slug: 'demo-tv' } }), check: (b) => (JSON.parse(b).errors ? `errors: ${b.slice(0, 200)}` : undefined) },
  // Later: { name: 'graphql dashboard', server: 'service', path: '/graphql', method: 'POST', body: ..., headers: { 'content-type': 'application/json' } },
];

/** The ratio the issue asks for, and the goals. */
const RATIO = { of: '/rankings', to: 'bare node:http' } as const;
const GOALS = { minRatio: 0.5, maxP99Ms: 25, target: '/rankings' } as const;

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

const PROJECT_ROOT = resolve(__dirname, '..', '..');
const DIST = resolve(__dirname, '..');

function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

interface Settings {
  seconds: number;
  connections: number;
  warmupSeconds: number;
  startTimeoutSeconds: number;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  serviceNodeArgs: string[];
  only: Set<string> | undefined;
  json: boolean;
}

function readSettings(argv: string[]): Settings {
  const only = process.env.BENCH_TARGETS?.split(',').map((s) => s.trim()).filter(Boolean);
  return {
    seconds: intEnv('BENCH_SECONDS', 10),
    connections: intEnv('BENCH_CONNECTIONS', 32),
    warmupSeconds: intEnv('BENCH_WARMUP_SECONDS', 3, 0),
    startTimeoutSeconds: intEnv('BENCH_START_TIMEOUT_SECONDS', 600),
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.BENCH_DATA_DIR ? resolve(process.env.BENCH_DATA_DIR) : resolve(PROJECT_ROOT, '.data', 'bench'),
    logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
    serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    only: only?.length ? new Set(only) : undefined,
    json: argv.includes('--json'),
  };
}

const HELP = `npm run bench [-- --json]

Starts the service (DATABASE_URL, or the embedded database in BENCH_DATA_DIR, default ./.data/bench)
and a bare node:http server with the same /rankings bytes, then loads each target in turn.

  BENCH_SECONDS=10  BENCH_CONNECTIONS=32  BENCH_WARMUP_SECONDS=3  BENCH_START_TIMEOUT_SECONDS=600
  BENCH_TARGETS=/rankings,bare node:http   (default: all of ${TARGETS.map((t) => t.name).join(', ')})
  BENCH_LOG_LEVEL=warn   BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=./.data/prof"
  --json   print a JSON summary on stdout (the table then goes to stderr)
`;

/** Progress always goes to stderr; the results go to stdout (or stderr under --json). */
const log = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

const children = new Set<ChildProcess>();

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
  if (!alive(child)) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => {
      if (alive(child)) child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
  children.clear();
}

// Last resort (an exception escaping everything): never leave a service running behind us.
process.on('exit', () => {
  for (const c of children) if (alive(c)) c.kill('SIGKILL');
});

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => ok(port));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Service {
  child: ChildProcess;
  baseUrl: string;
  startSeconds: number;
}

async function startService(s: Settings): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV || 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: s.logLevel,
  };
  delete env.PUBLIC_URL;
  if (s.databaseUrl) {
    env.DATABASE_URL = s.databaseUrl;
    delete env.DATA_DIR;
  } else {
    delete env.DATABASE_URL;
    env.DATA_DIR = s.dataDir;
  }
  // The public TV limit (60 per minute per IP) would stop the load generator, which is one IP.
  env.TV_PUBLIC_PER_MINUTE = '1000000000';
  env.STUDIO_SESSION_PER_MINUTE = '1000000000';
  const child = spawn(process.execPath, [...s.serviceNodeArgs, resolve(DIST, 'main.js')], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);

  // Keep the last lines for a failure report; pass log lines (not the banner) through.
  const tail: string[] = [];
  const onLines = (stream: NodeJS.ReadableStream, forward: (line: string) => boolean) => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 40) tail.shift();
        if (forward(line)) log(`[service] ${line}`);
      }
    });
  };
  onLines(child.stdout!, (line) => line.startsWith('{'));
  onLines(child.stderr!, (line) => line.trim() !== '');

  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  let lastProgress = started;
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = signal ? `signal ${signal}` : `exit code ${code}`;
  });
  // The demo seed runs only on a database without partners, so a first start killed half-way leaves
  // a partial database that is never completed: the marker tells that case apart.
  const marker = resolve(s.dataDir, '.bench-ready');
  if (!s.databaseUrl && existsSync(resolve(s.dataDir, 'pgdata')) && !existsSync(marker)) {
    log(`warning: ${s.dataDir} exists but no bench run has finished starting on it; if an earlier first start (demo seed) was interrupted, delete the directory and run again`);
  }
  log(`starting the service on ${s.databaseUrl ? 'DATABASE_URL' : `the embedded database in ${s.dataDir}`} (port ${port})`);
  for (;;) {
    if (exited) {
      throw new Error(`the service stopped while starting (${exited}); its last output:\n  ${tail.join('\n  ')}`);
    }
    const elapsed = (Date.now() - started) / 1000;
    if (elapsed > s.startTimeoutSeconds) {
      throw new Error(`the service was not ready after ${s.startTimeoutSeconds} s (BENCH_START_TIMEOUT_SECONDS); its last output:\n  ${tail.join('\n  ')}`);
    }
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) {
        log(`service ready in ${elapsed.toFixed(1)} s`);
        if (!s.databaseUrl) writeFileSync(marker, `${new Date().toISOString()}\n`);
        return { child, baseUrl, startSeconds: elapsed };
      }
    } catch {
      // not listening yet (migrating or seeding)
    }
    if (Date.now() - lastProgress >= 10_000) {
      lastProgress = Date.now();
      log(`  still starting after ${Math.round(elapsed)} s (the first start on an empty database seeds the demo data${s.databaseUrl ? '' : ': about 95 s or more embedded'})`);
    }
    await sleep(250);
  }
}

async function startBare(body: string, contentType: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = fork(resolve(__dirname, 'bare-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const port = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('the bare server did not start within 10 s')), 10_000);
    child.once('message', (m: unknown) => {
      clearTimeout(timer);
      const p = (m as { port?: unknown }).port;
      if (typeof p === 'number' && p > 0) ok(p);
      else fail(new Error(`the bare server sent ${JSON.stringify(m)}`));
    });
    child.once('exit', (code) => fail(new Error(`the bare server exited (code ${code})`)));
    child.send({ body, contentType });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

// ---------------------------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------------------------

interface Row {
  name: string;
  url: string;
  bytes: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

let current: AutocannonInstance | undefined;
let interrupted = false;

function headersFor(t: Target): Record<string, string> {
  if (t.session) return { authorization: `Bearer ${sessionToken}`, ...t.headers };
  const auth = t.auth ?? t.server === 'service';
  return { ...(auth ? { authorization: `Bearer ${BENCH_KEY}` } : {}), ...t.headers };
}

/** Signs in as the demo studio owner (the README's credentials). */
async function studioLogin(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' }),
  });
  const body = (await res.json()) as { data?: { login: { token: string } }; errors?: unknown };
  if (!body.data) throw new Error(`studio login failed: ${JSON.stringify(body.errors)}`);
  return body.data.login.token;
}

/** One request, to check the target answers 2xx and something sensible before loading it. */
async function preflight(t: Target, url: string): Promise<{ body: string; contentType: string }> {
  const res = await fetch(url, { method: t.method ?? 'GET', headers: headersFor(t), body: t.body, signal: AbortSignal.timeout(30_000) });
  const body = await res.text();
  if (!res.ok) throw new Error(`${t.name}: ${t.method ?? 'GET'} ${url} answered ${res.status}: ${body.slice(0, 300)}`);
  const complaint = t.check?.(body);
  if (complaint) throw new Error(`${t.name}: ${complaint} (${url})`);
  return { body, contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8' };
}

function load(t: Target, url: string, seconds: number, connections: number): Promise<AutocannonResult> {
  return runAutocannon(
    { url, connections, duration: seconds, timeout: 10, method: t.method ?? 'GET', headers: headersFor(t), body: t.body, title: t.name },
    (instance) => (current = instance),
  ).finally(() => (current = undefined));
}

function toRow(t: Target, url: string, bytes: number, r: AutocannonResult): Row {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  return {
    name: t.name,
    url,
    bytes,
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function table(rows: Row[]): string {
  const head = ['target', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'body B'];
  const cells = rows.map((r) => [
    r.name,
    r.reqPerSec.toFixed(0),
    r.p50Ms.toFixed(0),
    r.p99Ms.toFixed(0),
    r.maxMs.toFixed(0),
    String(r.non2xx),
    r.timeouts ? `${r.errors} (${r.timeouts} timeouts)` : String(r.errors),
    String(r.bytes),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const fmt = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n');
}

interface Verdict {
  ratio: number | undefined;
  ratioMet: boolean | undefined;
  p99Ms: number | undefined;
  p99Met: boolean | undefined;
}

function verdict(rows: Row[]): Verdict {
  const of = rows.find((r) => r.name === RATIO.of);
  const to = rows.find((r) => r.name === RATIO.to);
  const goal = rows.find((r) => r.name === GOALS.target);
  const ratio = of && to && to.reqPerSec > 0 ? of.reqPerSec / to.reqPerSec : undefined;
  return {
    ratio,
    ratioMet: ratio === undefined ? undefined : ratio >= GOALS.minRatio,
    p99Ms: goal?.p99Ms,
    p99Met: goal ? goal.p99Ms < GOALS.maxP99Ms : undefined,
  };
}

const yesNo = (v: boolean | undefined) => (v === undefined ? 'n/a' : v ? 'met' : 'NOT met');

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const s = readSettings(argv);
  const targets = TARGETS.filter((t) => !s.only || s.only.has(t.name));
  if (s.only) {
    const unknown = [...s.only].filter((n) => !TARGETS.some((t) => t.name === n));
    if (unknown.length) throw new Error(`BENCH_TARGETS names unknown targets: ${unknown.join(', ')} (known: ${TARGETS.map((t) => t.name).join(', ')})`);
  }
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
  log(`bench: ${s.connections} connections, ${s.warmupSeconds} s warm-up + ${s.seconds} s per target, node ${process.version}, ${cpus().length} × ${cpuModel}`);

  const service = await startService(s);

  // The bare server answers the bytes /rankings answers now.
  const rankingsTarget = TARGETS.find((t) => t.path === RANKINGS_PATH)!;
  const sample = await preflight(rankingsTarget, service.baseUrl + RANKINGS_PATH);
  const bare = await startBare(sample.body, sample.contentType);
  log(`bare node:http server on ${bare.baseUrl} answering the ${Buffer.byteLength(sample.body)} bytes of /rankings (${sample.contentType})`);
  const bases: Record<ServerName, string> = { service: service.baseUrl, bare: bare.baseUrl };
  if (targets.some((t) => t.session)) sessionToken = await studioLogin(service.baseUrl);

  const rows: Row[] = [];
  for (const t of targets) {
    const url = bases[t.server] + t.path;
    const { body } = await preflight(t, url);
    if (s.warmupSeconds > 0) {
      log(`${t.name}: warming up ${s.warmupSeconds} s`);
      await load(t, url, s.warmupSeconds, s.connections);
      if (interrupted) return 130;
    }
    log(`${t.name}: measuring ${s.seconds} s at ${s.connections} connections (${url})`);
    const result = await load(t, url, s.seconds, s.connections);
    if (interrupted) return 130;
    const row = toRow(t, url, Buffer.byteLength(body), result);
    rows.push(row);
    log(`  ${row.reqPerSec.toFixed(0)} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${row.non2xx || row.errors ? `, ${row.non2xx} non-2xx ${JSON.stringify(row.statusCodes)}, ${row.errors} errors` : ''}`);
    await sleep(500);
  }

  const v = verdict(rows);
  const out = s.json ? process.stderr : process.stdout;
  const db = s.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite (${s.dataDir})`;
  const lines = [
    '',
    `${db}; ${s.connections} connections, ${s.seconds} s per target; ${cpus().length} CPUs; node ${process.version}`,
    '',
    table(rows),
    '',
  ];
  if (v.ratio !== undefined) {
    lines.push(`${RATIO.of} / ${RATIO.to}: ${(v.ratio * 100).toFixed(1)}% (goal >= ${GOALS.minRatio * 100}%: ${yesNo(v.ratioMet)})`);
  }
  if (v.p99Ms !== undefined) {
    lines.push(`${GOALS.target} p99: ${v.p99Ms} ms (goal < ${GOALS.maxP99Ms} ms at ${s.connections} connections: ${yesNo(v.p99Met)})`);
  }
  const failed = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failed) {
    lines.push(`ERROR: ${r.name} answered ${r.non2xx} non-2xx responses ${JSON.stringify(r.statusCodes)} and ${r.errors} connection errors (${r.timeouts} timeouts); its figures are not meaningful`);
  }
  if (targets.some((t) => t.session)) {
    const statements = await countDashboardStatements({ databaseUrl: s.databaseUrl, dataDir: s.dataDir, query: DASHBOARD_QUERY });
    lines.push(`graphql dashboard: ${statements} SQL statements per query (sign-in check and roles included)`);
  }
  out.write(lines.join('\n') + '\n');

  if (s.json) {
    const summary = {
      database: s.databaseUrl ? 'postgresql' : 'embedded',
      connections: s.connections,
      seconds: s.seconds,
      warmupSeconds: s.warmupSeconds,
      node: process.version,
      cpus: cpus().length,
      serviceStartSeconds: Number(service.startSeconds.toFixed(1)),
      targets: rows,
      ratio: { of: RATIO.of, to: RATIO.to, value: v.ratio ?? null, goal: GOALS.minRatio, met: v.ratioMet ?? null },
      p99: { target: GOALS.target, ms: v.p99Ms ?? null, goalMs: GOALS.maxP99Ms, met: v.p99Met ?? null },
      ok: failed.length === 0,
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  }
  return failed.length ? 1 : 0;
}

process.on('SIGINT', () => {
  if (interrupted) {
    for (const c of children) if (alive(c)) c.kill('SIGKILL');
    process.exit(130);
  }
  interrupted = true;
  log('interrupted: stopping the load and the servers (Ctrl-C again to kill them)');
  current?.stop();
  void stopAll().finally(() => process.exit(130));
});

main()
  .catch((err: unknown) => {
    log(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  })
  .then(async (code) => {
    if (interrupted) return;
    log('stopping the service and the bare server');
    await stopAll();
    process.exit(code);
  });
