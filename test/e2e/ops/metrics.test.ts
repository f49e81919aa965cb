import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startMetricsServer } from '../../../src/ops/ops.router';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TV_ENV, TvClient } from '../../helpers/tv-client';
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
  expect(text).toMatch(/^webhook_outbox_deliveries\{state="sending"\} \d+$/m);
  expect(text).toMatch(/^webhook_outbox_deliveries_due \d+$/m);
  expect(text).toMatch(/^tv_live_broadcasts \d+$/m);
  expect(single(text, 'tv_live_slots_limit')).toBeGreaterThan(0);
  expect(text).toMatch(/^db_pool_connections\{state="used"\} \d+$/m);
  expect(text).toMatch(/^db_pool_pending_acquires \d+$/m);
  expect(text).toContain('process_cpu_user_seconds_total');
  expect(text).toContain('nodejs_eventloop_lag_seconds');
});

/** The value of a metric without labels (NaN when absent). */
function single(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

/** Each metric's declared type, from the `# TYPE` lines. */
function types(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
}

test('metric types and names follow the Prometheus conventions: counters end in _total, no metric mixes values that cannot be summed', async () => {
  const text = await scrape();
  const declared = types(text);
  // The service's own metrics (prom-client's process and nodejs_ defaults name some gauges _total).
  const own = [...declared].filter(([name]) => !/^(process|nodejs)_/.test(name));
  expect(own.length).toBeGreaterThanOrEqual(12);
  for (const [name, type] of own) {
    if (type === 'counter') expect([name, name.endsWith('_total')]).toEqual([name, true]);
    else expect([name, type, name.endsWith('_total')]).toEqual([name, type, false]);
  }
  expect(declared.get('tv_live_slots_used')).toBe('gauge');
  expect(declared.get('tv_live_slots_limit')).toBe('gauge');
  expect(declared.get('db_pool_connections')).toBe('gauge');
  expect(declared.get('db_pool_pending_acquires')).toBe('gauge');
  expect(declared.get('webhook_outbox_deliveries_due')).toBe('gauge');
  // The mixed metrics are gone: used and total slots, or pending acquisitions beside connections.
  expect(declared.has('tv_live_slots')).toBe(false);
  expect(text).not.toMatch(/^db_pool_connections\{state="pending"\}/m);
  expect(text).not.toMatch(/^webhook_outbox_deliveries\{state="due"\}/m);
  // Every label value of a labelled gauge is a part of one whole.
  const states = (name: string) => [...text.matchAll(new RegExp(`^${name}\\{state="(\\w+)"\\}`, 'gm'))].map((m) => m[1]).sort();
  expect(states('db_pool_connections')).toEqual(['free', 'used']);
  expect(states('webhook_outbox_deliveries')).toEqual(['pending', 'sending']);
});

test('live slots are fresh at every scrape: a broadcast that goes live shows in the very next one', async () => {
  const tv = new TvClient(t.app);
  const first = await scrape();
  const usedBefore = single(first, 'tv_live_slots_used');
  const liveBefore = single(first, 'tv_live_broadcasts');
  expect(usedBefore).toBe(liveBefore);
  const b = await tv.create(CK.rw, aBroadcast({ title: 'Metrics live' }));
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw, {}), 200);
  const second = await scrape();
  expect([single(second, 'tv_live_slots_used'), single(second, 'tv_live_broadcasts')]).toEqual([usedBefore + 1, liveBefore + 1]);
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw, {}), 200);
  const third = await scrape();
  expect([single(third, 'tv_live_slots_used'), single(third, 'tv_live_broadcasts')]).toEqual([usedBefore, liveBefore]);
  expect(single(third, 'tv_live_slots_limit')).toBe(single(first, 'tv_live_slots_limit'));
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
