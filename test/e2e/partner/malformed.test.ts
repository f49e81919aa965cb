import { unescape } from 'node:querystring';
import request, { type Response } from 'supertest';
import type { Actor } from '../../../src/domain/audit/audit.log';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, testClock, type World } from '../../helpers/world';

/**
 * Hostile input never gets a 500: every bad query parameter is a 422 `invalid_<parameter>` naming
 * the parameter (docs/decisions.md#parameters), unknown path values are 404, malformed numbers 422, and unknown query
 * parameters are ignored. Every answer goes through getPartner, so it must also match the document.
 */

let t: TestApp;
let world: World;
const actor: Actor = { id: 'test' };
/** A key with a budget large enough for the hundreds of requests of this file. */
const BIG = 'pk_test_malformed_big_budget';
const DIVISION = 'disc=kickboxing&cat=pro&g=f&wc=60kg';

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  await t.c.services.partners.issueKey(actor, {
    partnerSlug: 'acme-media',
    name: 'big',
    scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    rateLimitPerMinute: 1_000_000,
    fixedToken: BIG,
  });
});
afterAll(() => t?.close());

const get = (path: string) => getPartner(t.app, path, BIG);
const enc = encodeURIComponent;
const LONG = 'a'.repeat(10_000);
const SQL = "'; drop table fighter; --";

