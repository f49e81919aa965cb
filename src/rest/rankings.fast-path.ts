import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReadContext } from '../domain/catalog/read-context';
import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import { extractToken } from '../http/authenticate';
import { pageLinks } from '../http/page-links';
import type { LimitDecision } from '../http/rate-limiter';
import { requestIdOf } from '../http/request-id';
import type { RequestLog } from '../http/request-log';
import { rateLimitHeaders } from '../http/rate-limit';
import { answerFor, answerWhenReady, MAX_KEPT_URL_LENGTH, writeAnswer, type FastPath, type JsonAnswer, type PreparedJson } from '../http/send-json';
import { VersionedCache } from '../lib/versioned-cache';
import type { ListBody } from './catalog.reader';
import type { PartnerApiDeps } from './partner-api.deps';
import { matchRoute, partnerFastRoutes, rankingsRoute, type FastRoute } from './partner-fast-routes';
import { partnerReadCache } from './read-cache';

/** The fast path of GET /api/v1/rankings alone. */
export function rankingsFastPath(deps: PartnerApiDeps, log: RequestLog) {
  return partnerFastPath(deps, log, [rankingsRoute(deps)]);
}

/** A whole answer kept by URL: the route that made it, its body and its Link header. */
interface KeptAnswer {
  route: FastRoute;
  json: PreparedJson;
  link: string | null;
}

const MAX_KEPT_ANSWERS = 5_000;

/**
 * The hot partner reads (every GET whose answer is a cached body, see partner-fast-routes.ts)
 * with a valid key and a valid query, served without the express router (which costs most of
 * their time; see docs/adr/0005). It runs the same steps with the same components: key, rate
 * limit, scope, parameters, cached body, ETag, Link, request log. Anything else (no key, a bad key
 * or query, an unknown subject, an exhausted limit, a client over its failed-authentication
 * budget) is handed to express untouched, before a request is counted or charged, so every error
 * answer has a single source.
 *
 * A repeated read is answered at once, without a promise: the answer is kept whole by URL (and
 * run and day) until the catalog moves, like the bodies it holds, and the key, the read context
 * and (without a shared store) the rate limiter answer synchronously from memory; with a shared
 * store (Redis) only its decision is awaited. Anything else missing sends the request down the
 * awaited path, which fills what was missing.
 */
