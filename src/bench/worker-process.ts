import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A delivery worker as `npm run worker` runs it (dist/worker.js, or BENCH_WORKER_JS: another
 * build's worker, for an A/B comparison in the same minutes), on `databaseUrl`, loopback
 * receivers allowed. BENCH_WORKER_NODE_ARGS adds node options to the workers only (`--cpu-prof
 * --cpu-prof-dir=DIR`: one profile per worker, read with dist/bench/cpuprofile.js).
 */
export function startWorker(databaseUrl: string, env: Record<string, string> = {}): WorkerProcess {
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, process.env.BENCH_WORKER_JS ?? resolve(__dirname, '..', 'worker.js')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      WEBHOOKS_ALLOW_INSECURE: '1',
      WEBHOOKS_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '200',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Its log, read for the line that says it started; warnings and errors pass through.
  const ready = new Promise<void>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`the worker exited (${code}) before it started`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"webhook worker started"')) ok();
      else if (!line.includes('"level":30')) process.stdout.write(`${line}\n`);
    });
  });
  ready.catch(() => undefined);
  return Object.assign(child, { ready });
}

/** A worker process and the moment it has started (its loop running, its wake-up connection listening). */
export type WorkerProcess = ChildProcess & { ready: Promise<void> };

/** Stops the workers politely (SIGTERM: they finish what is in flight) and waits for them. */
export async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((ok) => {
          if (c.exitCode !== null) return ok();
          c.once('exit', () => ok());
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** The 1, 5 and 15 minute load averages, printed beside every figure (the machine may be shared). */
export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** CPU time (user + system, µs) a process has used so far, from /proc; null where there is no /proc or no such process. */
export function processCpuMicros(pid: number): number | null {
  try {
    // Fields after the command (which may hold spaces, so cut at its closing parenthesis): utime is the 14th field, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const CLOCK_TICKS = 100;