/** An error a client can act on: a 4xx, a JSON body with `error` and `message`, nothing internal. */
function expectClientError(label: string, res: Response, status?: number, error?: string): void {
  expect([label, res.status >= 400 && res.status < 500]).toEqual([label, true]);
  if (status !== undefined) expect([label, res.status]).toEqual([label, status]);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect([label, typeof res.body.error, typeof res.body.message]).toEqual([label, 'string', 'string']);
  if (error !== undefined) expect([label, res.body.error]).toEqual([label, error]);
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/node_modules|\.ts:\d+|\bat [\w.<>]+ \(|syntax error at|violates|relation "/i);
}

/** A bad value of a known parameter: 422 invalid_<name> whose message names the parameter. */
async function expectInvalid(path: string, name: string): Promise<Response> {
  const res = await get(path);
  expectClientError(path.slice(0, 120), res, 422, `invalid_${name}`);
  expect([path.slice(0, 120), res.body.message]).toEqual([path.slice(0, 120), expect.stringContaining(name)]);
  return res;
}

/** Hostile but well-formed input may be a 200 (then it matched the document) or a 4xx; never a 5xx. */
async function expectHandled(path: string): Promise<Response> {
  const res = await get(path);
  if (res.status !== 200) expectClientError(path.slice(0, 120), res);
  return res;
}

/** Values no parameter accepts. */
const GARBAGE = [
  '',
  LONG,
  SQL,
  '%00',
  '%00mma',
  'mm%00a',
  '%E2%80%AE',
  '%F0%9F%A5%8A',
  'Ω≈ç√',
  '<script>',
  '%25',
  '%ZZ',
  '%ZZab',
  '%ED%A0%80ab',
  '%C0%AF%C0%AF',
  ' ',
  '%0A',
  '%09ab',
  'ab%0D%0Acd',
  '[]',
  '{}',
  '%E2%80%8B',
];

/** Endpoint, its base query (so the rest is valid), and its parameters with extra bad values of each. */
const TABLE: Array<{ path: string; base: string; params: Record<string, string[]> }> = [
  {
    path: '/rankings',
    base: DIVISION,
    params: {
      disc: ['karate', 'MMA', 'mma '],
      cat: ['professional', 'PRO'],
      g: ['x', 'male', 'F'],
      wc: ['60 kg', '60KG', '60_kg', 'a'.repeat(21)],
      scope: ['Europe', 'eu rope', 'atlantis', '-', 'world!'],
    },
  },
  {
    path: '/fighters',
    base: '',
    params: {
      q: ['a', ' a ', 'x'.repeat(101), '  '],
      country: ['Germany', 'ger many', 'österreich', 'de_DE'],
      disc: ['karate', 'MMA'],
      status: ['active', 'Licensed', 'minor'],
      page: ['0', '-1', '1e3', '99999999999', '1.5', 'one', '0x10', '+1'],
      per_page: ['101', '0', '-5', '1e2', '10.0', '1000'],
    },
  },
  {
    path: '/events',
    base: '',
    params: {
      country: ['Germany', 'ger many'],
      level: ['galactic', 'World', 'regional'],
      upcoming: ['yes', 'true', '2', 'on', '01'],
      page: ['0', '-1', '1e3', '99999999999'],
      per_page: ['101', '0'],
    },
  },
  {
    path: '/results',
    base: '',
    params: {
      since: ['2026-02-30', '2026-13-01', '2026-6-1', '15.06.2026', 'now', '2026-06-15T00:00:00Z', '20260615'],
      country: ['Germany'],
      disc: ['karate'],
      event: ['x'.repeat(41)],
      page: ['0', '-1', '1e3', '99999999999'],
      per_page: ['101', '0'],
    },
  },
];

/** Garbage that happens to be acceptable for a parameter (free text, codes): handled, not 422. */
const CONTROL = /[\u0000-\u001f\u007f]/;
const ACCEPTS_TEXT: Record<string, (raw: string) => boolean> = {
  q: (raw) => {
    const s = unescape(raw).trim();
    return s.length >= 2 && s.length <= 100 && !CONTROL.test(s);
  },
  event: (raw) => {
    const s = unescape(raw);
    return s.length > 0 && s.length <= 40 && !CONTROL.test(s);
  },
};

const withQuery = (path: string, base: string, extra: string) => `${path}?${[base, extra].filter(Boolean).join('&')}`;
/** The endpoint's valid base query with `name` set to `value` (replacing the base's own value). */
const withParam = (path: string, base: string, name: string, value: string) =>
  withQuery(
    path,
    base
      .split('&')
      .filter((p) => p && !p.startsWith(`${name}=`))
      .join('&'),
    `${name}=${value}`,
  );

describe('bad query parameters', () => {
  for (const { path, base, params } of TABLE) {
    for (const [name, bad] of Object.entries(params)) {
      it(`${path}: bad values of "${name}" are 422 invalid_${name}`, async () => {
        for (const value of bad) await expectInvalid(withParam(path, base, name, enc(value)), name);
      });

      it(`${path}: garbage in "${name}" is never a 5xx`, async () => {
        for (const raw of GARBAGE) {
          const url = withParam(path, base, name, raw.includes('%') ? raw : enc(raw));
          if (ACCEPTS_TEXT[name]?.(raw.includes('%') ? raw : enc(raw))) await expectHandled(url);
          else await expectInvalid(url, name);
        }
      });

      it(`${path}: "${name}" given twice is 422 invalid_${name}`, async () => {
        const valid: Record<string, string> = {
          disc: 'kickboxing',
          cat: 'pro',
          g: 'f',
          wc: '60kg',
          scope: 'world',
          q: 'anna',
          country: 'germany',
          status: 'licensed',
          level: 'world',
          upcoming: '1',
          since: '2026-01-01',
          event: world.events.world,
          page: '1',
          per_page: '10',
        };
        await expectInvalid(withParam(path, base, name, `${valid[name]}&${name}=${valid[name]}`), name);
      });
    }
  }

  it('refuses ?disc=mma&disc=boxing with 422 invalid_disc everywhere disc is known', async () => {
    for (const path of ['/fighters', '/results', '/rankings']) await expectInvalid(`${path}?disc=mma&disc=boxing`, 'disc');
  });

  it('says in the message what the parameter accepts', async () => {
    expect((await expectInvalid('/fighters?disc=karate', 'disc')).body.message).toMatch(/kickboxing.*mma.*boxing.*muay-thai/);
    expect((await expectInvalid('/events?level=x', 'level')).body.message).toMatch(/national.*world/);
    expect((await expectInvalid('/fighters?per_page=101', 'per_page')).body.message).toMatch(/100/);
    expect((await expectInvalid('/results?since=2026-02-30', 'since')).body.message).toMatch(/YYYY-MM-DD/);
  });

  it('accepts the edges of the valid ranges', async () => {
    for (const path of [
      '/fighters?per_page=100',
      '/fighters?per_page=1',
      '/events?page=1&per_page=1',
      '/results?since=2024-02-29',
      '/fighters?q=an',
      `/fighters?q=${'x'.repeat(100)}`,
      '/events?upcoming=0',
    ]) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 200]);
    }
  });

  it('answers a page far past the end with 200, empty data and true meta', async () => {
    const res = await get('/fighters?page=999999999&per_page=100');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ page: 999999999, per_page: 100 });
    expect(res.body.meta.total).toBeGreaterThan(0);
  });

  it('treats SQL in a search or filter as text and keeps the data intact', async () => {
    for (const path of [
      `/fighters?q=${enc(SQL)}`,
      `/results?event=${enc(SQL)}`,
      `/fighters?q=${enc("%' or '1'='1")}`,
      '/fighters?q=%25%25',
      '/fighters?q=__',
      `/results?event=${enc("' or 1=1 --")}`,
    ]) {
      const res = await get(path);
      expect([path, res.status, res.body.data]).toEqual([path, 200, []]);
    }
    const all = await get('/fighters');
    expect(all.body.meta.total).toBeGreaterThan(5);
  });

  it('ignores unknown query parameters', async () => {
    const cases: Array<[string, string]> = [
      ['/fighters', 'foo=bar&DISC=boxing&disc%5B%5D=x&q%5B0%5D=zz&utm_source=partner&page%5Bsize%5D=1'],
      [`/rankings?${DIVISION}`, 'limit=1&sort=points&scope2=asia'],
      ['/events', 'upcomming=1&level[]=world'],
      ['/results', 'since_date=2030-01-01&per-page=1'],
      ['/divisions', 'disc=karate&page=0'],
      [`/fighters/${world.slugs.anna}`, 'q=a&page=-1'],
      [`/verify/${world.numbers.activeLicence}`, 'number=x'],
      ['/me', 'per_page=0'],
    ];
    for (const [path, extra] of cases) {
      const plain = await get(path);
      const noisy = await get(`${path}${path.includes('?') ? '&' : '?'}${extra}`);
      expect([path, plain.status, noisy.status]).toEqual([path, 200, 200]);
      if (path !== '/me') expect(noisy.body).toEqual(plain.body);
    }
  });
});

