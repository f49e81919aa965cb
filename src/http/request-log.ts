import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Door, Metrics } from '../ops/metrics';
import { rawLineWriter, type Logger } from '../lib/logger';

/** Where each door is mounted; a route template is its mount plus the router's route path. */
const DOORS: ReadonlyArray<{ prefix: string; door: Door }> = [
  { prefix: '/api/v1', door: 'partner' },
  { prefix: '/api/tv', door: 'tv' },
  { prefix: '/graphql', door: 'studio' },
  { prefix: '/internal/ingest', door: 'ingest' },
];
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
  const q = url.search(/[?#]/);
  return q < 0 ? url : url.slice(0, q);
}

export function doorOf(path: string): { door: Door; prefix: string } {
  for (const d of DOORS) {
    if (path === d.prefix || path.startsWith(`${d.prefix}/`)) return d;
  }
  const ops = OPS_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
  return { door: ops ? 'ops' : 'other', prefix: '' };
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
      const id = e.reqId === undefined ? '' : `"req_id":${JSON.stringify(e.reqId)},`;
      this.write(
        `{"level":30,"time":${Date.now()},${id}"door":"${door}","method":${JSON.stringify(e.method)},"path":${JSON.stringify(path)},` +
          `"route":${JSON.stringify(e.route)},"status":${e.status},"ms":${Math.round(seconds * 1e6) / 1e3},"msg":"request"}\n`,
      );
    }
  }

  /** For a fast path, once its answer is sent: the request id is `reqId`, or the one it set on the answer. */
  answered(req: IncomingMessage, res: ServerResponse, route: string, started: bigint, reqId?: string): void {
    const id = reqId ?? res.getHeader('X-Request-Id');
    this.record({ method: req.method ?? 'GET', url: req.url ?? '', route, status: res.statusCode, started, reqId: typeof id === 'string' ? id : undefined });
  }
}