export function partnerFastPath(deps: PartnerApiDeps, log: RequestLog, routes: readonly FastRoute[] = partnerFastRoutes(deps)): FastPath {
  const kept = new VersionedCache<KeptAnswer>(partnerReadCache(deps.changes, deps.readCacheTtlMs, MAX_KEPT_ANSWERS));
  const keyOf = (ctx: ReadContext, url: string) => `${ctx.runId}|${ctx.today}|${url}`;

  /** Writes the answer and logs it: every step before it succeeded, the request is counted. */
  const send = (req: IncomingMessage, res: ServerResponse, started: bigint, decision: LimitDecision, route: FastRoute, answer: JsonAnswer, link: string | null) => {
    const reqId = requestIdOf(req);
    // a 304 was given back to the limiter (deliver)
    const head = ['X-Request-Id', reqId, ...rateLimitHeaders(decision, answer.status === 304)];
    if (link !== null) head.push('Link', link);
    writeAnswer(res, answer, head);
    log.answered(req, res, `/api/v1/${route.path}`, started, reqId);
  };

  /** The awaited path: every step may load; a body it renders is kept whole for the next request. */
  const awaited = async (req: IncomingMessage, res: ServerResponse, started: bigint, token: string): Promise<boolean> => {
    const url = req.url ?? '';
    const match = matchRoute(routes, url);
    if (!match) return false;
    const { route } = match;
    let principal: PartnerPrincipal;
    let body: KeptAnswer | null = null;
    let answer: JsonAnswer | null = null;
    try {
      principal = await deps.keys.authenticate(token);
      if (route.scope && !principal.scopes.includes(route.scope)) return false;
      if (route.body) {
        const load = async (): Promise<KeptAnswer> => toKept(route, await route.body!(match.params, match.query), url);
        // longer URLs are answered, not kept whole (their bodies are still cached by the readers)
        if (url.length > MAX_KEPT_URL_LENGTH) body = await load();
        else body = await kept.get(keyOf(await deps.readContext.current(), url), load);
        answer = await answerWhenReady(req, body.json);
      }
    } catch {
      return false;
    }
    const decision = await deps.limiter.consume(`pk:${principal.keyId}`, principal.rateLimitPerMinute).catch(() => null);
    return decision ? decided(req, res, started, principal, decision, route, body, answer) : false;
  };

  /**
   * Once the limiter has decided: an admitted request is counted and answered (a kept body, or
   * /me read after the count); a refused one goes to express, which answers the 429.
   */
  const decided = (req: IncomingMessage, res: ServerResponse, started: bigint, principal: PartnerPrincipal, decision: LimitDecision, route: FastRoute, body: KeptAnswer | null, answer: JsonAnswer | null): boolean | Promise<boolean> => {
    if (!decision.allowed) return false;
    deps.keys.countRequest(principal.keyId);
    if (!body || !answer) return afterCount(req, res, started, principal, decision, route);
    return deliver(req, res, started, decision, route, answer, body.link, `pk:${principal.keyId}`);
  };

  /** A route whose body is read once the request is counted (/me: it includes this request). */
  const afterCount = (req: IncomingMessage, res: ServerResponse, started: bigint, principal: PartnerPrincipal, decision: LimitDecision, route: FastRoute): boolean | Promise<boolean> => {
    const key = `pk:${principal.keyId}`;
    const now = route.bodyAfterCountNow?.(principal);
    const answer = now && answerFor(req, now);
    if (answer) return deliver(req, res, started, decision, route, answer, null, key);
    return (async () => {
      let awaitedAnswer: JsonAnswer;
      try {
        awaitedAnswer = await answerWhenReady(req, now ?? (await route.bodyAfterCount!(principal)));
      } catch {
        await deps.limiter.refund(key).catch(() => undefined);
        return false;
      }
      return deliver(req, res, started, decision, route, awaitedAnswer, null, key);
    })();
  };

  /** Gives a 304 back to the limiter (docs/decisions.md#check-order), then sends. */
  const deliver = (req: IncomingMessage, res: ServerResponse, started: bigint, decision: LimitDecision, route: FastRoute, answer: JsonAnswer, link: string | null, key: string): true | Promise<true> => {
    if (answer.status === 304 && !deps.limiter.refundNow(key)) {
      return deps.limiter.refund(key).catch(() => undefined).then(() => {
        send(req, res, started, decision, route, answer, link);
        return true as const;
      });
    }
    send(req, res, started, decision, route, answer, link);
    return true;
  };

  const toKept = (route: FastRoute, body: PreparedJson | ListBody, url: string): KeptAnswer =>
    'meta' in body ? { route, json: body.json, link: pageLinks(deps.publicUrl, url, body.meta, body.known) } : { route, json: body, link: null };

  /** Routes read after the count with a body that may be ready at once, by exact path. */
  const countedNow = new Map(routes.filter((r) => r.bodyAfterCountNow && !r.path.includes(':')).map((r) => [`/api/v1/${r.path}`, r]));

  return (req, res) => {
    const started = process.hrtime.bigint();
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '';
    if (!url.startsWith('/api/v1/')) return false;
    let token: string;
    let principal: PartnerPrincipal | undefined;
    try {
      // a client over its budget of failed authentications is refused by express, unread
      deps.authFailures.assertRequestAllowed(req);
      token = extractToken(req, true);
      if (!token.startsWith('pk_')) return false;
      principal = deps.keys.peek(token);
    } catch {
      return false;
    }
    const ctx = principal && deps.readContext.peek();
    if (!principal || !ctx) return awaited(req, res, started, token);
    const hit = kept.peek(keyOf(ctx, url));
    const route = hit?.route ?? countedNow.get(url);
    if (!route || (route.scope && !principal.scopes.includes(route.scope))) return awaited(req, res, started, token);
    const answer = hit ? answerFor(req, hit.json) : null;
    if (hit && !answer) return awaited(req, res, started, token);
    const body = hit ?? null;
    const key = `pk:${principal.keyId}`;
    const decision = deps.limiter.consumeNow(key, principal.rateLimitPerMinute);
    if (decision) return decided(req, res, started, principal, decision, route, body, answer);
    // a shared store (Redis): everything else is known, only its decision is awaited
    const known = principal;
    return deps.limiter.consume(key, known.rateLimitPerMinute).then(
      (d) => decided(req, res, started, known, d, route, body, answer),
      () => false,
    );
  };
}
