import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Door, Metrics } from '../ops/metrics';
import { rawLineWriter, type Logger } from '../lib/logger';

/** Where each door is mounted; a route template is its mount plus the router's route path. */
const DOORS: ReadonlyArray<{ prefix: string; door: Door; under: string }> = [
  { prefix: '/api/v1', door: 'partner' as const },
  { prefix: '/api/tv', door: 'tv' as const },
  { prefix: '/graphql', door: 'studio' as const },
  { prefix: '/internal/ingest', door: 'ingest' as const },
].map((d) => ({ ...d, under: `${d.prefix}/` }));
const OPS_PATHS = ['/healthz', '/readyz', '/metrics', '/docs'];

/** The route label of a request that matched no route (a 404): never the raw path, which is unbounded. */
export const UNMATCHED = '(unmatched)';

export interface RequestEntry {
  method: string;
  /** The URL as the client sent it (IncomingMessage.url or express's originalUrl); its query is dropped here. */
  url: string;
  /** The route template (`/api/v1/fighters/:slug`), or null when no route matched. */
  route: string | null;
  status: number;
  /** process.hrtime.bigint() when the request arrived. */
  started: bigint;
  reqId: string | undefined;
}

/** The full path without the query string, which may carry a partner's search terms. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  const h = url.indexOf('#');
  const end = q < 0 ? h : h < 0 ? q : Math.min(q, h);
  return end < 0 ? url : url.slice(0, end);
}

export function doorOf(path: string): { door: Door; prefix: string } {
  for (const d of DOORS) {
    if (path === d.prefix || path.startsWith(d.under)) return d;
  }
  const ops = OPS_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
  return { door: ops ? 'ops' : 'other', prefix: '' };
}

/** Printable ASCII without a double quote or a backslash: JSON writes such a string as it is, between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string as JSON: quoted at once when nothing in it needs escaping (ids, methods, paths, routes), else JSON.stringify. */
function quoted(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

/**
 * The one place a request is logged and counted, called by the express access log and by the fast
 * paths that answer without express: one line and one observation per request, on every door.
 * The line carries no header and no query string, so no key, token or search term reaches the log.
 */
export class RequestLog {
  private readonly write: (line: string) => void;

  constructor(
    private readonly logger: Logger,
    private readonly metrics: Metrics | null,
  ) {
    this.write = rawLineWriter(logger);
  }

  record(e: RequestEntry): void {
    const path = pathOf(e.url);
    const { door } = doorOf(path);
    const seconds = Number(process.hrtime.bigint() - e.started) / 1e9;
    this.metrics?.request(door, e.method, e.route ?? UNMATCHED, e.status, seconds);
    if (this.logger.isLevelEnabled('info')) {
      // the record pino would write for logger.info({ req_id, door, method, path, route, status, ms }, 'request'), built directly
      const id = e.reqId === undefined ? '' : `"req_id":${quoted(e.reqId)},`;
      this.write(
        `{"level":30,"time":${Date.now()},${id}"door":"${door}","method":${quoted(e.method)},"path":${quoted(path)},` +
          `"route":${e.route === null ? 'null' : quoted(e.route)},"status":${e.status},"ms":${Math.round(seconds * 1e6) / 1e3},"msg":"request"}\n`,
      );
    }
  }

  /** For a fast path, once its answer is sent: the request id is `reqId`, or the one it set on the answer. */
  answered(req: IncomingMessage, res: ServerResponse, route: string, started: bigint, reqId?: string): void {
    const id = reqId ?? res.getHeader('X-Request-Id');
    this.record({ method: req.method ?? 'GET', url: req.url ?? '', route, status: res.statusCode, started, reqId: typeof id === 'string' ? id : undefined });
  }
}
