import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import type { Connection } from '@mikro-orm/core';
import type { Actor } from '../../../src/domain/audit/audit.log';
import { KeyAuthenticator } from '../../../src/domain/partners/key-authenticator';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

/**
 * Per-key rate limits: a sliding 60-second window, X-RateLimit-* headers on every
 * authenticated answer, 429 with Retry-After, and what does and does not count.
 */

let t: TestApp;
let world: World;
const actor: Actor = { id: 'test' };
const ALL_SCOPES = ['rankings.read', 'fighters.read', 'events.read', 'results.read'];
const RANKINGS = '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg';

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
});
afterAll(() => t?.close());

/** A key of its own for one test, so that no test spends another's budget. */
async function freshKey(limit: number, scopes: string[] = ALL_SCOPES): Promise<string> {
  const token = `pk_test_limit_${randomBytes(8).toString('hex')}`;
  await t.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: `limit ${limit}`, scopes, rateLimitPerMinute: limit, fixedToken: token });
  return token;
}

/** The rate headers of an answer, each required to be an integer. */
function rate(res: Response): { limit: number; remaining: number; reset: number } {
  const read = (name: string) => {
    const value = res.headers[name];
    expect([name, value]).toEqual([name, expect.stringMatching(/^\d+$/)]);
    return Number(value);
  };
  return { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), reset: read('x-ratelimit-reset') };
}

/** Now, as the rate limiter sees it (its clock stands still unless a test moves it). */
const nowSeconds = () => t.limiterClock.seconds();

function expect429(res: Response): number {
  expect([res.status, res.body.error]).toEqual([429, 'rate_limited']);
  expect(typeof res.body.message).toBe('string');
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(120);
  const r = rate(res);
  expect(r.remaining).toBe(0);
  expect(r.reset).toBeGreaterThanOrEqual(nowSeconds());
  return retryAfter;
}

describe('the low key (3 per minute)', () => {
  it('counts down X-RateLimit-Remaining and answers the 4th request with 429 rate_limited and Retry-After', async () => {
    const first = await getPartner(t.app, '/me', KEYS.low);
    expect(first.status).toBe(200);
    expect(first.body.data.rate_limit_per_minute).toBe(3);
    const r1 = rate(first);
    expect(r1).toMatchObject({ limit: 3, remaining: 2 });
    // when the request leaves the window: the limiter counts whole seconds, 61 of them
    expect(r1.reset).toBe(nowSeconds() + 61);

    const second = await getPartner(t.app, '/divisions', KEYS.low);
    expect([second.status, rate(second).remaining]).toEqual([200, 1]);
    const third = await getPartner(t.app, '/fighters', KEYS.low);
    expect([third.status, rate(third).remaining]).toEqual([200, 0]);
    expect(rate(third).limit).toBe(3);

    const fourth = await getPartner(t.app, '/events', KEYS.low);
    const retryAfter = expect429(fourth);
    expect(retryAfter).toBe(61);
    expect(rate(fourth).limit).toBe(3);
    expect(rate(fourth).reset).toBe(nowSeconds() + retryAfter);
    // Being refused does not buy time: the next request is refused as well.
    expect429(await getPartner(t.app, '/me', KEYS.low));
  });
});

