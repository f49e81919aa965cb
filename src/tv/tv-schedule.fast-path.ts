import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientIp, type TrustProxy } from '../http/client-ip';
import type { Logger } from '../lib/logger';
import { assignRequestId } from '../http/request-id';
import type { RequestLog } from '../http/request-log';
import { sendJson, type PreparedJson } from '../http/send-json';
import { queryRecord } from '../http/query-record';
import type { RateLimiter } from '../http/rate-limiter';
import { PUBLIC_EXPOSED_HEADERS } from './tv-api.router';
import type { TvScheduleReader } from './tv-schedule.reader';

const PATHS: Record<string, 'live' | 'upcoming'> = { '/api/tv/live': 'live', '/api/tv/upcoming': 'upcoming' };

/**
 * GET /api/tv/live and /upcoming without the express router (see docs/adr/0005): the same
 * per-IP limiter, the same cached page and the same CORS headers. Anything else (a bad query, an
 * exhausted limit, a preflight) is handed to express before it is charged.
 */
export function tvScheduleFastPath(deps: { schedules: TvScheduleReader; limiter: RateLimiter; publicPerMinute: number; trustProxy: TrustProxy; logger: Logger; requestLog: RequestLog }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const started = process.hrtime.bigint();
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const kind = PATHS[path];
    if (!kind) return false;
    let page: { json: PreparedJson; link: string };
    try {
      page = await deps.schedules.list(kind, q < 0 ? {} : queryRecord(url.slice(q + 1)), url);
    } catch {
      return false;
    }
    const key = `ip:${clientIp(req, deps.trustProxy)}`;
    const decision = await deps.limiter.consume(key, deps.publicPerMinute).catch(() => null);
    if (!decision?.allowed) return false;
    assignRequestId(req, res);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', PUBLIC_EXPOSED_HEADERS.join(','));
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    const refundRateLimit = async () => {
      await deps.limiter.refund(key).catch(() => undefined);
      res.setHeader('X-RateLimit-Remaining', String(Math.min(decision.limit, decision.remaining + 1)));
    };
    res.setHeader('Link', page.link);
    await sendJson(req, Object.assign(res, { locals: { refundRateLimit } }), page.json);
    deps.requestLog.answered(req, res, path, started);
    return true;
  };
}
