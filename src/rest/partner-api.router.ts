import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import { authenticate, requireScope } from '../http/authenticate';
import { sendError } from '../http/http-errors';
import { methodNotAllowed, methodNotAllowedOnBadPath } from '../http/method-not-allowed';
import { rateLimit } from '../http/rate-limit';
import { prepareJson, sendJson } from '../http/send-json';
import { catalogHandlers } from './catalog.routes';
import type { PartnerApiDeps } from './partner-api.deps';
import { rankingsHandlers } from './rankings.routes';

declare module 'express-serve-static-core' {
  interface Locals {
    partnerPrincipal?: PartnerPrincipal;
  }
}

type Handler = (req: Request, res: Response) => Promise<void>;

/** /api/v1: request flow is key → rate limit → scope → parameters → handler (docs/decisions.md#check-order). */
export function partnerApiRouter(deps: PartnerApiDeps): Router {
  const router = Router();
  const auth = authenticate(async (token, req) => {
    const principal = await deps.keys.authenticate(token);
    deps.keys.countRequest(principal.keyId);
    (req.res as Response).locals.partnerPrincipal = principal;
    return { kind: 'partner', limitKey: `pk:${principal.keyId}`, limitPerMinute: principal.rateLimitPerMinute, scopes: principal.scopes };
  }, { allowApiKeyHeader: true, tokenPrefix: 'pk_', failures: deps.authFailures });
  const limit = rateLimit(deps.limiter, deps.logger, (req) => ({ key: req.principal!.limitKey, limit: req.principal!.limitPerMinute }));
  const wrap = (h: Handler): RequestHandler => (req: Request, res: Response, next: NextFunction) => h(req, res).catch(next);
  const get = (path: string, scope: string | null, handler: Handler) =>
    router.route(path).get(auth, limit, requireScope(scope), wrap(handler)).all(methodNotAllowed('GET, HEAD'));

  const rankings = rankingsHandlers(deps.reader);
  const catalog = catalogHandlers(deps.catalog, deps.publicUrl);
  // Public, but still a GET of the API: it gets an ETag and 304s like every other (docs/decisions.md#etags).
  const openApi = prepareJson(deps.openApiJson);
  router.route('/openapi.json').get(wrap((req, res) => sendJson(req, res, openApi))).all(methodNotAllowed('GET, HEAD'));
  get('/rankings', 'rankings.read', rankings.rankings);
  get('/divisions', 'rankings.read', rankings.divisions);
  get('/fighters', 'fighters.read', catalog.fighters);
  get('/fighters/:slug', 'fighters.read', catalog.fighter);
  get('/events', 'events.read', catalog.events);
  get('/events/:code', 'events.read', catalog.event);
  get('/events/:code/results', 'results.read', catalog.eventResults);
  get('/results', 'results.read', catalog.results);
  get('/verify/:number', null, catalog.verify);
  get('/me', null, catalog.me);
  router.use(methodNotAllowedOnBadPath(router));
  router.use((req, res) => sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.baseUrl}${req.path}; see ${req.baseUrl}/openapi.json`));
  return router;
}
