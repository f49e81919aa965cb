import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { seedTvDemo } from '../../src/demo/demo-tv.seed';
import { LiveClient, until } from '../helpers/live-client';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * deploy/nginx.conf as it is, in front of a real API instance: a GraphQL subscription opened through
 * nginx receives a change. Only the upstream address is replaced (Docker's `api:3000` and its DNS
 * resolver are the compose network's). Needs an nginx binary; without one the test is skipped,
 * saying so (deploy/nginx-websocket.test.ts checks the same directives without nginx).
 */

const nginx = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
const available = nginx.status === 0;
if (!available) console.warn('nginx-proxy.test: skipped, no nginx on the PATH (apt-get install nginx-light to run it)');
const describeWithNginx = available ? describe : describe.skip;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      })
      .on('error', reject);
  });

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    }).on('error', () => resolve(false));
  });

describeWithNginx('deploy/nginx.conf in front of an instance', () => {
  let t: TestApp;
  let proxy: ChildProcess | null = null;
  let dir: string;
  let port: number;
  let client: LiveClient | null = null;

  beforeAll(async () => {
    t = await startTestApp();
    await seedTvDemo(t.c);
    const upstream = (await t.listen()).url;
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'nginx-ws-'));
    const site = readFileSync(join(__dirname, '..', '..', 'deploy', 'nginx.conf'), 'utf8')
      .replace(/^resolver .*$/m, '')
      .replace('set $api http://api:3000;', `set $api ${upstream};`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`);
    writeFileSync(join(dir, 'site.conf'), site);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir}; include ${dir}/site.conf; }
`,
    );
    proxy = spawn('nginx', ['-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    while (!(await accepts(port))) {
      if (proxy.exitCode !== null) throw new Error(`nginx exited with ${proxy.exitCode}: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  afterAll(async () => {
    await client?.dispose();
    proxy?.kill('SIGTERM');
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("upgrades /graphql to a WebSocket and carries a subscription's events", async () => {
    const login = await request(`http://127.0.0.1:${port}`)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send({ query: 'mutation { login(email: "owner@demo.tv", password: "demo-owner-pass") { token } }' });
    const token = login.body.data.login.token as string;
    client = new LiveClient(`ws://127.0.0.1:${port}/graphql`, { token });
    const updates = client.subscribe('subscription { broadcastUpdated(channelSlug: "demo-tv") { title } }');
    const live = (await t.listen()).live;
    await until(() => live.subscriptions === 1);
    await request(t.app)
      .post('/api/tv/broadcasts')
      .set('Authorization', 'Bearer ck_demo_rw')
      .send({ title: 'Through the proxy', source: 'youtube', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduled_at: '2030-03-01T20:00:00Z' })
      .expect(201);
    expect((await updates.nth(1)).data).toEqual({ broadcastUpdated: { title: 'Through the proxy' } });
  });
});
