import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import { extractToken } from '../http/authenticate';
import { setPageLinks } from '../http/page-links';
import { assignRequestId } from '../http/request-id';
import type { RequestLog } from '../http/request-log';
import { sendJson, type PreparedJson } from '../http/send-json';
import type { ListBody } from './catalog.reader';
import type { PartnerApiDeps } from './partner-api.deps';
import { matchRoute, partnerFastRoutes, rankingsRoute, type FastRoute } from './partner-fast-routes';

/** The fast path of GET /api/v1/rankings alone. */
export function rankingsFastPath(deps: PartnerApiDeps, log: RequestLog) {
  return partnerFastPath(deps, log, [rankingsRoute(deps)]);
}

/**
 * The hot partner reads (every GET whose answer is a cached body, see partner-fast-routes.ts)
 * with a valid key and a valid query, served without the express router (which costs most of
 * their time; see docs/adr/0005). It runs the same steps with the same components: key, rate
 * limit, scope, parameters, cached body, ETag, Link, request log. Anything else (no key, a bad key
 * or query, an unknown subject, an exhausted limit, a client over its failed-authentication
 * budget) is handed to express untouched, before a request is counted or charged, so every error
 * answer has a single source.
 */
export function partnerFastPath(deps: PartnerApiDeps, log: RequestLog, routes: readonly FastRoute[] = partnerFastRoutes(deps)) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const started = process.hrtime.bigint();
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const match = matchRoute(routes, req.url ?? '');
    if (!match) return false;
    const { route } = match;
    let principal: PartnerPrincipal;
    let body: PreparedJson | ListBody | null = null;
    try {
      // a client over its budget of failed authentications is refused by express, unread
      deps.authFailures.assertRequestAllowed(req);
      const token = extractToken(req, true);
      if (!token.startsWith('pk_')) return false;
      principal = await deps.keys.authenticate(token);
      if (route.scope && !principal.scopes.includes(route.scope)) return false;
      if (route.body) body = await route.body(match.params, match.query);
    } catch {
      return false;
    }
    const decision = await deps.limiter.consume(`pk:${principal.keyId}`, principal.rateLimitPerMinute).catch(() => null);
    if (!decision?.allowed) return false;
    deps.keys.countRequest(principal.keyId);
    if (!body) {
      try {
        body = await route.bodyAfterCount!(principal);
      } catch {
        await deps.limiter.refund(`pk:${principal.keyId}`).catch(() => undefined);
        return false;
      }
    }
    assignRequestId(req, res);
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    const refundRateLimit = async () => {
      await deps.limiter.refund(`pk:${principal.keyId}`).catch(() => undefined);
      res.setHeader('X-RateLimit-Remaining', String(Math.min(decision.limit, decision.remaining + 1)));
    };
    if ('meta' in body) setPageLinks(res, deps.publicUrl, req.url ?? '', body.meta, body.known);
    await sendJson(req, Object.assign(res, { locals: { refundRateLimit } }), 'meta' in body ? body.json : body);
    log.answered(req, res, `/api/v1/${route.path}`, started);
    return true;
  };
}
