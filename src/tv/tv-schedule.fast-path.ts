import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientIp, type TrustProxy } from '../http/client-ip';
import type { Logger } from '../lib/logger';
import { requestIdOf } from '../http/request-id';
import type { RequestLog } from '../http/request-log';
import { answerFor, answerWhenReady, writeAnswer, type FastPath, type JsonAnswer } from '../http/send-json';
import { rateLimitHeaders } from '../http/rate-limit';
import { queryRecord } from '../http/query-record';
import type { LimitDecision, RateLimiter } from '../http/rate-limiter';
import { PUBLIC_EXPOSED_HEADERS } from './tv-api.router';
import type { ScheduleAnswer, TvScheduleReader } from './tv-schedule.reader';

const PATHS: Record<string, 'live' | 'upcoming'> = { '/api/tv/live': 'live', '/api/tv/upcoming': 'upcoming' };

/**
 * GET /api/tv/live and /upcoming without the express router (see docs/adr/0005): the same
 * per-IP limiter, the same cached page and the same CORS headers. Anything else (a bad query, an
 * exhausted limit, a preflight) is handed to express before it is charged. A repeated poll is
 * answered at once from the reader's answer for that URL when the limiter decides in memory.
 */
export function tvScheduleFastPath(deps: { schedules: TvScheduleReader; limiter: RateLimiter; publicPerMinute: number; trustProxy: TrustProxy; logger: Logger; requestLog: RequestLog }): FastPath {
  const cors = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', PUBLIC_EXPOSED_HEADERS.join(',')];

  const send = (req: IncomingMessage, res: ServerResponse, started: bigint, path: string, decision: LimitDecision, answer: JsonAnswer, link: string) => {
    const reqId = requestIdOf(req);
    writeAnswer(res, answer, ['X-Request-Id', reqId, ...cors, ...rateLimitHeaders(decision, answer.status === 304), 'Link', link]);
    deps.requestLog.answered(req, res, path, started, reqId);
  };

  const awaited = async (req: IncomingMessage, res: ServerResponse, started: bigint, kind: 'live' | 'upcoming', path: string, url: string, q: number): Promise<boolean> => {
    let page: ScheduleAnswer;
    let answer: JsonAnswer;
    try {
      page = await deps.schedules.list(kind, q < 0 ? {} : queryRecord(url.slice(q + 1)), url);
      answer = await answerWhenReady(req, page.json);
    } catch {
      return false;
    }
    const key = `ip:${clientIp(req, deps.trustProxy)}`;
    const decision = await deps.limiter.consume(key, deps.publicPerMinute).catch(() => null);
    if (!decision?.allowed) return false;
    if (answer.status === 304) await deps.limiter.refund(key).catch(() => undefined);
    send(req, res, started, path, decision, answer, page.link);
    return true;
  };

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const started = process.hrtime.bigint();
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const kind = PATHS[path];
    if (!kind) return false;
    const kept = deps.schedules.peek(url);
    const answer = kept && answerFor(req, kept.json);
    if (!kept || !answer) return awaited(req, res, started, kind, path, url, q);
    const key = `ip:${clientIp(req, deps.trustProxy)}`;
    const decision = deps.limiter.consumeNow(key, deps.publicPerMinute);
    if (!decision) return awaited(req, res, started, kind, path, url, q);
    if (!decision.allowed) return false;
    if (answer.status === 304) deps.limiter.refundNow(key);
    send(req, res, started, path, decision, answer, kept.link);
    return true;
  };
}