describe('/rankings division parameters', () => {
  it('answers 422 invalid_division naming the missing parameters when no division is given', async () => {
    const res = await get('/rankings');
    expectClientError('/rankings', res, 422, 'invalid_division');
    // The world has kickboxing and MMA, pro and am, 60 kg, 63.5 kg and 57 kg divisions (all women).
    expect(res.body.message).toMatch(/\bdisc\b/);
    expect(res.body.message).toMatch(/\bwc\b/);
  });

  it('answers 422 invalid_division naming what is still missing when the set is ambiguous', async () => {
    const res = await get('/rankings?disc=kickboxing');
    expectClientError('/rankings?disc=kickboxing', res, 422, 'invalid_division');
    expect(res.body.message).toMatch(/\bwc\b/);
    expect(res.body.message).not.toMatch(/\bdisc\b/);
    const byGender = await get('/rankings?g=f&cat=pro');
    expectClientError('/rankings?g=f&cat=pro', byGender, 422, 'invalid_division');
    expect(byGender.body.message).toMatch(/\bwc\b/);
  });

  it('answers 422 invalid_division when no such division exists', async () => {
    for (const query of ['disc=boxing', 'disc=kickboxing&cat=pro&g=m&wc=60kg', 'disc=kickboxing&cat=pro&g=f&wc=999kg', 'wc=60kg&cat=am']) {
      const res = await get(`/rankings?${query}`);
      expectClientError(query, res, 422, 'invalid_division');
    }
  });

  it('answers the one division a partial set names', async () => {
    const res = await get('/rankings?wc=63-5kg');
    expect(res.status).toBe(200);
    expect(res.body.division).toMatchObject({ discipline: 'kickboxing', weight_class: '63-5kg' });
  });

  it('answers 422 invalid_scope to an unknown scope and 200 to known ones', async () => {
    for (const scope of ['atlantis', 'mars', 'north-pole', 'Germany']) {
      await expectInvalid(`/rankings?${DIVISION}&scope=${enc(scope)}`, 'scope');
    }
    for (const scope of ['world', 'europe', 'asia', 'germany', 'japan', 'africa']) {
      const res = await get(`/rankings?${DIVISION}&scope=${scope}`);
      expect([scope, res.status, res.body.scope]).toEqual([scope, 200, scope]);
    }
  });
});

