import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
let dataDir: string;
let port: number;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** npm start in a developer's terminal: the embedded database in a fresh DATA_DIR, demo seeded. */
function start(): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: '1', LOG_LEVEL: 'info', WEBHOOK_WORKER: 'off' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'src/main.ts')], { cwd: ROOT, env });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: 'Bearer pk_demo_full' } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

/** Polls until `done` holds; gives up (with the server's output) when the process exits. */
async function until(server: { child: ChildProcess; output: () => string }, done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) {
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-seed-kill-'));
  port = await freePort();
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a first start killed while it seeds the demo data', () => {
  it('is redone cleanly on the next start: the demo is whole, /divisions filled, /readyz 200', async () => {
    const first = start();
    try {
      // Listening before seeding: /healthz reports the seed; kill it once fighters are written.
      await until(first, async () => {
        const health = await get('/healthz');
        const phase = (health?.body.seeding as { phase?: string } | undefined)?.phase;
        return phase === 'events' || phase === 'bouts';
      });
      expect((await get('/readyz'))?.status).toBe(503);
      expect(await get('/api/v1/divisions')).toMatchObject({ status: 503, body: { error: 'not_ready' } });
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = start();
    try {
      await until(second, async () => (await get('/readyz'))?.status === 200);
      expect(second.output()).toContain('"restarted":true');
      const divisions = await get('/api/v1/divisions');
      expect(divisions?.status).toBe(200);
      expect((divisions?.body.data as unknown[]).length).toBeGreaterThan(0);
      const fighters = await get('/api/v1/fighters?per_page=1');
      // The demo's 1,660 fighters (those served), once each: nothing left over from the killed start.
      const total = (fighters?.body.meta as { total: number }).total;
      expect(second.output()).toContain('"fighters":1660');
      expect(total).toBeGreaterThan(1500);
      expect(total).toBeLessThanOrEqual(1660);
      await until(second, async () => second.output().includes('listening on'));
      expect((await get('/healthz'))?.body).toEqual({ status: 'ok' });
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    }
  }, 300_000);
});
