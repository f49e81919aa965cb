import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { sendError } from '../http/http-errors';
import { KeptFile, secureBrowserResponse } from './kept-file';

/**
 * Where `npm run build` puts the studio app (vite build of studio/, docs/studio.md): dist/studio
 * beside the compiled server (dist/ops/..), or, when the server runs from the source tree (tests),
 * the checkout's dist/studio.
 */
export function studioBuildDir(): string | null {
  for (const dir of [join(__dirname, '..', 'studio'), join(__dirname, '..', '..', 'dist', 'studio')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

/** A host as it may appear in a CSP source (no spaces, quotes or semicolons from a forged Host header). */
const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The studio's policy: everything from this origin, nothing inline, no eval, no CDN. The GraphQL
 * subscriptions' WebSocket (graphql-ws on /graphql) is named by its ws: and wss: URLs, as older
 * browsers do not count them in 'self'.
 */
export function studioCsp(host: string | undefined): string {
  const ws = host && SAFE_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const HASHED = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/**
 * GET /studio: the studio web app. Its hashed assets (/studio/assets/*) are cached for a year;
 * index.html is revalidated every time (no-cache), and it answers every other path under /studio
 * so that a reload or a shared link opens the screen it names (the app routes in the browser).
 * The files are read once, on first request, and kept with their gzip encoding.
 */
export function studioRouter(): Router {
  const router = Router();
  let kept: { index: KeptFile; assets: Map<string, KeptFile> } | null = null;
  const load = () => {
    if (kept) return kept;
    const dir = studioBuildDir();
    if (!dir) return null;
    const assets = new Map<string, KeptFile>();
    const assetDir = join(dir, 'assets');
    for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
      assets.set(name, new KeptFile(TYPES[extname(name)] ?? 'application/octet-stream', readFileSync(join(assetDir, name))));
    }
    kept = { index: new KeptFile('html', readFileSync(join(dir, 'index.html'))), assets };
    return kept;
  };

  router.get('/studio/assets/:name', (req: Request, res: Response) => {
    const file = load()?.assets.get(String(req.params.name));
    if (!file) return sendError(res, 404, 'not_found', `no studio asset "${String(req.params.name)}"`);
    file.send(req, res, HASHED, studioCsp(req.headers.host));
  });
  router.get(['/studio', '/studio/{*path}'], (req: Request, res: Response) => {
    const app = load();
    if (!app) {
      secureBrowserResponse(res, studioCsp(req.headers.host));
      return sendError(res, 503, 'studio_not_built', 'the studio app is not built: run npm run build (npm install does it)');
    }
    app.index.send(req, res, 'no-cache', studioCsp(req.headers.host));
  });
  return router;
}
