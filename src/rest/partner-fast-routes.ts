import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import { queryRecord } from '../http/query-record';
import type { PreparedJson } from '../http/send-json';
import type { ListBody } from './catalog.reader';
import type { PartnerApiDeps } from './partner-api.deps';

/** A partner GET the fast path may serve: its express path, scope, and how its body is read. */
export interface FastRoute {
  /** Path under /api/v1, `:name` for a parameter (one segment). */
  path: string;
  /** The scope the express route requires (null: any valid key). */
  scope: string | null;
  /** Read before the request is charged (throws: the request is handed to express). */
  body?: (params: string[], query: Record<string, unknown>) => Promise<PreparedJson | ListBody>;
  /** Read after the request is counted, for bodies that include the count (/me). */
  bodyAfterCount?: (principal: PartnerPrincipal) => Promise<PreparedJson>;
  /** `bodyAfterCount` at once when nothing needs loading; undefined otherwise. */
  bodyAfterCountNow?: (principal: PartnerPrincipal) => PreparedJson | undefined;
}

export interface MatchedRoute {
  route: FastRoute;
  params: string[];
  query: Record<string, unknown>;
}

const PREFIX = '/api/v1/';

export function rankingsRoute(deps: PartnerApiDeps): FastRoute {
  return { path: 'rankings', scope: 'rankings.read', body: (_p, q) => deps.reader.rankings(q) };
}

/** Every partner GET whose answer is a cached body (or /me), with the scopes of partner-api.router.ts. */
export function partnerFastRoutes(deps: PartnerApiDeps): FastRoute[] {
  const c = deps.catalog;
  return [
    rankingsRoute(deps),
    { path: 'divisions', scope: 'rankings.read', body: () => deps.reader.divisionSummaries() },
    { path: 'fighters', scope: 'fighters.read', body: (_p, q) => c.fighters(q) },
    { path: 'fighters/:slug', scope: 'fighters.read', body: ([slug]) => c.fighter(slug) },
    { path: 'events', scope: 'events.read', body: (_p, q) => c.events(q) },
    { path: 'events/:code', scope: 'events.read', body: ([code]) => c.event(code) },
    { path: 'events/:code/results', scope: 'results.read', body: ([code]) => c.eventResults(code) },
    { path: 'results', scope: 'results.read', body: (_p, q) => c.results(q) },
    { path: 'verify/:number', scope: null, body: ([number]) => c.verify(number) },
    { path: 'me', scope: null, bodyAfterCount: (p) => c.me(p), bodyAfterCountNow: (p) => c.meNow(p) },
  ];
}

/**
 * The route a URL names exactly (literal segments as written, non-empty parameters that decode),
 * or null. Anything looser (a trailing slash, other letter case, a bad escape) is left to express.
 */
export function matchRoute(routes: readonly FastRoute[], url: string): MatchedRoute | null {
  if (!url.startsWith(PREFIX)) return null;
  const q = url.indexOf('?');
  const segments = (q < 0 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, q)).split('/');
  for (const route of routes) {
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      if (pattern[i].startsWith(':')) {
        const value = decode(segments[i]);
        ok = value !== null && value.length > 0;
        if (ok) params.push(value!);
      } else {
        ok = pattern[i] === segments[i];
      }
    }
    if (ok) return { route, params, query: q < 0 ? {} : queryRecord(url.slice(q + 1)) };
  }
  return null;
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