describe('rate headers', () => {
  it('are on every authenticated answer: 200, 304, 403, 404 and 422', async () => {
    const full = await freshKey(60);
    const ok = await getPartner(t.app, '/divisions', full);
    expect(ok.status).toBe(200);
    const answers: Array<[string, Response]> = [
      ['200', ok],
      ['304', await getPartner(t.app, '/divisions', full, { 'If-None-Match': ok.headers.etag })],
      ['404', await getPartner(t.app, '/fighters/no-such-fighter', full)],
      ['422', await getPartner(t.app, '/fighters?per_page=101', full)],
      ['404 verify', await getPartner(t.app, '/verify/FID-ZZZZ-ZZZZ', full)],
    ];
    const rankingsOnly = await freshKey(7, ['rankings.read']);
    answers.push(['403', await getPartner(t.app, '/results', rankingsOnly)]);
    for (const [label, res] of answers) {
      expect([label, res.status]).toEqual([label, Number(label.slice(0, 3))]);
      const r = rate(res);
      expect([label, r.limit]).toEqual([label, label === '403' ? 7 : 60]);
    }
    // 200, 304 (free), 404, 422, 404: the remaining count went 59, 59, 58, 57, 56.
    expect(answers.slice(0, 5).map(([, res]) => rate(res).remaining)).toEqual([59, 59, 58, 57, 56]);
    expect(rate(answers[5][1]).remaining).toBe(6);
  });

  it("match the key's rate_limit_per_minute", async () => {
    const key = await freshKey(17);
    const me = await getPartner(t.app, '/me', key);
    expect(me.body.data.rate_limit_per_minute).toBe(17);
    expect(rate(me)).toMatchObject({ limit: 17, remaining: 16 });
  });
});

describe('budgets', () => {
  it('are per key: exhausting one key leaves the others (of the same partner) untouched', async () => {
    const a = await freshKey(2);
    const b = await freshKey(2);
    expect((await getPartner(t.app, '/divisions', a)).status).toBe(200);
    expect((await getPartner(t.app, '/divisions', a)).status).toBe(200);
    expect429(await getPartner(t.app, '/divisions', a));

    const fromB = await getPartner(t.app, '/divisions', b);
    expect([fromB.status, rate(fromB).remaining]).toEqual([200, 1]);
    const fromFull = await getPartner(t.app, '/divisions', KEYS.full);
    expect(fromFull.status).toBe(200);
    expect(rate(fromFull).limit).toBe(60);
    expect(rate(fromFull).remaining).toBeGreaterThan(50);
    expect429(await getPartner(t.app, '/divisions', a));
  });

  it('are not spent by 401 answers, even when a refused Authorization sits beside the key in X-API-Key', async () => {
    const key = await freshKey(3);
    for (let i = 0; i < 4; i++) {
      const unknown = await getPartner(t.app, '/divisions', 'pk_unknownKeyThatWasNeverIssued0000000000000');
      expect(unknown.status).toBe(401);
      expect(unknown.headers['x-ratelimit-remaining']).toBeUndefined();
      expect((await getPartner(t.app, '/divisions', KEYS.revoked)).status).toBe(401);
      // Authorization wins: this request is not authenticated with `key`, so it costs `key` nothing.
      expect((await getPartner(t.app, '/divisions', null, { Authorization: 'Basic x', 'X-API-Key': key })).status).toBe(401);
      expect((await getPartner(t.app, '/divisions', 'pk_unknownKeyThatWasNeverIssued0000000000000', { 'X-API-Key': key })).status).toBe(401);
    }
    const res = await getPartner(t.app, '/me', key);
    expect([res.status, rate(res).remaining]).toEqual([200, 2]);
    expect(res.body.data.request_count).toBe(1);
  });

  it('are not spent by 304 answers', async () => {
    const key = await freshKey(3);
    const first = await getPartner(t.app, '/divisions', key);
    expect([first.status, rate(first).remaining]).toEqual([200, 2]);
    const tag = first.headers.etag;
    expect(tag).toBeTruthy();
    for (let i = 0; i < 5; i++) {
      const again = await getPartner(t.app, '/divisions', key, { 'If-None-Match': tag });
      expect([again.status, again.text ?? '']).toEqual([304, '']);
      expect(rate(again)).toMatchObject({ limit: 3, remaining: 2 });
    }
    // Five 304s later the key still has its two requests, and then none.
    const second = await getPartner(t.app, RANKINGS, key);
    expect([second.status, rate(second).remaining]).toEqual([200, 1]);
    const third = await getPartner(t.app, '/divisions', key);
    expect([third.status, rate(third).remaining]).toEqual([200, 0]);
    expect429(await getPartner(t.app, '/divisions', key));
    // A conditional request of an exhausted key is refused too, not answered 304.
    expect429(await getPartner(t.app, '/divisions', key, { 'If-None-Match': tag }));
  });
});

