/**
 * The routing of the declared operations (src/http/operation.ts), both ways into the one pipeline
 * (src/http/pipeline.ts):
 * - `operationEntry`, before express: a request whose method and path name an operation exactly
 *   (literal segments as written, parameters that decode) runs the pipeline at once, without the
 *   express router (which costs most of a cached read's time, docs/adr/0005-rankings-fast-path.md);
 * - `operationRouter`, the express router derived from the same declarations, for everything
 *   looser (a trailing slash, other letter case, a bad escape: 400 `invalid_path`), the 405s with
 *   their `Allow` header, CORS preflights and the door's JSON 404.
 */
import cors from 'cors';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { isPromise } from '../lib/maybe';
import { sendError } from './http-errors';
import { methodNotAllowed, methodNotAllowedOnBadPath } from './method-not-allowed';
import { expressPath, type AnyOperation } from './operation';
import { PUBLIC_EXPOSED_HEADERS } from './pipeline.answer';
import { exchangeOf, runOperation, type Door, type RouteOf } from './pipeline';
import { requestIdOf } from './request-id';
import type { FastPath } from './send-json';

interface Compiled {
  route: RouteOf;
  method: string;
  /** Per segment: the literal, or null for a parameter. */
  segments: (string | null)[];
  names: string[];
}

const routeOf = (door: Door, op: AnyOperation): RouteOf => ({ door, op, label: `${door.base}${expressPath(op.path)}` });

function compile(door: Door): Compiled[] {
  return door.operations.map((op) => {
    const parts = op.path.split('/');
    return {
      route: routeOf(door, op),
      method: op.method,
      segments: parts.map((p) => (p.startsWith('{') ? null : p)),
      names: parts.filter((p) => p.startsWith('{')).map((p) => p.slice(1, -1)),
    };
  });
}

/** Path parameters of an exact match, or null (a literal differs, or a value is empty or does not decode). */
function match(c: Compiled, segments: string[]): Record<string, string> | null {
  if (c.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  let k = 0;
  for (let i = 0; i < segments.length; i++) {
    const literal = c.segments[i];
    if (literal !== null) {
      if (literal !== segments[i]) return null;
      continue;
    }
    let value: string;
    try {
      value = decodeURIComponent(segments[i]);
    } catch {
      return null;
    }
    if (!value) return null;
    params[c.names[k++]] = value;
  }
  return params;
}

/**
 * Before express: runs the pipeline for a request that names an operation exactly. True when it
 * answered at once, a promise when a step had to load, false when express must route it.
 */
export function operationEntry(doors: readonly Door[]): FastPath {
  const tables = doors.map((door) => ({ prefix: `${door.base}/`, base: door.base, compiled: compile(door) }));
  return (req, res) => {
    const url = req.url ?? '';
    const table = tables.find((t) => url.startsWith(t.prefix));
    if (!table) return false;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const q = url.indexOf('?');
    const segments = (q < 0 ? url.slice(table.base.length) : url.slice(table.base.length, q)).split('/');
    for (const c of table.compiled) {
      if (c.method !== method) continue;
      const params = match(c, segments);
      if (!params) continue;
      const done = runOperation(exchangeOf(req, res, c.route, params, requestIdOf(req), url, false));
      return isPromise(done) ? done.then(() => true) : true;
    }
    return false;
  };
}

/** The express router of a door, derived from its operations. `note` says why a method is not allowed (the partner API is read-only). */
export function operationRouter(door: Door, note: string | null): Router {
  const router = Router();
  const byPath = new Map<string, AnyOperation[]>();
  for (const op of door.operations) {
    const path = expressPath(op.path);
    byPath.set(path, [...(byPath.get(path) ?? []), op]);
  }
  // A browser preflights a GET that sends If-None-Match: public paths answer it (not 405).
  const preflighted = [...byPath].filter(([, ops]) => ops.some((op) => op.cors)).map(([path]) => path);
  if (preflighted.length) router.options(preflighted, cors({ methods: ['GET', 'HEAD'], exposedHeaders: PUBLIC_EXPOSED_HEADERS }));
  for (const [path, ops] of byPath) {
    const route = router.route(path);
    for (const op of ops) route[op.method === 'GET' ? 'get' : op.method === 'POST' ? 'post' : 'patch'](viaExpress(routeOf(door, op)));
    route.all(methodNotAllowed(allowOf(ops), note));
  }
  router.use(methodNotAllowedOnBadPath(router, note));
  router.use((req: Request, res: Response) =>
    sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.baseUrl}${req.path}; see ${req.baseUrl}/openapi.json`),
  );
  return router;
}

const VERBS = ['GET', 'HEAD', 'POST', 'PATCH'];

function allowOf(ops: readonly AnyOperation[]): string {
  const methods = new Set(ops.flatMap((op) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method])));
  return VERBS.filter((m) => methods.has(m)).join(', ');
}

function viaExpress(route: RouteOf): RequestHandler {
  return (req, res, next) => {
    const done = runOperation(exchangeOf(req, res, route, req.params as Record<string, string>, req.id, req.originalUrl, true));
    if (isPromise(done)) done.catch(next);
  };
}
