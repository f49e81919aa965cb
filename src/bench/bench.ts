/**
 * `npm run bench`: throughput and latency of the partner API next to a bare node:http server.
 *
 * - starts the service (dist/main.js) as a child process: on DATABASE_URL when it is set, otherwise
 *   on the embedded PGlite in a bench-only DATA_DIR (BENCH_DATA_DIR, default ./.data/bench), so the
 *   user's demo data is never touched; the first start on an empty directory seeds the demo data;
 * - fetches one /api/v1/rankings body and forks a bare node:http server answering exactly those
 *   bytes with the same content type (the ceiling for that response on this machine);
 * - finds real subjects (a fighter, a fighter ID, an event with results) through the API;
 * - warms up, then loads each target in turn (never concurrently: they would compete for the CPU)
 *   with autocannon running in this process: every partner GET, the TV schedules, the studio
 *   dashboard, and the bare server in the same run;
 * - counts SQL statements per request of every target in this process (warm and cold caches);
 * - measures each partner GET and the bare server answering its very bytes in alternating rounds
 *   (BENCH_ROUNDS, 3 by default, sharing BENCH_SECONDS) and keeps the medians;
 * - prints req/s, p50, p99, the ratio to bare and the statements per target, and whether every
 *   partner GET meets the goals (bench.targets.ts).
 *
 * `--crawl` loads the cold path instead: every fighter profile, then every page of the results
 * feed, each URL once (crawl.ts writes them to a file that wrk's Lua walks), beside the bare server.
 *
 * A benchmark, never a timed test: missed goals are reported, not failed. Error answers are failures
 * (exit code 1), because figures measured on errors mean nothing.
 *
 * Every request sends Accept-Encoding: gzip (as partner HTTP clients do) unless --accept-encoding
 * says otherwise; the bare server answers the very bytes the service sent, encoding included, and
 * with every header the service sent beside them (`--bare-headers body`: the body's own only).
 *
 * Environment: BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_CONNECTIONS (32), BENCH_WARMUP_SECONDS (3),
 * BENCH_DATA_DIR (./.data/bench), BENCH_START_TIMEOUT_SECONDS (600), BENCH_TARGETS or --only (comma-separated
 * names, default all), BENCH_LOAD (wrk where installed, else autocannon), BENCH_LOG_LEVEL (info) and BENCH_LOG_FILE
 * (/dev/null): the service runs as production does, its access log written to that file; BENCH_SERVICE_NODE_ARGS (extra node flags for the
 * service, e.g. "--cpu-prof --cpu-prof-dir=./.data/prof"), DATABASE_URL. Flags: --json, --help.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { loadavg } from 'node:os';
import { loadGenerator, runLoad, stopLoad, type CrawlSlice, type LoadGenerator, type LoadResult } from './load';
import { CRAWL_KINDS, writeCrawlFile, type CrawlKind } from './crawl';
import { table, verdictLines, type Row } from './bench.report';
import { benchTargets, crawlTargets, findSubjects, RANKINGS_PATH, type ServerName, type Target } from './bench.targets';
import { countStatements } from './statements';
import { alive, children, HELP, log, readSettings, sleep, startBare, startService, stopAll, type SentBody } from './bench.setup';
import { median } from './median';

let sessionToken = '';
const BENCH_KEY = 'pk_demo_bench';

// ---------------------------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------------------------

let interrupted = false;
let generator: LoadGenerator = 'autocannon';
/** The 1-minute load average at each measurement, for the noise report. */
const loads: number[] = [];

let acceptEncoding = 'gzip';

function headersFor(t: Target): Record<string, string> {
  const common = { 'accept-encoding': acceptEncoding };
  if (t.session) return { ...common, authorization: `Bearer ${sessionToken}`, ...t.headers };
  const auth = t.auth ?? t.server === 'service';
  return { ...common, ...(auth ? { authorization: `Bearer ${BENCH_KEY}` } : {}), ...t.headers };
}

/** Signs in as the demo studio owner (the README's credentials). */
async function studioLogin(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' }),
  });
  const body = (await res.json()) as { data?: { login: { token: string } }; errors?: unknown };
  if (!body.data) throw new Error(`studio login failed: ${JSON.stringify(body.errors)}`);
  return body.data.login.token;
}

