import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { sendError } from '../http/http-errors';
import { OWN_ASSETS, readAsset } from './docs-assets';
import { KeptFile } from './kept-file';
import { DOCS_PAGES, renderPage } from './docs-pages';
import { webhooksReference } from './webhooks-reference';

const SCHEMA_DIR = join(__dirname, '..', '..', 'schema');

/**
 * Everything a page loads comes from this origin. Redoc and GraphiQL style elements inline
 * (styled-components, CodeMirror) and draw icons as data: images; Redoc runs its search index in
 * a worker it makes from a blob. Scripts: files from 'self' only, no inline script, no eval.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The webhook events' AsyncAPI document, generated from the event catalog by `npm run schema`. */
const readAsyncApi = () => readFileSync(join(SCHEMA_DIR, 'webhooks.asyncapi.json'), 'utf8');

/** Bodies made once and kept, with their gzip encoding (the bundles are about a megabyte), sent under the docs' CSP. */
class Kept extends KeptFile {
  send(req: Request, res: Response, cache: string): void {
    super.send(req, res, cache, CSP);
  }
}

const json = (value: unknown) => new Kept('json', Buffer.from(JSON.stringify(value)));

/**
 * GET /docs: the partner API's reference; /docs/tv, /docs/webhooks and /docs/graphql the others,
 * with their assets under /docs/assets (docs/adr/0011-api-reference.md).
 */
export function docsRouter(): Router {
  const router = Router();
  const pages = new Map(DOCS_PAGES.map((p) => [p.path, new Kept('html', Buffer.from(renderPage(p)))]));
  const sdl = readFileSync(join(SCHEMA_DIR, 'studio.graphql'), 'utf8');
  const generated = new Map<string, () => Kept>([
    ['/docs/webhooks.json', () => json(webhooksReference(JSON.parse(readAsyncApi())))],
    ['/docs/webhooks.asyncapi.json', () => new Kept('json', Buffer.from(readAsyncApi()))],
    ['/docs/studio-introspection.json', () => json(introspectionFromSchema(buildSchema(sdl)))],
    ['/docs/studio.graphql', () => new Kept('text/plain; charset=utf-8', Buffer.from(sdl))],
  ]);
  const made = new Map<string, Kept>();
  const assets = new Map<string, Kept>();

  router.get(['/docs', '/docs/tv', '/docs/webhooks', '/docs/graphql'], (req, res) => pages.get(req.path.replace(/\/$/, ''))!.send(req, res, 'no-cache'));
  router.get([...generated.keys()], (req, res) => {
    if (!made.has(req.path)) made.set(req.path, generated.get(req.path)!());
    made.get(req.path)!.send(req, res, 'no-cache');
  });
  router.get('/docs/assets/:asset', (req, res) => {
    const name = String(req.params.asset);
    if (!assets.has(name)) {
      const body = readAsset(name);
      if (!body) {
        sendError(res, 404, 'not_found', `no documentation asset "${name}"`);
        return;
      }
      assets.set(name, new Kept(name.split('.').pop()!, body));
    }
    // Package files change only with the package: a day. Ours may change with any release.
    assets.get(name)!.send(req, res, OWN_ASSETS.includes(name) ? 'no-cache' : 'public, max-age=86400');
  });
  return router;
}
