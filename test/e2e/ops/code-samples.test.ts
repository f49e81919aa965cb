import request from 'supertest';
import { seedDemoIfEmpty } from '../../../src/demo/demo.seed';
import { DEMO_ORIGIN } from '../../../src/lib/openapi-code-samples';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * The curl sample of every operation of both published documents, sent as written (its method,
 * URL, headers and body) to a service holding the demo data: the demo key it shows is accepted,
 * and read operations answer 200, their path examples naming records the demo seeds on any day.
 */

const DOCUMENTS = { partner: require('../../../schema/openapi.json'), tv: require('../../../schema/openapi-tv.json') };

interface Sent {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

/** Reads back what a curl sample sends (the samples' own format: one option per line). */
function parseCurl(source: string): Sent {
  const [first, ...rest] = source.split(' \\\n');
  const m = /^curl(?: -X (\w+))? "([^"]+)"$/.exec(first)!;
  const headers = rest.filter((l) => l.trim().startsWith('-H ')).map((l) => /-H "([^:]+): ([^"]*)"/.exec(l)!.slice(1, 3) as [string, string]);
  const data = rest.find((l) => l.trim().startsWith('-d '));
  const body = data ? data.trim().slice(4, -1).replace(/'\\''/g, "'") : undefined;
  return { method: m[1] ?? 'GET', url: m[2], headers, body };
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedDemoIfEmpty(t.c);
}, 120_000);
afterAll(() => t?.close());

const operations = Object.entries(DOCUMENTS).flatMap(([name, doc]) =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([, op]) => op['x-codeSamples'])
      .map(([method, op]) => [`${name} ${method.toUpperCase()} ${path}`, op] as const),
  ),
);

test.each(operations)('%s: its curl sample is accepted as written', async (_name, op) => {
  const sent = parseCurl(op['x-codeSamples'][0].source);
  expect(sent.url.startsWith(DEMO_ORIGIN)).toBe(true);
  let req = request(t.app)[sent.method.toLowerCase() as 'get'](sent.url.slice(DEMO_ORIGIN.length));
  for (const [header, value] of sent.headers) req = req.set(header, value);
  if (sent.body !== undefined) req = req.send(sent.body);
  const res = await req;
  // Every path example names a record the demo holds on any day (src/demo/demo-records.ts): no
  // 404, reads answer 200, and a list read shows what the demo holds (not an empty page).
  expect([400, 401, 403, 404, 405, 415, 422]).not.toContain(res.status);
  if (sent.method !== 'GET') return;
  expect({ url: sent.url, status: res.status, error: res.body?.error }).toEqual({ url: sent.url, status: 200, error: undefined });
  if (Array.isArray(res.body.data)) expect({ url: sent.url, items: res.body.data.length > 0 }).toEqual({ url: sent.url, items: true });
});

/** The requests of the Postman collections (schema/postman/), with the collections' own variables. */
const COLLECTIONS = {
  partner: require('../../../schema/postman/partner-api.postman_collection.json'),
  tv: require('../../../schema/postman/tv-api.postman_collection.json'),
};

function requestsOf(items: any[]): any[] {
  return items.flatMap((i) => (i.item ? requestsOf(i.item) : [i.request]));
}

const postman = Object.entries(COLLECTIONS).flatMap(([name, collection]) =>
  requestsOf(collection.item).map((r) => [`${name} ${r.method} /${r.url.path.join('/')}`, collection, r] as const),
);

test.each(postman)('Postman: %s is accepted as the collection sends it', async (_name, collection, r) => {
  const vars = Object.fromEntries(collection.variable.map((v: any) => [v.key, v.value]));
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => vars[key]);
  const path = r.url.path
    .map((segment: string) => (segment.startsWith(':') ? encodeURIComponent(r.url.variable.find((v: any) => v.key === segment.slice(1)).value) : segment))
    .join('/');
  const query = (r.url.query ?? [])
    .filter((q: any) => !q.disabled)
    .map((q: any) => `${q.key}=${encodeURIComponent(fill(q.value))}`)
    .join('&');
  const url = `${fill(r.url.host.join(''))}/${path}${query ? `?${query}` : ''}`;
  expect(url.startsWith(DEMO_ORIGIN)).toBe(true);
  let req = request(t.app)[r.method.toLowerCase() as 'get'](url.slice(DEMO_ORIGIN.length));
  for (const h of (r.header ?? []).filter((x: any) => !x.disabled && x.key !== 'If-None-Match')) req = req.set(h.key, fill(h.value));
  const auth = r.auth === undefined || r.auth === null ? collection.auth : r.auth;
  if (auth?.type === 'bearer') req = req.set('Authorization', `Bearer ${fill(auth.bearer.find((b: any) => b.key === 'token').value)}`);
  if (r.body?.mode === 'raw') req = req.set('Content-Type', 'application/json').send(fill(r.body.raw));
  const res = await req;
  expect([400, 401, 403, 404, 405, 415]).not.toContain(res.status);
  if (r.method === 'GET') expect({ url, status: res.status, error: res.body?.error }).toEqual({ url, status: 200, error: undefined });
});
