import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TV_ENV } from '../helpers/tv-client';
import { buildTvWorld, CK } from '../helpers/tv-world';
import { buildWorld, KEYS, testClock, type World } from '../helpers/world';

/**
 * Issue 17: an integrator generates a client from a checked-in document with the tool's defaults
 * and it works. openapi-typescript (with openapi-fetch) and @hey-api/openapi-ts generate from both
 * documents with no flag beyond input and output; a small program (program.ts.txt: three partner
 * calls and one TV create, on each client) must compile under `strict`, then run against the real
 * service. Redocly's recommended lint (redocly.yaml) must find nothing.
 */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');
let dir: string;
let t: TestApp;
let w: World;
let server: Server;
let base: string;

const run = (bin: string, args: string[]) => execFileSync(join(BIN, bin), args, { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clients-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const [name, file] of [
    ['partner', 'openapi.json'],
    ['tv', 'openapi-tv.json'],
  ]) {
    run('openapi-typescript', [`schema/${file}`, '-o', join(dir, `${name}.d.ts`)]);
    run('openapi-ts', ['-i', `./schema/${file}`, '-o', join(dir, `hey-${name}`)]);
  }
  copyFileSync(join(__dirname, 'program.ts.txt'), join(dir, 'program.ts'));
  t = await startTestApp({ clock: testClock, env: TV_ENV });
  w = await buildWorld(t.c);
  await buildTvWorld(t.c);
  server = createServer(t.app);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("clients generated from the documents with the tools' defaults", () => {
  it('compile a program of three partner calls and a TV create under strict', () => {
    const tsc = () =>
      run('tsc', [
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--skipLibCheck',
        '--outDir',
        join(dir, 'out'),
        join(dir, 'program.ts'),
      ]);
    expect(tsc).not.toThrow();
  });

  it('run it against the service: both clients read, verify and create', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const program = require(join(dir, 'out', 'program.js'));
    const keys = { partner: KEYS.full, channel: CK.rw, licence: w.numbers.activeLicence };
    for (const call of [program.withOpenapiFetch, program.withHeyApi]) {
      const out = await call(base, keys);
      expect(out).toEqual({ leader: expect.any(String), fighterName: expect.any(String), status: 'ACTIVE', created: 'scheduled', createdStatus: 201 });
    }
  });

  it("pass redocly's recommended lint (no overlapping oneOf branches)", () => {
    const out = run('redocly', ['lint', 'schema/openapi.json', 'schema/openapi-tv.json', '--format', 'summary']);
    expect(out).not.toMatch(/warning|error/i);
  });
});
