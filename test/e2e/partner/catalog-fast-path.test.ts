import request from 'supertest';
import { createApp, partnerApiDeps } from '../../../src/app';
import { operationEntry } from '../../../src/http/operation-router';
import { partnerDoor } from '../../../src/rest/partner-api.door';
import { fastOnly as fastOnlyOf } from '../../helpers/fast-only';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

let t: TestApp;
let w: World;
let express: ReturnType<typeof createApp>;
/** Only the pipeline's entry (before express): what it leaves to express answers 599, so hand-overs are visible. */
let fastOnly: (req: any, res: any) => void;

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  w = await buildWorld(t.c);
  express = createApp(t.c);
  const fast = operationEntry([partnerDoor(partnerApiDeps(t.c), t.c.requestLog)]);
  fastOnly = fastOnlyOf(fast).handler;
});
afterAll(() => t?.close());

const auth = { Authorization: `Bearer ${KEYS.full}` };

describe("the partner operations' entry (before express)", () => {
  it('answers every cached read with the body, ETag and headers of the express route', async () => {
    const paths = [
      '/divisions',
      '/fighters',
      '/fighters?q=mu&per_page=2',
      `/fighters/${w.slugs.anna}`,
      `/fighters/${w.slugs.minor}`,
      '/events?upcoming=1',
      `/events/${w.events.world}`,
      `/events/${w.events.world}/results`,
      '/results?since=2026-01-01',
      `/verify/${w.numbers.activeLicence}`,
      `/verify/${w.numbers.supersededLicence.toLowerCase()}`,
      `/verify/${encodeURIComponent(` ${w.numbers.activeFid} `)}`,
    ];
    for (const path of paths) {
      const fast = await request(fastOnly).get(`/api/v1${path}`).set(auth);
      const slow = await request(express).get(`/api/v1${path}`).set(auth);
      expect([path, fast.status]).toEqual([path, 200]);
      expect(fast.text).toBe(slow.text);
      expect(fast.headers.etag).toBe(slow.headers.etag);
      for (const h of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'content-type', 'cache-control']) {
        expect(fast.headers[h]).toBeDefined();
      }
    }
  });

  it('serves /me with the request counted', async () => {
    await t.c.keys.flush();
    const first = await request(fastOnly).get('/api/v1/me').set(auth);
    const second = await request(fastOnly).get('/api/v1/me').set(auth);
    expect(first.status).toBe(200);
    expect(second.body.data.request_count).toBe(first.body.data.request_count + 1);
  });

  // These were handed to express (599) by the old fast path; the one pipeline answers them itself,
  // with express's answers. Loose paths are still express's to route.
  it('answers unknown subjects, bad parameters and missing scopes as express does; leaves loose paths to express', async () => {
    const answered = ['/fighters/nobody', '/events/EV-0000-0000/results', '/verify/LIC-XX', '/fighters?q=a', '/results?page=0'];
    for (const path of answered) {
      const fast = await request(fastOnly).get(`/api/v1${path}`).set(auth);
      const slow = await request(express).get(`/api/v1${path}`).set(auth);
      expect([path, fast.status, fast.body]).toEqual([path, slow.status, slow.body]);
      expect([404, 422]).toContain(fast.status);
    }
    const scopeless = await request(fastOnly).get('/api/v1/fighters').set('Authorization', `Bearer ${KEYS.rankings}`);
    expect([scopeless.status, scopeless.body.error]).toEqual([403, 'insufficient_scope']);
    expect((await request(fastOnly).get('/api/v1/openapi.json')).status).toBe(200);
    const loose = [
      request(fastOnly).get('/api/v1/fighters/').set(auth),
      request(fastOnly).get('/api/v1/Fighters').set(auth),
      request(fastOnly).get('/api/v1/fighters/%E0%A4%A').set(auth),
    ];
    for (const res of await Promise.all(loose)) expect(res.status).toBe(599);
  });
});