/** Headers Node's http server writes on every answer, the bare server's as well as the service's. */
const NODE_WRITES = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * One request, to check the target answers 2xx and something sensible before loading it; returns
 * the bytes as sent (undici's request does not decode them, unlike fetch).
 */
async function preflight(t: Target, url: string): Promise<SentBody> {
  const res = await request(url, { method: t.method ?? 'GET', headers: headersFor(t), body: t.body, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const header = (name: string) => {
    const v = res.headers[name];
    return Array.isArray(v) ? v.join(', ') : (v ?? null);
  };
  const contentEncoding = header('content-encoding');
  const body = (contentEncoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${t.name}: ${t.method ?? 'GET'} ${url} answered ${res.statusCode}: ${body.slice(0, 300)}`);
  const complaint = t.check?.(body);
  if (complaint) throw new Error(`${t.name}: ${complaint} (${url})`);
  const headers = Object.entries(res.headers).flatMap(([name, value]) =>
    NODE_WRITES.has(name) || value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((v) => [name, v]),
  );
  return { bytes, contentType: header('content-type') ?? 'application/json; charset=utf-8', contentEncoding, headers };
}

/**
 * One load run; with the server's pid, also the CPU time it spent per request (from /proc): on a
 * machine shared with other work, CPU per request moves much less than requests per second.
 */
async function load(
  t: Target,
  url: string,
  seconds: number,
  connections: number,
  pid?: number,
  crawl?: CrawlSlice,
): Promise<LoadResult & { cpuUsPerReq?: number }> {
  loads.push(loadavg()[0]);
  const before = cpuMs(pid);
  const r = await runLoad(generator, {
    url,
    connections,
    duration: seconds,
    timeout: 10,
    method: t.method ?? 'GET',
    headers: headersFor(t),
    body: t.body,
    title: t.name,
    crawl,
  });
  const after = cpuMs(pid);
  return before === null || after === null || !r.requests ? r : { ...r, cpuUsPerReq: ((after - before) * 1000) / r.requests };
}

/** User and system CPU time of a process in ms (Linux /proc), or null. */
function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s
  } catch {
    return null;
  }
}

function toRow(t: Target & { partner: boolean }, url: string, bytes: number, r: LoadResult & { cpuUsPerReq?: number }): Row {
  return { name: t.name, url, bytes, ...r, partner: t.partner };
}

/** One row of several rounds: the median of each figure, the sums of the counts. */
function medianRow(rounds: Row[]): Row {
  const sum = (f: (r: Row) => number) => rounds.reduce((n, r) => n + f(r), 0);
  const statusCodes: Record<string, number> = {};
  for (const r of rounds) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    ...rounds[0],
    reqPerSec: median(rounds.map((r) => r.reqPerSec)),
    cpuUsPerReq: undefined,
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    maxMs: Math.max(...rounds.map((r) => r.maxMs)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    ...(rounds.some((r) => r.repeats !== undefined) ? { repeats: sum((r) => r.repeats ?? 0) } : {}),
  };
}

function describe(row: Row): string {
  return `${row.reqPerSec.toFixed(0)} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${row.non2xx || row.errors ? `, ${row.non2xx} non-2xx ${JSON.stringify(row.statusCodes)}, ${row.errors} errors` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  if (argv.includes('--attack')) {
    // The hardening scenario (attack.bench.ts): legitimate /rankings load while /graphql is attacked
    // and unknown keys flood in. It runs on import and exits the process itself.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('./attack.bench');
    return new Promise<number>(() => undefined);
  }
  const s = readSettings(argv);
  acceptEncoding = s.acceptEncoding;
  generator = loadGenerator();
  if (s.scale && !s.databaseUrl) throw new Error('--scale needs a prepared database: --database-url URL (or DATABASE_URL)');
  if (s.crawl && !s.databaseUrl) throw new Error('--crawl reads its URLs from the database: --database-url URL (or DATABASE_URL)');
  if (s.crawl && generator !== 'wrk') throw new Error('--crawl needs wrk (/usr/bin/wrk, BENCH_LOAD=wrk)');
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
  log(
    `bench: ${generator}, ${s.connections} connections, ${s.warmupSeconds} s warm-up + ${s.seconds} s per target, Accept-Encoding: ${s.acceptEncoding}, service NODE_ENV=production LOG_LEVEL=${s.logLevel} (log to ${s.logFile}), node ${process.version}, ${cpus().length} × ${cpuModel}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const service = await startService(s);

  // The bare server answers the bytes /rankings answers now.
  const sample = await preflight({ name: '/rankings', server: 'service', path: RANKINGS_PATH }, service.baseUrl + RANKINGS_PATH);
  // --crawl: every profile and every page of the feed once, from files of their URLs
  const crawlFiles = new Map<CrawlKind, { file: string; count: number }>();
  if (s.crawl) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-crawl-'));
    for (const kind of CRAWL_KINDS) {
      const file = join(dir, `${kind}.txt`);
      const paths = await writeCrawlFile(kind, s.databaseUrl!, file);
      crawlFiles.set(kind, { file, count: paths.length });
      log(`crawl ${kind}: ${paths.length} distinct URLs (${file})`);
    }
  }
  const firstPath = (kind: CrawlKind) => readFileSync(crawlFiles.get(kind)!.file, 'utf8').split('\n', 1)[0];
  const all = s.crawl
    ? crawlTargets({ profiles: firstPath('profiles'), results: firstPath('results') })
    : benchTargets(await findSubjects(service.baseUrl, BENCH_KEY));
  const targets = all.filter((t) => !s.only || s.only.has(t.name));
  if (s.only) {
    const unknown = [...s.only].filter((n) => !all.some((t) => t.name === n));
    if (unknown.length) throw new Error(`--only (BENCH_TARGETS) names unknown targets: ${unknown.join(', ')} (known: ${all.map((t) => t.name).join(', ')})`);
  }
  if (targets.some((t) => t.session)) sessionToken = await studioLogin(service.baseUrl);
  // Every partner answer once, so that a bare server can answer the very same bytes beside it.
  const same: Record<string, SentBody> = {};
  for (const [i, t] of targets.entries()) if (t.partner) same[`/same/${i}`] = await preflight(t, service.baseUrl + t.path);
  const bare = await startBare(sample, same, s.bareHeaders);
  log(
    `bare node:http server on ${bare.baseUrl} answering the ${sample.bytes.length} bytes of /rankings (${sample.contentType}${sample.contentEncoding ? `, ${sample.contentEncoding}` : ''}), and each partner answer under /same/N, ` +
      (s.bareHeaders === 'service' ? "with the service's headers as it sent them" : "with the body's headers only"),
  );
  const bases: Record<ServerName, string> = { service: service.baseUrl, bare: bare.baseUrl };

  const rows: Row[] = [];
  for (const [i, t] of targets.entries()) {
    const url = bases[t.server] + t.path;
    const { bytes } = await preflight(t, url);
    // A crawl's URLs: a tenth for the warm-up (its first was the preflight), the rest shared by the rounds.
    const crawl = t.crawl ? crawlFiles.get(t.crawl)! : undefined;
    const warmCount = crawl ? Math.max(1, Math.floor(crawl.count / 10)) : 0;
    const slice = (round: number): CrawlSlice | undefined => {
      if (!crawl) return undefined;
      if (round === 0) return { file: crawl.file, start: 0, count: warmCount };
      const per = Math.max(1, Math.floor((crawl.count - warmCount) / s.rounds));
      return { file: crawl.file, start: warmCount + (round - 1) * per, count: per };
    };
    if (s.warmupSeconds > 0) {
      log(`${t.name}: warming up ${s.warmupSeconds} s`);
      await load(t, url, s.warmupSeconds, s.connections, undefined, slice(0));
      if (interrupted) return 130;
    }
    if (!t.partner) {
      log(`${t.name}: measuring ${s.seconds} s at ${s.connections} connections (${url})`);
      const result = await load(t, url, s.seconds, s.connections, t.server === 'service' ? service.child.pid : bare.child.pid);
      if (interrupted) return 130;
      const row = toRow(t, url, bytes.length, result);
      rows.push(row);
      log(`  ${describe(row)}`);
      await sleep(500);
      continue;
    }
    // A partner target and the bare server answering its very bytes, alternating: a slow moment of
    // the machine then falls on both sides, and the medians leave out the odd round.
    const twin = { name: `${t.name} (bare, same bytes)`, server: 'bare' as const, path: `/same/${i}`, auth: false };
    const seconds = s.seconds / s.rounds;
    const own: Row[] = [];
    const bareRuns: Array<LoadResult & { cpuUsPerReq?: number }> = [];
    for (let round = 1; round <= s.rounds; round++) {
      log(`${t.name}: round ${round}/${s.rounds}, ${seconds.toFixed(1)} s at ${s.connections} connections (${url}), then its bare twin`);
      own.push(toRow(t, url, bytes.length, await load(t, url, seconds, s.connections, service.child.pid, slice(round))));
      if (interrupted) return 130;
      await sleep(300);
      bareRuns.push(await load(twin, bare.baseUrl + twin.path, seconds, s.connections, bare.child.pid));
      if (interrupted) return 130;
      await sleep(300);
    }
    const row = medianRow(own);
    row.bareSameBytes = median(bareRuns.map((r) => r.reqPerSec));
    row.bareSameBytesP99 = median(bareRuns.map((r) => r.p99Ms));
    const cpu = (runs: Array<{ cpuUsPerReq?: number }>) =>
      runs.every((r) => r.cpuUsPerReq !== undefined) ? median(runs.map((r) => r.cpuUsPerReq!)) : undefined;
    row.cpuUsPerReq = cpu(own);
    row.bareCpuUsPerReq = cpu(bareRuns);
    rows.push(row);
    log(
      `  ${describe(row)}; bare twin ${row.bareSameBytes.toFixed(0)} req/s, p99 ${row.bareSameBytesP99} ms${row.repeats ? `; ${row.repeats} requests repeated a URL (the crawl's URLs ran out)` : ''}`,
    );
  }

  const rssMb = residentMb(service.child.pid);
  log('counting SQL statements per request (in this process)');
  const counted = targets.filter((t) => t.server === 'service');
  const statements = await countStatements({
    databaseUrl: s.databaseUrl,
    dataDir: s.dataDir,
    requests: counted.map((t) => ({
      name: t.name,
      path: t.path,
      method: t.method,
      body: t.body,
      session: t.session,
      headers: { ...t.headers, ...((t.auth ?? true) && !t.session ? { authorization: `Bearer ${BENCH_KEY}` } : {}) },
    })),
  });
  for (const r of rows) r.statements = statements.get(r.name);

  const out = s.json ? process.stderr : process.stdout;
  const db = s.databaseUrl ? `PostgreSQL (${s.scale ? 'scale data set' : 'DATABASE_URL'})` : `embedded PGlite (${s.dataDir})`;
  const lines = [
    '',
    `${db}; ${generator}, ${s.connections} connections, ${s.seconds} s per target (partner GETs: ${s.rounds} rounds alternating with their bare twin, medians; twins send ${s.bareHeaders === 'service' ? "the service's headers" : "the body's headers only"}); Accept-Encoding: ${s.acceptEncoding}; service LOG_LEVEL=${s.logLevel} to ${s.logFile}; ${cpus().length} CPUs; node ${process.version}`,
    `load average (1 min) while measuring: ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}, median ${median(loads).toFixed(2)}`,
    '',
    table(rows),
    '',
    ...verdictLines(rows, s.connections),
    ...(rssMb === null ? [] : [`service resident memory after the load: ${rssMb} MB`]),
  ];
  for (const r of rows.filter((x) => x.repeats)) {
    lines.push(
      `note: ${r.name}: ${r.repeats} of ${r.requests} requests repeated a URL of the crawl (kept answers, not cold reads): more URLs or shorter rounds would measure only cold reads`,
    );
  }
  const failed = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failed) {
    lines.push(
      `ERROR: ${r.name} answered ${r.non2xx} non-2xx responses ${JSON.stringify(r.statusCodes)} and ${r.errors} connection errors (${r.timeouts} timeouts); its figures are not meaningful`,
    );
  }
  out.write(`${lines.join('\n')}\n`);

  if (s.json) {
    const summary = {
      database: s.databaseUrl ? 'postgresql' : 'embedded',
      scale: s.scale,
      crawl: s.crawl,
      loadGenerator: generator,
      logLevel: s.logLevel,
      loadAverage: { min: Math.min(...loads), max: Math.max(...loads), median: median(loads) },
      acceptEncoding: s.acceptEncoding,
      connections: s.connections,
      seconds: s.seconds,
      rounds: s.rounds,
      warmupSeconds: s.warmupSeconds,
      node: process.version,
      cpus: cpus().length,
      serviceStartSeconds: Number(service.startSeconds.toFixed(1)),
      serviceRssMb: rssMb,
      targets: rows,
      ok: failed.length === 0,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
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
  stopLoad();
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

/** The resident memory of a process in MB, where /proc tells it (Linux), else null. */
function residentMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}
