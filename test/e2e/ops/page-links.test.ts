import type { Response } from 'supertest';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';
import { buildWorld, KEYS, testClock } from '../../helpers/world';

/**
 * `Link` headers on every paginated list of both APIs, GitHub style: first and last always, prev
 * after page 1, next before the last page; absolute URLs on PUBLIC_URL with the request's own query,
 * only `page` replaced. Every answer is also validated against its OpenAPI document (which declares
 * the header), through getPartner and TvClient.
 */

const PUBLIC_URL = 'https://svc.test';
let t: TestApp;
let tv: TvClient;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock, env: TV_ENV });
  await buildWorld(t.c);
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  for (let i = 0; i < 3; i++) {
    const b = await tv.create(CK.rw, {});
    await tv.create(CK.rw, {});
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
  }
});
afterAll(() => t?.close());

/** rel → URL of a Link header. */
function links(res: Response): Record<string, URL> {
  const header = res.headers.link;
  expect(typeof header).toBe('string');
  const out: Record<string, URL> = {};
  for (const part of String(header).split(',')) {
    const m = /^\s*<([^>]+)>;\s*rel="(\w+)"\s*$/.exec(part);
    expect(m).not.toBeNull();
    out[m![2]] = new URL(m![1]);
  }
  return out;
}

function expectLinks(res: Response, path: string, filters: Record<string, string>, page: number, last: number): void {
  const l = links(res);
  const expected: Record<string, number> = { first: 1, last };
  if (page > 1) expected.prev = page - 1;
  if (page < last) expected.next = page + 1;
  expect(Object.keys(l).sort()).toEqual(Object.keys(expected).sort());
  for (const [rel, target] of Object.entries(expected)) {
    const url = l[rel];
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}${path}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ ...filters, per_page: '1', page: String(target) });
  }
}

/** Page 1, a middle page and the last page of a list with one item a page. */
async function walk(get: (query: string) => Promise<Response>, path: string, filters: Record<string, string>): Promise<void> {
  const query = (page: number) => new URLSearchParams({ ...filters, per_page: '1', page: String(page) }).toString();
  const first = await get(query(1));
  expect(first.status).toBe(200);
  const last = first.body.meta.last_page as number;
  expect(last).toBeGreaterThanOrEqual(3);
  expectLinks(first, path, filters, 1, last);
  expectLinks(await get(query(2)), path, filters, 2, last);
  expectLinks(await get(query(last)), path, filters, last, last);
}

describe('partner API', () => {
  const partner = (path: string) => (query: string) => getPartner(t.app, `${path}?${query}`, KEYS.full);

  test('/fighters, its filters kept', () => walk(partner('/fighters'), '/api/v1/fighters', { disc: 'kickboxing' }));
  test('/events', () => walk(partner('/events'), '/api/v1/events', {}));
  test('/results', () => walk(partner('/results'), '/api/v1/results', { since: '2000-01-01' }));

  test('unknown parameters (ignored by the endpoint) are left out of the links, however long', async () => {
    const res = await getPartner(t.app, `/fighters?disc=kickboxing&junk=${'x'.repeat(5000)}&per_page=1`, KEYS.full);
    expect(res.status).toBe(200);
    for (const url of Object.values(links(res))) expect([...url.searchParams.keys()].sort()).toEqual(['disc', 'page', 'per_page']);
    expect(String(res.headers.link).length).toBeLessThan(1000);
  });

  test('a list without a query still gets first and last (page 1 of 1 has no prev or next)', async () => {
    const res = await getPartner(t.app, '/fighters?q=zzzz-nobody', KEYS.full);
    expect(res.body.meta.last_page).toBe(1);
    expect(Object.keys(links(res)).sort()).toEqual(['first', 'last']);
  });
});

describe('TV API', () => {
  const public$ = (path: string) => (query: string) => tv.get(`${path}?${query}`);

  test('/live (served by the fast path)', () => walk(public$('/live'), '/api/tv/live', {}));
  test('/upcoming', () => walk(public$('/upcoming'), '/api/tv/upcoming', {}));
  test('/channels', () => walk(public$('/channels'), '/api/tv/channels', {}));

  test('browsers may read the Link header of a public answer', async () => {
    const res = await tv.get('/live');
    expect(res.headers['access-control-expose-headers']).toMatch(/\bLink\b/);
  });
});
