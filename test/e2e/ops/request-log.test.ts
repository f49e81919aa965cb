import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '../../../src/lib/logger';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/**
 * One access-log line per request on every door, fast paths included: the full path (never the
 * router-relative one, never the query), the route template, the status and the request id; no key.
 */

const lines: Record<string, any>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: TV_ENV, logger: createLogger('info', sink) });
  world = await buildWorld(t.c);
  await buildTvWorld(t.c);
});
afterAll(() => t?.close());

/** The request's one access-log line, found by the request id it answered with. */
async function lineOf(res: request.Response): Promise<Record<string, any>> {
  const id = res.headers['x-request-id'];
  expect(id).toBeTruthy();
  const found = lines.filter((l) => l.msg === 'request' && l.req_id === id);
  expect(found).toHaveLength(1);
  return found[0];
}

test('GET /api/v1/me logs the full path and its template, not the router-relative /me', async () => {
  const res = await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${KEYS.full}`).expect(200);
  expect(await lineOf(res)).toMatchObject({ door: 'partner', method: 'GET', path: '/api/v1/me', route: '/api/v1/me', status: 200 });
});

test('GET /api/tv/me logs /api/tv/me', async () => {
  const res = await request(t.app).get('/api/tv/me').set('Authorization', `Bearer ${CK.rw}`).expect(200);
  expect(await lineOf(res)).toMatchObject({ door: 'tv', path: '/api/tv/me', route: '/api/tv/me', status: 200 });
});

test('POST /graphql logs /graphql', async () => {
  const res = await request(t.app).post('/graphql').set('Content-Type', 'application/json').send({ query: '{ __typename }' }).expect(200);
  expect(await lineOf(res)).toMatchObject({ door: 'studio', method: 'POST', path: '/graphql', route: '/graphql', status: 200 });
});

test('the TV fast path (/api/tv/live) logs its line too', async () => {
  const res = await request(t.app).get('/api/tv/live?page=1').set('X-Forwarded-For', '10.9.9.9').expect(200);
  expect(await lineOf(res)).toMatchObject({ door: 'tv', method: 'GET', path: '/api/tv/live', route: '/api/tv/live', status: 200 });
});

test('the rankings fast path logs with its template', async () => {
  const res = await request(t.app).get('/api/v1/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg').set('Authorization', `Bearer ${KEYS.full}`).expect(200);
  expect(await lineOf(res)).toMatchObject({ door: 'partner', path: '/api/v1/rankings', route: '/api/v1/rankings', status: 200 });
});

test('a path parameter is in the path, the template keeps :slug; the query and the key are never logged', async () => {
  const res = await request(t.app).get(`/api/v1/fighters/${world.slugs.anna}?q=private-search`).set('X-API-Key', KEYS.full).expect(200);
  const line = await lineOf(res);
  expect(line).toMatchObject({ path: `/api/v1/fighters/${world.slugs.anna}`, route: '/api/v1/fighters/:slug', status: 200 });
  const search = await request(t.app).get('/api/v1/fighters?q=private-search').set('X-API-Key', KEYS.full).expect(200);
  expect(await lineOf(search)).toMatchObject({ path: '/api/v1/fighters', route: '/api/v1/fighters' });
  const all = JSON.stringify(lines);
  expect(all).not.toContain('private-search');
  expect(all).not.toContain(KEYS.full);
  expect(all).not.toContain(CK.rw);
});

test('a 404 has no template, and an error answered by the app-level handler keeps its door-qualified template', async () => {
  const missing = await request(t.app).get('/api/v1/no-such-thing').set('Authorization', `Bearer ${KEYS.full}`).expect(404);
  expect(await lineOf(missing)).toMatchObject({ door: 'partner', path: '/api/v1/no-such-thing', route: null, status: 404 });
  const invalid = await request(t.app).get('/api/v1/fighters?page=0').set('Authorization', `Bearer ${KEYS.full}`).expect(422);
  expect(await lineOf(invalid)).toMatchObject({ path: '/api/v1/fighters', route: '/api/v1/fighters', status: 422 });
});
