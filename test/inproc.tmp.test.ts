import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '../src/lib/logger';
import { startTestApp, type TestApp } from './helpers/test-app';
import { buildWorld, testClock, type World } from './helpers/world';

let t: TestApp;
let w: World;
const sink = new Writable({ write(_c, _e, done) { done(); } });
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: { AUTH_CACHE_TTL_MS: '60000', REDIS_URL: undefined }, logger: createLogger('info', sink) });
  w = await buildWorld(t.c);
  await t.c.services.partners.issueKey({ id: 'bench' } as never, { partnerSlug: 'acme-media', name: 'bench', scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'], rateLimitPerMinute: 10_000_000, fixedToken: 'pk_test_bench' } as never);
}, 120000);
afterAll(() => t?.close());

it('measures', async () => {
  const paths = ['/api/v1/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg', `/api/v1/fighters/${w.slugs.anna}`, `/api/v1/verify/${w.numbers.activeLicence}`, '/api/v1/me', '/api/v1/results?per_page=2'];
  const out: string[] = [];
  for (const path of paths) {
    for (let i = 0; i < 3; i++) await request(t.app).get(path).set('Authorization', 'Bearer pk_test_bench').set('Accept-Encoding', 'gzip');
    await t.c.keys.flush();
    await request(t.app).get(path).set('Authorization', 'Bearer pk_test_bench').set('Accept-Encoding', 'gzip');
    const req: any = { url: path, method: 'GET', headers: { authorization: 'Bearer pk_test_bench', 'accept-encoding': 'gzip', host: 'x' }, socket: { remoteAddress: '127.0.0.1' } };
    let statuses = 0; let sync = 0;
    const res: any = { statusCode: 200, writeHead(s: number) { this.statusCode = s; if (s !== 200) statuses++; }, end() {}, getHeader() { return undefined; }, setHeader() {}, once() {}, on() {} };
    const N = 50000;
    const run = () => { for (let i = 0; i < N; i++) { const r: any = t.app(req, res); } };
    run();
    const c0 = process.cpuUsage(); const h0 = process.hrtime.bigint();
    run();
    const c1 = process.cpuUsage(c0); const ns = Number(process.hrtime.bigint() - h0);
    await new Promise((r) => setTimeout(r, 200));
    out.push(`${path.split('?')[0].replace(/\/[^/]*$/, (m) => (m.length > 12 ? '/{x}' : m))}: ${((c1.user + c1.system) / N).toFixed(2)} µs CPU, ${(ns / N / 1000).toFixed(2)} µs wall, non-200 ${statuses}`);
  }
  console.log(out.join('\n'));
}, 300000);
