import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import { extractToken } from '../http/authenticate';
import { assignRequestId } from '../http/request-id';
import type { RequestLog } from '../http/request-log';
import { sendJson, type PreparedJson } from '../http/send-json';
import { queryRecord } from '../http/query-record';
import type { PartnerApiDeps } from './partner-api.deps';

const PATH = '/api/v1/rankings';

/**
 * The hottest partner request, GET /api/v1/rankings with a valid key and a valid query, served
 * without the express router (which costs most of its time; see docs/adr/0005). It runs the same
 * steps with the same components: key, rate limit, scope, parameters, cached body, ETag. Anything
 * else (no key, a bad key or query, an exhausted limit) is handed to express untouched, before a
 * request is counted or charged, so every error answer has a single source.
 */
export function rankingsFastPath(deps: PartnerApiDeps, log: RequestLog) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const started = process.hrtime.bigint();
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(PATH) || (url.length > PATH.length && url[PATH.length] !== '?')) return false;
    let principal: PartnerPrincipal;
    let body: PreparedJson;
    try {
      // a client over its budget of failed authentications is refused by express, unread
      deps.authFailures.assertRequestAllowed(req);
      const token = extractToken(req, true);
      if (!token.startsWith('pk_')) return false;
      principal = await deps.keys.authenticate(token);
      if (!principal.scopes.includes('rankings.read')) return false;
      body = await deps.reader.rankings(queryRecord(url.slice(PATH.length + 1)));
    } catch {
      return false;
    }
    const decision = await deps.limiter.consume(`pk:${principal.keyId}`, principal.rateLimitPerMinute).catch(() => null);
    if (!decision?.allowed) return false;
    deps.keys.countRequest(principal.keyId);
    assignRequestId(req, res);
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    const refundRateLimit = async () => {
      await deps.limiter.refund(`pk:${principal.keyId}`).catch(() => undefined);
      res.setHeader('X-RateLimit-Remaining', String(Math.min(decision.limit, decision.remaining + 1)));
    };
    await sendJson(req, Object.assign(res, { locals: { refundRateLimit } }), body);
    log.answered(req, res, PATH, started);
    return true;
  };
}
