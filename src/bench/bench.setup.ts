/** Settings and child processes of `npm run bench` (the service under test and the bare server). */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

/** An answer as it went over the wire: its bytes (encoded, if it was) and the headers that describe them. */
export interface SentBody {
  bytes: Buffer;
  contentType: string;
  contentEncoding: string | null;
  /**
   * Every header the service sent with these bytes (name, value, ...), but those Node writes on
   * any server's answer (Date, Connection, Keep-Alive): what a twin that sends the same bytes sends.
   */
  headers: string[];
}

/** What the bare twins send besides the body: the service's own headers, or only the body's. */
export type BareHeaders = 'service' | 'body';

const PROJECT_ROOT = resolve(__dirname, '..', '..');
const DIST = resolve(__dirname, '..');

export function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

export interface Settings {
  seconds: number;
  /** A partner target and its bare twin are measured in this many alternating rounds (medians kept). */
  rounds: number;
  connections: number;
  warmupSeconds: number;
  startTimeoutSeconds: number;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  /** Where the service's log (the access log at info) is written: a file, or /dev/null. */
  logFile: string;
  serviceNodeArgs: string[];
  only: Set<string> | undefined;
  json: boolean;
  scale: boolean;
  /** Crawls instead of the hot targets: every profile and every results page once (wrk, a database URL). */
  crawl: boolean;
  /** The Accept-Encoding every request sends: gzip as partner HTTP clients do, or identity. */
  acceptEncoding: string;
  /** The headers of the bare twins (--bare-headers). */
  bareHeaders: BareHeaders;
}

export function readSettings(argv: string[]): Settings {
  const only = (flagValue(argv, '--only') ?? process.env.BENCH_TARGETS)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    seconds: intEnv('BENCH_SECONDS', 10),
    rounds: intEnv('BENCH_ROUNDS', 3),
    connections: intEnv('BENCH_CONNECTIONS', 32),
    warmupSeconds: intEnv('BENCH_WARMUP_SECONDS', 3, 0),
    startTimeoutSeconds: intEnv('BENCH_START_TIMEOUT_SECONDS', 600),
    databaseUrl: flagValue(argv, '--database-url') ?? (process.env.DATABASE_URL || undefined),
    dataDir: process.env.BENCH_DATA_DIR ? resolve(process.env.BENCH_DATA_DIR) : resolve(PROJECT_ROOT, '.data', 'bench'),
    logLevel: process.env.BENCH_LOG_LEVEL || 'info',
    logFile: process.env.BENCH_LOG_FILE || '/dev/null',
    serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    only: only?.length ? new Set(only) : undefined,
    json: argv.includes('--json'),
    scale: argv.includes('--scale'),
    crawl: argv.includes('--crawl'),
    acceptEncoding: flagValue(argv, '--accept-encoding') ?? process.env.BENCH_ACCEPT_ENCODING ?? 'gzip',
    bareHeaders: bareHeadersOf(flagValue(argv, '--bare-headers') ?? process.env.BENCH_BARE_HEADERS ?? 'service'),
  };
}

function bareHeadersOf(value: string): BareHeaders {
  if (value === 'service' || value === 'body') return value;
  throw new Error(`--bare-headers (BENCH_BARE_HEADERS) is service or body, not "${value}"`);
}

function flagValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

