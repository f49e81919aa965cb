import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminProcess } from '../../helpers/cli';

const ROOT = join(__dirname, '..', '..', '..');
let dataDir: string;
let server: ChildProcess;
let port: number;
let output = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** The environment of a developer's terminal: no DATABASE_URL, so the embedded database. */
function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: '0', LOG_LEVEL: 'warn' };
  delete e.DATABASE_URL;
  delete e.REDIS_URL;
  return e;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-embedded-'));
  port = await freePort();
  server = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'src/main.ts')], { cwd: ROOT, env: env() });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  const started = Date.now();
  while (!output.includes('listening on')) {
    if (Date.now() - started > 90_000 || server.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);

afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start with the embedded database, and the operator in another terminal', () => {
  it("reaches the running server's database through its socket: a key issued by the CLI works on the API", async () => {
    expect(existsSync(join(dataDir, 'server.json'))).toBe(true);
    const run = (argv: string[]) => adminProcess(null, argv, env() as Record<string, string>);
    const created = await run(['partners:create', '--slug', 'terminal-two', '--name', 'Terminal Two', '--json']);
    expect(created.code).toBe(0);
    const issued = await run(['keys:issue', '--partner', 'terminal-two', '--name', 'k', '--scopes', 'rankings.read', '--json']);
    expect(issued.code).toBe(0);
    const key = JSON.parse(issued.stdout).key;
    const me = await fetch(`http://127.0.0.1:${port}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { partner: { slug: string } } }).data.partner.slug).toBe('terminal-two');
  }, 60_000);

  it('shuts down gracefully on SIGTERM: finishes, closes the database and removes its socket record', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
  }, 30_000);
});
