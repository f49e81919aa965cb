import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startMetricsServer } from '../../../src/ops/ops.router';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/** /metrics in Prometheus text format: request counters by door, template and status, and the gauges read on scrape. */

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: TV_ENV });
  world = await buildWorld(t.c);
  await buildTvWorld(t.c);
});
afterAll(() => t?.close());

/** The value of one series in an exposition text (0 when absent). */
function value(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v) && Object.keys(got).length === Object.keys(labels).length) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return 0;
}

const scrape = async () => {
  const res = await request(t.app).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};

test('requests are counted by door, route template and status, fast paths and 429s included', async () => {
  const before = await scrape();
  const partner = { door: 'partner', method: 'GET', route: '/api/v1/fighters/:slug', status: '200' };
  const live = { door: 'tv', method: 'GET', route: '/api/tv/live', status: '200' };
  const rankings = { door: 'partner', method: 'GET', route: '/api/v1/rankings', status: '200' };
  const tvMe = { door: 'tv', method: 'GET', route: '/api/tv/me', status: '200' };
  await request(t.app).get(`/api/v1/fighters/${world.slugs.anna}`).set('X-API-Key', KEYS.full).expect(200);
  await request(t.app).get(`/api/v1/fighters/${world.slugs.bela}`).set('X-API-Key', KEYS.full).expect(200);
  await request(t.app).get('/api/tv/live').set('X-Forwarded-For', '10.8.0.1').expect(200);
  await request(t.app).get('/api/v1/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg').set('X-API-Key', KEYS.full).expect(200);
  await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${CK.rw}`).expect(200);
  // pk_test_low allows 3 requests a minute: the fourth is refused
  for (let i = 0; i < 3; i++) await request(t.app).get('/api/v1/me').set('X-API-Key', KEYS.low).expect(200);
  await request(t.app).get('/api/v1/me').set('X-API-Key', KEYS.low).expect(429);

  const after = await scrape();
  const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
  expect(delta('http_requests_total', partner)).toBe(2);
  expect(delta('http_requests_total', live)).toBe(1);
  expect(delta('http_requests_total', rankings)).toBe(1);
  expect(delta('http_requests_total', tvMe)).toBe(1);
  expect(delta('http_requests_total', { door: 'partner', method: 'GET', route: '/api/v1/me', status: '429' })).toBe(1);
  expect(delta('http_rate_limited_total', { door: 'partner' })).toBe(1);
  expect(delta('http_request_duration_seconds_count', { door: 'partner', method: 'GET', route: '/api/v1/fighters/:slug' })).toBe(2);
  // the previous scrape is counted under the ops door
  expect(value(after, 'http_requests_total', { door: 'ops', method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  // never a raw path as a label
  expect(after).not.toContain(`route="/api/v1/fighters/${world.slugs.anna}"`);
});

test('database gauges and process metrics are read on scrape', async () => {
  const text = await scrape();
  expect(text).toMatch(/^webhook_outbox_deliveries\{state="pending"\} \d+$/m);
  expect(text).toMatch(/^webhook_outbox_deliveries\{state="due"\} \d+$/m);
  expect(text).toMatch(/^tv_live_broadcasts \d+$/m);
  expect(value(text, 'tv_live_slots', { kind: 'total' })).toBeGreaterThan(0);
  expect(text).toMatch(/^db_pool_connections\{state="used"\} \d+$/m);
  expect(text).toContain('process_cpu_user_seconds_total');
  expect(text).toContain('nodejs_eventloop_lag_seconds');
});

test('with METRICS_PORT, /metrics leaves the public port for a server of its own', async () => {
  const other = await startTestApp({ env: { METRICS_PORT: '0' } });
  try {
    expect(other.c.config.metricsPort).toBe(0);
    await request(other.app).get('/metrics').expect(404);
    const server = await startMetricsServer(other.c.metrics, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await request(base).get('/metrics').expect(200);
      expect(res.text).toContain('http_requests_total');
      await request(base).get('/api/v1/me').expect(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  } finally {
    await other.close();
  }
});
