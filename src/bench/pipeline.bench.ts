/**
 * `node dist/bench/pipeline.bench.js [--dist DIR]`: the CPU time the service's own code spends
 * on a repeated partner read, without the network or Node's HTTP machinery: the request handler
 * (`createHttpHandler`, as main.ts serves it) is called with an in-memory request and response,
 * N times per path, once its answer is kept, and the process's CPU time is divided by N. On a
 * machine shared with other work this moves far less than req/s. `--dist DIR` measures another
 * build (the code before a change) against the same database.
 *
 * Needs DATABASE_URL on a database seeded with the demo data (`npm run bench` seeds one), and
 * logs at info through the production destination (the batched log stream) into /dev/null, so the
 * access log's cost is in as production pays it. The public TV limit is lifted, as `npm run bench`
 * does, so that /api/tv/live measures its answer, not a 429. BENCH_PATHS (comma-separated
 * prefixes, e.g. `/api/v1/me,/api/v1/rankings`) measures only those paths.
 *
 * `--crawl profiles|results`: instead, the cold path. Distinct URLs, never kept before (every
 * fighter profile in a fixed shuffled order, or every page of the results feed), BENCH_CALLS of
 * them (after a fifth as many others to warm the JIT), 32 in flight as a crawler's connections
 * would be: the CPU time per answer of the service's code and its database client, and apart,
 * PostgreSQL's: the CPU time of the server processes connected to the bench's database (from
 * /proc, so on a PostgreSQL of this machine; other work on other databases is not counted).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { openSync } from 'node:fs';
import { CRAWL_KINDS, crawlPaths, type CrawlKind } from './crawl';

const N = Number(process.env.BENCH_CALLS ?? 50_000);
const KEY = 'pk_demo_bench';
const PER_TURN = 32;

async function main(): Promise<void> {
  const i = process.argv.indexOf('--dist');
  const dist = i > 0 ? resolve(process.argv[i + 1]) : resolve(__dirname, '..');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { loadConfig } = require(`${dist}/config/config`);
  const { openDatabase } = require(`${dist}/db/database`);
  // builds before the entity registry moved to the composition root list it in db/ themselves
  const { entities } = (() => {
    try {
      return require(`${dist}/entities`);
    } catch {
      return {};
    }
  })();
  const { createChangeFeed } = require(`${dist}/db/listen-change-feed`);
  const { createContainer } = require(`${dist}/container`);
  const { createHttpHandler } = require(`${dist}/app`);
  const { createLogger } = require(`${dist}/lib/logger`);
  const { BufferedLogStream } = require(`${dist}/lib/log-stream`);
  /* eslint-enable @typescript-eslint/no-require-imports */
  // the destination production logs through, writing into /dev/null
  const logger = createLogger('info', new BufferedLogStream(openSync('/dev/null', 'w')));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    SEED_DEMO: '0',
    WEBHOOK_WORKER: 'off',
    TV_PUBLIC_PER_MINUTE: '1000000000',
  });
  const db = await openDatabase(config, { entities, migrate: false });
  const changes = await createChangeFeed(db, logger);
  const c = createContainer(config, db.orm, { logger, changes });
  const handler = createHttpHandler(c);

  const crawlAt = process.argv.indexOf('--crawl');
  if (crawlAt > 0) {
    await crawl(process.argv[crawlAt + 1], db.orm, handler, dist);
    await c.close();
    await db.close();
    return;
  }

  let answered = 0;
  const request = (path: string, encoding: string, done: (status: number, body: Buffer | undefined) => void) => {
    const req = {
      url: path,
      method: 'GET',
      headers: { authorization: `Bearer ${KEY}`, 'accept-encoding': encoding, host: 'bench' },
      socket: { remoteAddress: '127.0.0.1' },
    };
    const res = {
      statusCode: 200,
      headersSent: false,
      writeHead(status: number) {
        this.statusCode = status;
      },
      end(body?: Buffer) {
        answered++;
        done(this.statusCode, body);
      },
      getHeader: () => undefined,
      setHeader: () => undefined,
      on: () => res,
      once: () => res,
      destroy: () => undefined,
    };
    handler(req, res);
  };
  const call = (path: string, encoding = 'gzip') =>
    new Promise<{ status: number; body?: Buffer }>((done) => request(path, encoding, (status, body) => done({ status, body })));

  const ranking = await call('/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg', 'identity');
  const fighter = (JSON.parse(String(ranking.body)) as { data: Array<{ fighter: { slug: string } }> }).data[0].fighter.slug;
  const licensed = await call('/api/v1/fighters?status=licensed&per_page=1', 'identity');
  const code = (JSON.parse(String(licensed.body)) as { data: Array<{ fighter_code: string }> }).data[0].fighter_code;
  const only = (process.env.BENCH_PATHS ?? '').split(',').filter(Boolean);
  const paths = [
    '/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg',
    `/api/v1/fighters/${fighter}`,
    '/api/v1/results?per_page=2',
    `/api/v1/verify/${code}`,
    '/api/v1/me',
    '/api/tv/live',
  ].filter((p) => !only.length || only.some((o) => p.startsWith(o)));
  console.log(
    `${dist}: ${N} calls per path, CPU µs per request (user + system), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const path of paths) {
    for (let k = 0; k < 3; k++) if ((await call(path)).status !== 200) throw new Error(`${path} did not answer 200`);
    await c.keys.flush();
    await call(path);
    let refused = 0;
    // 32 requests a turn of the event loop, as 32 connections bring them: timers, refreshes and
    // the log's writes run between turns as they do under load (one turn of N requests would
    // keep a refresh from ever landing, and measure the awaited path instead)
    const loop = async (n: number) => {
      answered = 0;
      for (let k = 0; k < n; ) {
        for (const end = Math.min(n, k + PER_TURN); k < end; k++)
          request(path, 'gzip', (status) => {
            if (status !== 200) refused++;
          });
        await new Promise((r) => setImmediate(r));
      }
      while (answered < n) await new Promise((r) => setImmediate(r));
    };
    await loop(N / 5); // warm-up: the JIT, then the figures
    const before = process.cpuUsage();
    // a kept answer is sent synchronously, so the loop itself does the work; anything else is awaited
    await loop(N);
    const used = process.cpuUsage(before);
    // figures measured on refusals (a 429) would mean nothing
    if (refused) throw new Error(`${path}: ${refused} answers were not 200`);
    console.log(`  ${path.split('?')[0].padEnd(28)} ${((used.user + used.system) / N).toFixed(1)}`);
  }
  await c.close();
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});

type Handler = (req: unknown, res: unknown) => void;

/** Answers `path` through the handler with an in-memory request; resolves with the status. */
function callOnce(handler: Handler, path: string): Promise<number> {
  return new Promise((done) => {
    const req = {
      url: path,
      method: 'GET',
      headers: { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip', host: 'bench' },
      socket: { remoteAddress: '127.0.0.1' },
    };
    const res = {
      statusCode: 200,
      headersSent: false,
      writeHead(status: number) {
        this.statusCode = status;
      },
      end() {
        done(this.statusCode);
      },
      getHeader: () => undefined,
      setHeader: () => undefined,
      on: () => res,
      once: () => res,
      destroy: () => undefined,
    };
    handler(req, res);
  });
}

async function crawl(
  kind: string,
  orm: { em: { getConnection(): { execute(sql: string): Promise<Array<Record<string, unknown>>> } } },
  handler: Handler,
  dist: string,
): Promise<void> {
  if (!CRAWL_KINDS.includes(kind as CrawlKind)) throw new Error(`--crawl takes ${CRAWL_KINDS.join(' or ')}, got "${kind}"`);
  const all = await crawlPaths(kind as CrawlKind, (sql) => orm.em.getConnection().execute(sql));
  const warm = Math.min(Math.floor(N / 5), Math.floor(all.length / 6));
  const n = Math.min(N, all.length - warm);
  const run = async (paths: string[]) => {
    let next = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (next < paths.length) {
        const status = await callOnce(handler, paths[next++]);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    return statuses;
  };
  await run(all.slice(0, warm));
  const backends = (
    await orm.em.getConnection().execute(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)
  ).map((r) => Number(r.pid));
  const pgBefore = backendCpuMs(backends);
  const before = process.cpuUsage();
  const started = process.hrtime.bigint();
  const statuses = await run(all.slice(warm, warm + n));
  const used = process.cpuUsage(before);
  const pgAfter = backendCpuMs(backends);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const bad = [...statuses].filter(([status]) => status !== 200);
  if (bad.length) throw new Error(`the crawl answered ${JSON.stringify(Object.fromEntries(bad))}`);
  console.log(
    `${dist}: --crawl ${kind}, ${n} distinct URLs (of ${all.length}) after ${warm} others, 32 in flight, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `  CPU µs per answer (user + system, this process): ${((used.user + used.system) / n).toFixed(1)}; ${(n / seconds).toFixed(0)} answers/s in this process`,
  );
  if (pgBefore !== null && pgAfter !== null) {
    console.log(`  PostgreSQL CPU µs per answer (${backends.length} server processes of this database): ${(((pgAfter - pgBefore) * 1000) / n).toFixed(1)}`);
  }
}

/** The CPU time (user + system, ms) the processes `pids` have used, from /proc; null where /proc cannot tell (another machine). */
function backendCpuMs(pids: number[]): number | null {
  let ms = 0;
  for (const pid of pids) {
    try {
      // after the command name in parentheses: fields 3.., of which utime and stime are the 14th and 15th (clock ticks of 10 ms)
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return null;
    }
  }
  return ms;
}
