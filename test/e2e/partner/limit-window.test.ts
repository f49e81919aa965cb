import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { operator } from '../../../src/domain/channels/channel-access';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, type TvWorld } from '../../helpers/tv-world';
import { buildWorld, testClock } from '../../helpers/world';

/**
 * "Per minute" means any 60 seconds, across clock-minute boundaries: the limiter that weighted
 * the previous clock minute let a 5-per-minute key through 7 times within 30 s and a
 * 120-per-minute key 144 times within 20 s. Through the real HTTP door, with the limiter on the
 * test's clock.
 */

// 2030-01-01T00:00:50Z: ten seconds before a clock minute ends.
const START = Date.UTC(2030, 0, 1, 0, 0, 50);
const START_S = START / 1000;
const RANKINGS = '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg';

let t: TestApp;
let tvWorld: TvWorld;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: TV_ENV, limiterStartMs: START });
  await buildWorld(t.c);
  tvWorld = await buildTvWorld(t.c);
});
afterAll(() => t?.close());

async function partnerKey(limit: number): Promise<string> {
  const token = `pk_test_window_${randomBytes(8).toString('hex')}`;
  await t.c.services.partners.issueKey(
    { id: 'test' },
    { partnerSlug: 'acme-media', name: `window ${limit}`, scopes: ['rankings.read', 'fighters.read'], rateLimitPerMinute: limit, fixedToken: token },
  );
  return token;
}

const at = (secondsAfterStart: number) => t.limiterClock.set(START + secondsAfterStart * 1000);
const header = (res: Response, name: string) => res.headers[name.toLowerCase()];

describe('a 5-per-minute partner key across a minute boundary', () => {
  it('gets 5 answers in the last 10 s of a minute and nothing more until 61 s after the first', async () => {
    const key = await partnerKey(5);
    at(0);
    // The /rankings fast path and the express router share the one budget.
    for (const [i, path] of [RANKINGS, '/me', RANKINGS, '/divisions', RANKINGS].entries()) {
      at(i * 2); // :50, :52, :54, :56, :58
      const res = await getPartner(t.app, path, key);
      expect([path, res.status, header(res, 'X-RateLimit-Remaining'), header(res, 'X-RateLimit-Reset')]).toEqual([
        path,
        200,
        String(4 - i),
        String(START_S + 61),
      ]);
    }
    // The next clock minute starts at +10 s; the old limiter admitted 2 more before +30 s.
    for (const s of [10, 11, 20, 30, 45, 60]) {
      at(s);
      const res = await getPartner(t.app, s % 2 ? '/me' : RANKINGS, key);
      expect([s, res.status, res.body.error]).toEqual([s, 429, 'rate_limited']);
      expect([s, header(res, 'Retry-After'), header(res, 'X-RateLimit-Reset')]).toEqual([s, String(61 - s), String(START_S + 61)]);
    }
    at(61); // the :50 request has left the window; the :52 one has not
    expect((await getPartner(t.app, RANKINGS, key)).status).toBe(200);
    const refused = await getPartner(t.app, '/me', key);
    expect([refused.status, header(refused, 'Retry-After')]).toEqual([429, '2']);
  });

  it('over five minutes of steady asking, no 60-second window gets more than 5 answers', async () => {
    const key = await partnerKey(5);
    const admitted: number[] = [];
    for (let ms = 0; ms <= 300_000; ms += 3_700) {
      t.limiterClock.set(START + ms);
      const res = await getPartner(t.app, ms % 2 ? '/me' : RANKINGS, key);
      if (res.status === 200) admitted.push(ms);
      else expect([ms, res.status]).toEqual([ms, 429]);
    }
    for (const end of admitted) expect(admitted.filter((ms) => ms > end - 60_000 && ms <= end).length).toBeLessThanOrEqual(5);
    // and it is not starved either: five in a row each time the oldest of the last five has left
    expect(admitted.slice(0, 7)).toEqual([0, 3_700, 7_400, 11_100, 14_800, 62_900, 66_600]);
    expect(admitted.length).toBe(25);
  });
});

describe('a 120-per-minute channel key across a minute boundary', () => {
  it('gets its 120 answers and no more until they leave the window', async () => {
    const { token } = await t.c.services.channels.createKey(operator({ id: 'test' }), { channelId: tvWorld.channelIds.pro, name: 'window', scopes: ['read'] });
    const tv = new TvClient(t.app);
    at(0);
    for (let i = 0; i < 120; i++) {
      const res = await tv.get('/me', token);
      expect([i, res.status]).toEqual([i, 200]);
    }
    for (const s of [10, 20, 30, 60]) {
      at(s);
      const res = await tv.get('/me', token);
      expect([s, res.status, header(res, 'Retry-After')]).toEqual([s, 429, String(61 - s)]);
    }
    at(61);
    const back = await tv.get('/me', token);
    expect([back.status, header(back, 'X-RateLimit-Remaining')]).toEqual([200, '119']);
  });
});
