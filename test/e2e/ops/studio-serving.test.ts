import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { studioBuildDir } from '../../../src/ops/studio';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * /studio: the studio web app's files as the service serves them (docs/studio.md#serving): index.html
 * revalidated, hashed assets cached for a year, every client route answered with index.html, a
 * strict CSP naming this origin's WebSocket, and no inline script for the CSP to allow.
 */
const ROOT = join(__dirname, '..', '..', '..');
let t: TestApp;
let index: string;

beforeAll(async () => {
  if (!studioBuildDir()) execFileSync('npm', ['run', '-s', 'build:studio'], { cwd: ROOT, stdio: 'inherit' });
  index = readFileSync(join(studioBuildDir()!, 'index.html'), 'utf8');
  t = await startTestApp();
}, 120_000);
afterAll(() => t?.close());

const assets = () => [...index.matchAll(/(?:src|href)="(\/studio\/assets\/[^"]+)"/g)].map((m) => m[1]);

describe('GET /studio', () => {
  it('answers index.html, revalidated every time, under a CSP of this origin only (its ws: URL named)', async () => {
    const res = await request(t.app).get('/studio').set('Host', 'studio.example:8080').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toBe(index);
    const csp = res.headers['content-security-policy'];
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self' ws://studio.example:8080 wss://studio.example:8080",
        "frame-ancestors 'none'",
      ]),
    );
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it.each(['/studio/', '/studio/sign-in', '/studio/channels/demo-tv/broadcasts/2b0d7c1e-0000-4000-8000-000000000000', '/studio/channels/demo-tv/webhooks'])(
    '%s (a client route, on reload) is index.html',
    async (path) => {
      const res = await request(t.app).get(path).expect(200);
      expect(res.text).toBe(index);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('index.html runs no inline script: every script is a file of this origin', () => {
    const scripts = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/studio\/assets\/[^"]+"/);
      expect(body.trim()).toBe('');
    }
    expect(index).not.toMatch(/https?:\/\//);
  });

  it('serves the hashed assets cached for a year (immutable), gzipped on request', async () => {
    expect(assets().length).toBeGreaterThanOrEqual(2);
    for (const path of assets()) {
      const res = await request(t.app).get(path).set('Accept-Encoding', 'gzip').expect(200);
      expect(path).toMatch(/-[A-Za-z0-9_-]{8}\.(js|css)$/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['content-type']).toMatch(path.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
  });

  it('an unknown asset is a 404 JSON error, not the app', async () => {
    const res = await request(t.app).get('/studio/assets/index-00000000.js').expect(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'no studio asset "index-00000000.js"' });
  });

  it('a forged Host header cannot widen the CSP', async () => {
    const res = await request(t.app).get('/studio').set('Host', "evil.example; script-src 'unsafe-inline'").expect(200);
    expect(res.headers['content-security-policy']).toContain("connect-src 'self'; ");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
  });
});