describe('hostile path values', () => {
  /** Raw path segments: escapes are sent as written. */
  const SEGMENTS = [
    '%25',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AF',
    '..%2F..%2Fme',
    '..%2F',
    '%2E%2E%5C%2E%2E',
    'a'.repeat(10_000),
    enc(SQL),
    enc("x' or '1'='1"),
    '%00',
    'a%00b',
    '%F0%9F%A5%8A',
    enc('Müller'),
    enc('日本語'),
    '%20',
    enc('<img src=x>'),
    'null',
    '-1',
    enc('{"$ne":null}'),
    '%2A',
    enc('a/b'),
  ];

  it.each([
    ['fighter', (s: string) => `/fighters/${s}`],
    ['event', (s: string) => `/events/${s}`],
    ['event results', (s: string) => `/events/${s}/results`],
  ])('answers 404 (or 400 for a malformed escape) to a %s that cannot exist', async (_label, pathOf) => {
    for (const segment of SEGMENTS) {
      const res = await get(pathOf(segment));
      const label = `${segment.slice(0, 40)} -> ${res.status}`;
      if (res.status === 400) {
        expect([label, isMalformedEscape(segment)]).toEqual([label, true]);
        expectClientError(label, res);
      } else {
        expectClientError(label, res, 404, 'not_found');
      }
    }
  });

  it('answers 422 invalid_number (or 400 for a malformed escape) to a malformed /verify number', async () => {
    for (const segment of [
      ...SEGMENTS,
      'LIC-DE-2026-00001',
      'LIC-DE-2026-0000001',
      'FID-IIII-OOOO',
      'FID-ABCD-EFG',
      'CRT-26-000001',
      'LIC-D3-2026-000001',
      enc('LIC-DE-2026-000001 OR 1=1'),
    ]) {
      const res = await get(`/verify/${segment}`);
      const label = `${segment.slice(0, 40)} -> ${res.status}`;
      if (res.status === 400) {
        expect([label, isMalformedEscape(segment)]).toEqual([label, true]);
        expectClientError(label, res);
      } else {
        expectClientError(label, res, 422, 'invalid_number');
        expect(res.body.message).toMatch(/FID-XXXX-XXXX/);
      }
    }
  });

  it('answers 404 to a well-formed /verify number that was never issued', async () => {
    for (const number of ['FID-ZZZZ-ZZZZ', 'LIC-DE-2026-999999', 'LIC-US-2020-000001', 'CRT-2026-999999', 'crt-2026-999999', enc(' FID-ZZZZ-ZZZZ ')]) {
      const res = await get(`/verify/${number}`);
      expectClientError(number, res, 404, 'not_found');
    }
  });

  it('matches a known number whatever its case and surrounding blanks', async () => {
    for (const number of [world.numbers.activeLicence.toLowerCase(), enc(` ${world.numbers.activeLicence} `), world.numbers.activeFid.toLowerCase()]) {
      const res = await get(`/verify/${number}`);
      expect([number, res.status, res.body.status]).toEqual([number, 200, 'ACTIVE']);
    }
  });

  it('still serves the data after all that', async () => {
    const res = await get(`/fighters/${world.slugs.anna}`);
    expect(res.status).toBe(200);
    expect((await get('/fighters')).body.meta.total).toBeGreaterThan(5);
  });

  it('answers JSON to a malformed escape even without a key', async () => {
    for (const path of ['/api/v1/fighters/%ZZ', '/api/v1/verify/%', '/api/v1/nope/%ZZ', '/api/v1/%ZZ']) {
      const res = await request(t.app).get(path);
      expectClientError(path, res);
    }
  });

  it('a method the path does not serve is a 405 even when a path value is a malformed escape (the 400 is for its own methods)', async () => {
    for (const [method, path, allow] of [
      ['post', '/api/v1/fighters/%ZZ', 'GET, HEAD'],
      ['delete', '/api/v1/events/%FF/results', 'GET, HEAD'],
      ['get', '/api/tv/broadcasts/%FF/end', 'POST'],
      ['put', '/api/tv/broadcasts/%C3%28', 'GET, HEAD, PATCH'],
    ] as const) {
      const res = await request(t.app)[method](path);
      expectClientError(`${method} ${path}`, res, 405, 'method_not_allowed');
      expect([path, res.headers.allow]).toEqual([path, allow]);
    }
    expectClientError('get', await request(t.app).get('/api/v1/fighters/%ZZ'), 400, 'invalid_path');
    expectClientError('patch', await request(t.app).patch('/api/tv/broadcasts/%ZZ'), 400, 'invalid_path');
  });
});

function isMalformedEscape(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}
