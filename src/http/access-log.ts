import type { NextFunction, Request, Response } from 'express';
import { doorOf, pathOf, type RequestLog } from './request-log';

/**
 * Express's side of the request log: one line per request when its answer is over, with the
 * full path (not the router-relative req.path) and the route template. The template is the door's
 * mount plus the matched route's path; without a matched route it is the door's mount for the
 * doors that route inside a single middleware (/graphql), and null for a 404.
 */
export function accessLog(log: RequestLog) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // 'close' comes after 'finish', and also when the client goes away first: logged as 499, as nginx does.
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 499;
      log.record({ method: req.method, url: req.originalUrl, route: routeOf(req, status), status, started, reqId: req.id });
    });
    next();
  };
}

function routeOf(req: Request, status: number): string | null {
  const { prefix } = doorOf(pathOf(req.originalUrl));
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') return `${prefix}${route.path === '/' && prefix ? '' : route.path}`;
  return status !== 404 && prefix ? prefix : null;
}
