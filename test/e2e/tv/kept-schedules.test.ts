import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { createApp, tvApiDeps } from '../../../src/app';
import { operationEntry } from '../../../src/http/operation-router';
import { tvDoor } from '../../../src/tv/tv-api.door';
import { feedCaughtUp } from '../../helpers/change-feed';
import { fastOnly as fastOnlyOf } from '../../helpers/fast-only';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * A repeated poll of /live or /upcoming is answered at once from the reader's answer for that URL
 * (caches on, the limiter in memory): the express route's answer in everything a viewer's app
 * sees, and a schedule change in the very next poll.
 */
let t: TestApp;
let tv: TvClient;
let express: ReturnType<typeof createApp>;
let fastOnly: (req: IncomingMessage, res: ServerResponse) => void;
let answeredAtOnce: boolean[];

beforeAll(async () => {
  t = await startTestApp({ env: { ...TV_ENV, AUTH_CACHE_TTL_MS: '60000', REDIS_URL: undefined } });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  await tv.create(CK.rw, aBroadcast({ title: 'Soon', scheduled_at: '2030-01-02T10:00:00Z' }));
  express = createApp(t.c);
  ({ handler: fastOnly, atOnce: answeredAtOnce } = fastOnlyOf(operationEntry([tvDoor(tvApiDeps(t.c), t.c.requestLog)])));
  // the world's notifications come back through LISTEN: heard before an answer is kept
  await feedCaughtUp(t);
});
afterAll(() => t?.close());

const HEADERS = [
  'etag',
  'content-type',
  'content-length',
  'cache-control',
  'link',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-ratelimit-limit',
];

describe('kept schedule answers', () => {
  it('answer a repeated poll at once, like the express route, and 304 without charging', async () => {
    for (const path of ['/api/tv/upcoming', '/api/tv/live', '/api/tv/upcoming?per_page=1']) {
      answeredAtOnce.length = 0;
      const first = await request(fastOnly).get(path).set('Accept-Encoding', 'identity');
      const second = await request(fastOnly).get(path).set('Accept-Encoding', 'identity');
      const slow = await request(express).get(path).set('Accept-Encoding', 'identity');
      expect([path, first.status, second.status, answeredAtOnce]).toEqual([path, 200, 200, [false, true]]);
      expect(second.text).toBe(slow.text);
      for (const h of HEADERS) expect([path, h, second.headers[h]]).toEqual([path, h, slow.headers[h]]);
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
      const notModified = await request(fastOnly).get(path).set('If-None-Match', second.headers.etag).set('Accept-Encoding', 'identity');
      expect(notModified.status).toBe(304);
      // the express request above was charged to the same address; the 304 is given back
      expect(Number(notModified.headers['x-ratelimit-remaining'])).toBe(Number(slow.headers['x-ratelimit-remaining']));
      expect(answeredAtOnce[2]).toBe(true);
    }
  });

  it('show a new broadcast in the very next poll', async () => {
    const before = (await request(fastOnly).get('/api/tv/upcoming')).body.meta.total;
    await request(fastOnly).get('/api/tv/upcoming');
    await tv.create(CK.rw, aBroadcast({ title: 'Later', scheduled_at: '2030-01-05T10:00:00Z' }));
    expect((await request(fastOnly).get('/api/tv/upcoming')).body.meta.total).toBe(before + 1);
  });
});
