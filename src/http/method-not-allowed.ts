import type { ErrorRequestHandler, RequestHandler } from 'express';
import { sendError } from './http-errors';

/** A 405 with its Allow header; `note` says why, e.g. that the partner API is read-only. */
export function methodNotAllowed(allow: string, note: string | null = 'the partner API is read-only'): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allow);
    sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here${note ? `; ${note}` : ''} (allowed: ${allow})`);
  };
}

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): unknown;
}

const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A path value that is not valid percent-encoding is a 400 `invalid_path`, but only for a method
 * its path serves: express decodes path values while it matches routes, before a route's 405
 * handler can run, so a method the path does not serve got the 400 instead of its 405. Installed
 * as an error handler at the end of a router, this answers those with the route's 405.
 */
export function methodNotAllowedOnBadPath(router: { stack: unknown[] }, note?: string | null): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (!(err instanceof URIError)) {
      next(err);
      return;
    }
    // the same path with every "%" escaped decodes, and has the same segments
    const path = req.path.replace(/%/g, '%25');
    const allowed = new Set<string>();
    for (const layer of router.stack as RouteLayer[]) {
      if (!layer.route || !layer.match(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') allowed.add(method.toUpperCase());
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.size === 0 || allowed.has(req.method.toUpperCase())) {
      next(err);
      return;
    }
    methodNotAllowed(VERBS.filter((m) => allowed.has(m)).join(', '), note)(req, res, next);
  };
}
