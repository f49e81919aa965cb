import request from 'supertest';
import { buildSchema, printSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOC_ASSETS, OWN_ASSETS } from '../../../src/ops/docs-assets';
import { VERIFICATION_RECIPE } from '../../../src/ops/webhooks-reference';
import { sign } from '../../../src/webhooks/signer';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/** /docs, its pages and assets, served from this origin with a CSP that allows only it. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

test.each(['/docs', '/docs/tv', '/docs/webhooks', '/docs/graphql'])('%s names its assets on this origin and sends the security headers', async (path) => {
  const res = await request(t.app).get(path).expect(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = res.headers['content-security-policy'];
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).not.toMatch(/https?:|unsafe-eval/);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.text).not.toMatch(/<script>|<style>|\sstyle=|\son[a-z]+=/);
  for (const src of res.text.matchAll(/(?:src|href)="([^"]+)"/g)) expect(src[1]).toMatch(/^\/docs(\/|$)|^#main$|^data:,$/);
});

test.each([...Object.keys(DOC_ASSETS), ...OWN_ASSETS])('/docs/assets/%s answers 200 with its content type, gzip-encoded when asked', async (name) => {
  const plain = await request(t.app).get(`/docs/assets/${name}`).set('Accept-Encoding', 'identity').expect(200);
  expect(plain.headers['content-type']).toMatch(name.endsWith('.css') ? /^text\/css/ : /^(application|text)\/javascript/);
  expect(plain.headers['content-security-policy']).toBeDefined();
  const gzipped = await request(t.app).get(`/docs/assets/${name}`).set('Accept-Encoding', 'gzip').expect(200);
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(gzipped.headers.vary).toBe('Accept-Encoding');
  expect(gzipped.text).toBe(plain.text);
});

test("the Redoc bundle served asks nothing of Redocly's CDN", async () => {
  const res = await request(t.app).get('/docs/assets/redoc.standalone.js').expect(200);
  expect(res.text).not.toContain('cdn.redoc.ly');
});

test('only the listed assets are served (no path into node_modules)', async () => {
  await request(t.app).get('/docs/assets/package.json').expect(404);
  await request(t.app).get('/docs/assets/..%2F..%2Fpackage.json').expect(404);
  await request(t.app).get('/docs/assets/index.html').expect(404);
  const missing = await request(t.app).get('/docs/assets/swagger-ui.css').expect(404);
  expect(missing.body).toEqual({ error: 'not_found', message: 'no documentation asset "swagger-ui.css"' });
});

test('the GraphQL page reads the SDL the service ships, as an introspection result (introspection is off in production)', async () => {
  const sdl = readFileSync(join(__dirname, '../../../schema/studio.graphql'), 'utf8');
  expect((await request(t.app).get('/docs/studio.graphql').expect(200)).text).toBe(sdl);
  const introspection = (await request(t.app).get('/docs/studio-introspection.json').expect(200)).body;
  const { buildClientSchema } = require('graphql');
  expect(printSchema(buildClientSchema(introspection))).toBe(printSchema(buildSchema(sdl)));
});

test('the webhooks page is an OpenAPI 3.1 document with every event, its headers and its payload', async () => {
  const doc = (await request(t.app).get('/docs/webhooks.json').expect(200)).body;
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.webhooks).sort()).toEqual([
    'broadcast.ended',
    'broadcast.live',
    'broadcast.scheduled',
    'event.sanctioned',
    'licence.issued',
    'licence.suspended',
    'ping',
    'ranking.published',
    'replay.ready',
    'result.verified',
  ]);
  const verified = doc.webhooks['result.verified'].post;
  expect(verified.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['X-SVC-Signature', 'X-SVC-Signature-Timestamped', 'X-SVC-Timestamp']));
  const payload = verified.requestBody.content['application/json'].schema;
  expect(payload.required).toEqual(['id', 'event', 'created_at', 'data']);
  expect(JSON.stringify(payload.properties.data)).toContain('verified_at');
  for (const target of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas[target[1]]).toBeDefined();
  // The page links the AsyncAPI document it is made from, which is served as checked in.
  expect(doc.info.description).toContain('(/docs/webhooks.asyncapi.json)');
  const asyncapi = await request(t.app).get('/docs/webhooks.asyncapi.json').expect(200);
  expect(asyncapi.text).toBe(readFileSync(join(__dirname, '../../../schema/webhooks.asyncapi.json'), 'utf8'));
  expect(verified.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
});

test('the verification recipe on the webhooks page accepts a delivery signed as the service signs, and refuses a forged or stale one', () => {
  const code = /```js\n([\s\S]*?)```/.exec(VERIFICATION_RECIPE)![1];
  const verifiedSource = /function verified[\s\S]*?\n}\n/.exec(code)![0];
  const verified = new Function('crypto', `${verifiedSource}; return verified;`)(require('node:crypto')) as (req: unknown, secret: string) => boolean;
  const secret = 'whsec_recipe-test';
  const text = '{"id":"evt_1","event":"ping","created_at":"2026-11-25T10:00:00Z","data":{}}';
  const request = (timestamp: number, signature: string) => ({
    body: Buffer.from(text),
    get: (name: string) => (({ 'X-SVC-Timestamp': String(timestamp), 'X-SVC-Signature-Timestamped': signature }) as Record<string, string>)[name],
  });
  const now = Math.floor(Date.now() / 1000);
  expect(verified(request(now, sign(secret, text, now).timestamped), secret)).toBe(true);
  expect(verified(request(now, sign(secret, '{"forged":true}', now).timestamped), secret)).toBe(false);
  expect(verified(request(now, sign('whsec_other', text, now).timestamped), secret)).toBe(false);
  expect(verified(request(now - 400, sign(secret, text, now - 400).timestamped), secret)).toBe(false);
});