export const HELP = `npm run bench [-- --json] [--database-url URL] [--only NAME,NAME] [--scale] [--crawl] [--accept-encoding gzip|identity] [--bare-headers service|body]

Starts the service (DATABASE_URL, or the embedded database in BENCH_DATA_DIR, default ./.data/bench)
and a bare node:http server with the same /rankings bytes, then loads each target in turn.

  BENCH_SECONDS=10  BENCH_CONNECTIONS=32  BENCH_WARMUP_SECONDS=3  BENCH_START_TIMEOUT_SECONDS=600
  BENCH_ROUNDS=3   (a partner target and its bare twin alternate in this many rounds sharing
                    BENCH_SECONDS each; the medians are reported, so that a slow moment of the
                    machine hits both sides rather than one)
  BENCH_TARGETS=/rankings,bare node:http   (default: all; names as in the table)
  BENCH_LOAD=wrk|autocannon   (default: wrk where /usr/bin/wrk is installed)
  BENCH_LOG_LEVEL=info  BENCH_LOG_FILE=/dev/null   (the service runs as in production: NODE_ENV=production,
                    every request in the access log, written to this file)
  BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=./.data/prof"
  BENCH_SERVICE_DIST=../old/dist   (measure another build of the service, e.g. the code before a change)
  --json   print a JSON summary on stdout (the table then goes to stderr)
  --database-url URL   bench against this database (instead of DATABASE_URL)
  --only /me,/rankings   only these targets (as BENCH_TARGETS; names as in the table)
  --attack  instead: 64 connections on /rankings while /graphql is attacked (fragment fan-out, aliases)
            and unknown keys flood in; prints the legitimate p50/p99 (same as npm run bench:attack)
  --scale   the database holds the scale data set (seed it first: npm run admin -- demo:seed --fighters 100000);
            the service does not seed, and the run is labelled as a scale run
  --crawl   instead of the repeated targets, the cold path: a partner crawling every fighter profile, then every
            page of the results feed (25 a page), each URL once, read from the database into a file that wrk's
            Lua walks (the warm-up and each round take URLs of their own; a round that runs out repeats
            some, and the table says how many); beside the bare server answering a crawled answer's bytes.
            Needs wrk and a database URL; with --scale, the 100k data set
  --accept-encoding E   what every request accepts (BENCH_ACCEPT_ENCODING; default gzip, as partner HTTP
            clients send; identity for uncompressed answers); the bare server answers the same bytes
  --bare-headers H   what the bare twins send with the body (BENCH_BARE_HEADERS): service (default) every
            header the service sent with it (request id, rate-limit headers, ETag, Vary, Cache-Control
            with their values as sent once), so twin and service send the same bytes; body only the
            body's own (Content-Type, Content-Encoding, Content-Length), as the bench did before
`;

/** Progress always goes to stderr; the results go to stdout (or stderr under --json). */
export const log = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

export const children = new Set<ChildProcess>();

export function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
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

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
  children.clear();
}

// Last resort (an exception escaping everything): never leave a service running behind us.
process.on('exit', () => {
  for (const c of children) if (alive(c)) c.kill('SIGKILL');
});

export function freePort(): Promise<number> {
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

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Service {
  child: ChildProcess;
  baseUrl: string;
  startSeconds: number;
}

export async function startService(s: Settings): Promise<Service> {
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
  if (s.scale) env.SEED_DEMO = '0';
  env.STUDIO_SESSION_PER_MINUTE = '1000000000';
  // The log goes where production sends it (a file), not through a pipe this process would read.
  const logFd = openSync(s.logFile, 'a');
  // BENCH_SERVICE_DIST: another build of the service (the code before a change), measured by this bench
  const dist = process.env.BENCH_SERVICE_DIST ? resolve(process.env.BENCH_SERVICE_DIST) : DIST;
  const child = spawn(process.execPath, [...s.serviceNodeArgs, resolve(dist, 'main.js')], {
    cwd: resolve(dist, '..'),
    env,
    stdio: ['ignore', logFd, 'pipe'],
  });
  closeSync(logFd);
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
    log(
      `warning: ${s.dataDir} exists but no bench run has finished starting on it; if an earlier first start (demo seed) was interrupted, delete the directory and run again`,
    );
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
      log(
        `  still starting after ${Math.round(elapsed)} s (the first start on an empty database seeds the demo data${s.databaseUrl ? '' : ': about 95 s or more embedded'})`,
      );
    }
    await sleep(250);
  }
}

export async function startBare(
  sample: SentBody,
  bodies: Record<string, SentBody> = {},
  bareHeaders: BareHeaders = 'service',
): Promise<{ child: ChildProcess; baseUrl: string }> {
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
    const wire = (b: SentBody) => ({
      body: b.bytes.toString('base64'),
      contentType: b.contentType,
      contentEncoding: b.contentEncoding,
      ...(bareHeaders === 'service' ? { headers: b.headers } : {}),
    });
    child.send({ ...wire(sample), bodies: Object.fromEntries(Object.entries(bodies).map(([k, b]) => [k, wire(b)])) });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}
