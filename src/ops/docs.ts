import { dirname, join } from 'node:path';
import { Router, type Response } from 'express';
import { sendError } from '../http/http-errors';

/** swagger-ui-dist ships its assets: served from node_modules, so the page needs no internet. */
const DIST = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-16x16.png', 'favicon-32x32.png']);

export const DOCUMENTS = [
  { url: '/api/v1/openapi.json', name: 'Partner API (/api/v1)' },
  { url: '/api/tv/openapi.json', name: 'TV API (/api/tv)' },
];

/**
 * Everything the page loads comes from this origin; swagger-ui styles elements inline and draws
 * icons as data: images, hence those two allowances. "Try it out" calls the API, same origin.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference: partner API and TV API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/docs.js"></script>
</body>
</html>
`;

// An external script rather than an inline one, so that the CSP needs no 'unsafe-inline' for scripts.
// validatorUrl null: swagger-ui would otherwise send the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(DOCUMENTS)},
  'urls.primaryName': ${JSON.stringify(DOCUMENTS[0].name)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** GET /docs: a browsable reference of both OpenAPI documents, with a selector in the top bar. */
export function docsRouter(): Router {
  const router = Router();
  router.get('/docs', (_req, res) => {
    secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  router.get('/docs/docs.js', (_req, res) => {
    secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('js').send(INIT);
  });
  router.get('/docs/:asset', (req, res, next) => {
    const asset = String(req.params.asset);
    if (!ASSETS.has(asset)) {
      sendError(res, 404, 'not_found', `no documentation asset "${asset}"`);
      return;
    }
    secure(res);
    res.sendFile(join(DIST, asset), { maxAge: '1d', dotfiles: 'deny' }, (err) => { if (err && !res.headersSent) next(err); });
  });
  return router;
}
