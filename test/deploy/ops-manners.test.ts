import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { createHttpHandler } from '../../src/app';
import { StartupState } from '../../src/startup/startup-state';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Deployment manners that need no Docker engine: the image's HEALTHCHECK command, run as Docker
 * runs it, against a real server (ready, still seeding, gone); and the demo compose publishing
 * nothing beyond the loopback interface.
 */

const ROOT = join(__dirname, '..', '..');

function healthcheck(): { options: string; command: string[] } {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '');
  const m = /^HEALTHCHECK (.*?)CMD (\[.*\])$/m.exec(dockerfile);
  if (!m) throw new Error('the Dockerfile has no HEALTHCHECK ... CMD [...] line');
  return { options: m[1], command: JSON.parse(m[2]) };
}

async function run(command: string[], port: number): Promise<number> {
  try {
    await promisify(execFile)(command[0] === 'node' ? process.execPath : command[0], command.slice(1), {
      env: { ...process.env, PORT: String(port) },
      timeout: 10_000,
    });
    return 0;
  } catch (err) {
    return (err as { code: number }).code;
  }
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe("the image's HEALTHCHECK", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('is healthy when the service is ready, unhealthy while it seeds and when nothing answers', async () => {
    const { options, command } = healthcheck();
    expect(options).toMatch(/--start-period=\d+s/);
    const ready = await listen(t.app);
    const seeding = new StartupState(true);
    seeding.progress({ phase: 'events', done: 1, total: 10 });
    const notReady = await listen(createHttpHandler(t.c, { startup: seeding }));
    try {
      expect(await run(command, (ready.address() as AddressInfo).port)).toBe(0);
      expect(await run(command, (notReady.address() as AddressInfo).port)).toBe(1);
      const gone = (notReady.address() as AddressInfo).port;
      await new Promise((resolve) => notReady.close(resolve));
      expect(await run(command, gone)).toBe(1);
    } finally {
      await new Promise((resolve) => ready.close(resolve));
      if (notReady.listening) await new Promise((resolve) => notReady.close(resolve));
    }
  }, 60_000);
});

test('the demo compose publishes its ports on 127.0.0.1 only', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { ports?: (string | { host_ip?: string })[] }> };
  const published = Object.entries(compose.services).flatMap(([name, s]) => (s.ports ?? []).map((p) => [name, p] as const));
  expect(published.length).toBeGreaterThan(0);
  for (const [name, port] of published) {
    const hostIp = typeof port === 'string' ? (port.split(':').length === 3 ? port.split(':')[0] : undefined) : port.host_ip;
    expect([name, hostIp]).toEqual([name, '127.0.0.1']);
  }
});