describe('order of checks (key, rate limit, scope, parameters)', () => {
  it('answers 429 to an over-limit key before looking at its scope, its parameters or the path', async () => {
    const key = await freshKey(1, ['rankings.read']);
    expect((await getPartner(t.app, '/divisions', key)).status).toBe(200);
    for (const path of [
      '/fighters', // missing scope
      `/events/${world.events.world}/results`, // missing scope
      '/rankings?disc=karate', // bad parameter
      '/rankings', // ambiguous division
      '/verify/not-a-number', // malformed number
      '/verify/FID-ZZZZ-ZZZZ', // unknown number
      '/me',
    ]) {
      const res = await getPartner(t.app, path, key);
      expect([path, res.status, res.body.error]).toEqual([path, 429, 'rate_limited']);
      expect429(res);
    }
  });

  it('answers 401 to a bad key before anything else, with no rate headers', async () => {
    const res = await getPartner(t.app, '/fighters?page=0', KEYS.expired);
    expect([res.status, res.body.error]).toEqual([401, 'invalid_key']);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('/me request_count', () => {
  it('counts every authenticated request of the key, including 403, 404, 422, 304 and 429 answers, and this one', async () => {
    const key = `pk_test_count_${randomBytes(8).toString('hex')}`;
    const issued = await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'count',
      scopes: ['rankings.read'],
      rateLimitPerMinute: 5,
      fixedToken: key,
    });
    const me = await getPartner(t.app, '/me', key); // 1
    expect(me.body.data.request_count).toBe(1);
    const divisions = await getPartner(t.app, '/divisions', key); // 2
    expect(divisions.status).toBe(200);
    expect((await getPartner(t.app, '/divisions', key, { 'If-None-Match': divisions.headers.etag })).status).toBe(304); // 3, free
    expect((await getPartner(t.app, '/fighters', key)).status).toBe(403); // 4
    expect((await getPartner(t.app, '/rankings?disc=karate', key)).status).toBe(422); // 5
    expect((await getPartner(t.app, '/verify/FID-ZZZZ-ZZZZ', key)).status).toBe(404); // 6, budget now spent
    expect429(await getPartner(t.app, '/divisions', key)); // 7
    expect429(await getPartner(t.app, '/me', key)); // 8
    expect((await getPartner(t.app, '/me', KEYS.revoked)).status).toBe(401); // not this key
    expect((await getPartner(t.app, '/me', null, { Authorization: 'Basic x', 'X-API-Key': key })).status).toBe(401); // not authenticated

    // The operator raises the key's limit (there is no command for it yet, so straight in the
    // database); the key's next request is then allowed and /me reports all eight plus itself.
    await t.c.orm.em.getConnection().execute('update api_key set rate_limit_per_minute = 100 where id = ?', [issued.key.id]);
    const later = await getPartner(t.app, '/me', key); // 9
    expect(later.status).toBe(200);
    expect(rate(later).limit).toBe(100);
    expect(later.body.data.request_count).toBe(9);
    expect((await getPartner(t.app, '/me', key)).body.data.request_count).toBe(10);
  });

  it('includes this request even while the once-a-second background write of the counts is under way', async () => {
    const token = `pk_test_race_${randomBytes(8).toString('hex')}`;
    await t.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: 'race', scopes: ['rankings.read'], fixedToken: token });
    // The real database, with every count write held back a little, as on a busy server.
    const real = t.c.orm.em.getConnection('write');
    const slow = {
      execute: async (sql: string, params: unknown[]) => {
        if (/^\s*update api_key/i.test(sql)) await new Promise((resolve) => setTimeout(resolve, 150));
        return real.execute(sql, params);
      },
    } as unknown as Connection;
    const keys = new KeyAuthenticator(() => slow, testClock, 0);
    const principal = await keys.authenticate(token);
    keys.countRequest(principal.keyId); // the /me request itself
    const timerFlush = keys.flush(); // what the one-second timer does, just before /me reads its count
    expect(await keys.requestCount(principal.keyId)).toBe(1);
    await timerFlush;
  });
});
