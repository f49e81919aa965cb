import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/** /docs and its assets, served from this origin with a CSP that allows only it. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

test('the page names its assets on this origin and sends the security headers', async () => {
  const res = await request(t.app).get('/docs').expect(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = res.headers['content-security-policy'];
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).not.toMatch(/https?:/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  for (const src of res.text.matchAll(/(?:src|href)="([^"]+)"/g)) expect(src[1]).toMatch(/^\/docs\//);
});

test.each([
  ['/docs/swagger-ui.css', /^text\/css/],
  ['/docs/swagger-ui-bundle.js', /^application\/javascript|^text\/javascript/],
  ['/docs/swagger-ui-standalone-preset.js', /^application\/javascript|^text\/javascript/],
  ['/docs/docs.js', /^application\/javascript|^text\/javascript/],
  ['/docs/favicon-32x32.png', /^image\/png/],
])('%s answers 200 with its content type', async (path, type) => {
  const res = await request(t.app).get(path).expect(200);
  expect(res.headers['content-type']).toMatch(type);
  expect(res.headers['content-security-policy']).toBeDefined();
});

test('docs.js lists both OpenAPI documents and never asks the online validator', async () => {
  const res = await request(t.app).get('/docs/docs.js').expect(200);
  expect(res.text).toContain('/api/v1/openapi.json');
  expect(res.text).toContain('/api/tv/openapi.json');
  expect(res.text).toContain('validatorUrl: null');
});

test('only the listed assets are served (no path into node_modules)', async () => {
  await request(t.app).get('/docs/package.json').expect(404);
  await request(t.app).get('/docs/..%2F..%2Fpackage.json').expect(404);
  await request(t.app).get('/docs/index.html').expect(404);
});
