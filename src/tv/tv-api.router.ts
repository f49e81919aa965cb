import cors from 'cors';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { BroadcastService } from '../domain/channels/broadcast.service';
import type { ChannelKeyAuthenticator, ChannelPrincipal } from '../domain/channels/channel-key-authenticator';
import type { IngestService } from '../domain/channels/ingest.service';
import type { TvQueries } from '../domain/channels/tv.queries';
import { notFound } from '../domain/errors';
import { authenticate, requireScope, type AuthFailureGuard } from '../http/authenticate';
import { clientIp, type TrustProxy } from '../http/client-ip';
import { sendError } from '../http/http-errors';
import type { Logger } from '../lib/logger';
import { rateLimit } from '../http/rate-limit';
import { prepareJson, sendJson } from '../http/send-json';
import type { RateLimiter } from '../http/rate-limiter';
import { methodNotAllowed as partnerMethodNotAllowed, methodNotAllowedOnBadPath } from '../http/method-not-allowed';
import type { TvScheduleReader } from './tv-schedule.reader';
import { presentBroadcast, presentPublicBroadcast, rowOf } from '../domain/channels/broadcast.view';
import { readBroadcastBody } from './broadcast-body';

export interface TvApiDeps {
  queries: TvQueries;
  broadcasts: BroadcastService;
  ingest: IngestService;
  channelKeys: ChannelKeyAuthenticator;
  limiter: RateLimiter;
  authFailures: AuthFailureGuard;
  /** Which peers may name the client in X-Forwarded-For (the public per-IP limit). */
  trustProxy: TrustProxy;
  logger: Logger;
  ingestServerUrl: string;
  openApiJson: string;
  /** Requests per minute per client IP on the public endpoints (60). */
  publicPerMinute: number;
  schedules: TvScheduleReader;
}

/** Headers browsers may read from public answers (shared with the fast path). */
export const PUBLIC_EXPOSED_HEADERS = ['ETag', 'Link', 'X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];

declare module 'express-serve-static-core' {
  interface Locals {
    channelPrincipal?: ChannelPrincipal;
  }
}

const CHANNEL_KEY_PER_MINUTE = 120;
// The TV API writes, so the partner API's "read-only" note does not apply to its 405s.
const methodNotAllowed = (allow: string) => partnerMethodNotAllowed(allow, null);
type Handler = (req: Request, res: Response) => Promise<void>;
const wrap = (h: Handler): RequestHandler => (req, res, next) => h(req, res).catch(next);

/** JSON bodies only, at most 64 KiB (docs/decisions.md#broadcast-create): 415 for anything else, 413 past the limit, 400 if malformed. */
function jsonBody(): RequestHandler[] {
  return [
    (req, res, next) => {
      if (!req.is('application/json')) {
        sendError(res, 415, 'unsupported_media_type', 'send the body as JSON with "Content-Type: application/json"');
        return;
      }
      next();
    },
    express.json({ limit: '64kb', strict: false }),
  ];
}

/** /api/tv: the public schedule (no key, per-IP limit, CORS) and channel automation (channel keys). */
export function tvApiRouter(deps: TvApiDeps): Router {
  const router = Router();
  const publicLimit = rateLimit(deps.limiter, deps.logger, (req) => ({ key: `ip:${clientIp(req, deps.trustProxy)}`, limit: deps.publicPerMinute }));
  const publicCors = cors({ methods: ['GET', 'HEAD'], exposedHeaders: PUBLIC_EXPOSED_HEADERS });
  const publicDoor = [publicCors, publicLimit];
  const auth = authenticate(async (token, req) => {
    const principal = await deps.channelKeys.authenticate(token);
    (req.res as Response).locals.channelPrincipal = principal;
    return { kind: 'channel', limitKey: `ck:${principal.keyId}`, limitPerMinute: CHANNEL_KEY_PER_MINUTE, scopes: principal.scopes };
  }, { allowApiKeyHeader: false, tokenPrefix: 'ck_', failures: deps.authFailures });
  const keyLimit = rateLimit(deps.limiter, deps.logger, (req) => ({ key: req.principal!.limitKey, limit: req.principal!.limitPerMinute }));
  const channel = (scope: string) => [auth, keyLimit, requireScope(scope)];
  const me = (res: Response) => res.locals.channelPrincipal!;
  const show = (res: Response, status: number, r: { broadcast: Parameters<typeof rowOf>[0]; streamKey?: string }) => {
    res.status(status).json({ data: presentBroadcast(rowOf(r.broadcast), deps.ingestServerUrl, r.streamKey) });
  };

  // A browser preflights a GET that sends If-None-Match: the public endpoints answer it (not 405).
  router.options(['/openapi.json', '/live', '/upcoming', '/channels', '/channels/:slug', '/broadcasts/:ref'], publicCors);
  const openApi = prepareJson(deps.openApiJson);
  router.route('/openapi.json').get(cors(), wrap((req, res) => sendJson(req, res, openApi))).all(methodNotAllowed('GET, HEAD'));
  router.route('/live').get(...publicDoor, wrap(async (req, res) => {
    const page = await deps.schedules.list('live', req.query as Record<string, unknown>, req.originalUrl);
    res.setHeader('Link', page.link);
    await sendJson(req, res, page.json);
  })).all(methodNotAllowed('GET, HEAD'));
  router.route('/upcoming').get(...publicDoor, wrap(async (req, res) => {
    const page = await deps.schedules.list('upcoming', req.query as Record<string, unknown>, req.originalUrl);
    res.setHeader('Link', page.link);
    await sendJson(req, res, page.json);
  })).all(methodNotAllowed('GET, HEAD'));
  router.route('/channels').get(...publicDoor, wrap(async (req, res) => {
    const page = await deps.schedules.list('channels', req.query as Record<string, unknown>, req.originalUrl);
    res.setHeader('Link', page.link);
    await sendJson(req, res, page.json);
  })).all(methodNotAllowed('GET, HEAD'));
  router.route('/channels/:slug').get(...publicDoor, wrap(async (req, res) => {
    const c = await deps.queries.channel(String(req.params.slug));
    if (!c) throw notFound('channel');
    await sendJson(req, res, { data: { slug: c.slug, name: c.name, live: c.live.map(presentPublicBroadcast), upcoming: c.upcoming.map(presentPublicBroadcast), replays: c.replays.map(presentPublicBroadcast) } });
  })).all(methodNotAllowed('GET, HEAD'));

  router.route('/me').get(...channel('read'), wrap(async (req, res) => {
    const { channel: c, broadcasts } = await deps.queries.me(me(res));
    const p = me(res);
    await sendJson(req, res, { data: {
      channel: { slug: c.slug, name: c.name, plan: c.plan, billing_state: c.billing_state, approved: c.approved, live_slots: { used: c.live_used, total: c.live_total } },
      key: { name: p.keyName, prefix: p.keyPrefix, scopes: p.scopes },
      broadcasts: broadcasts.map((b) => presentBroadcast(b, deps.ingestServerUrl)),
    } });
  })).all(methodNotAllowed('GET, HEAD'));
  router.route('/broadcasts').post(...channel('broadcasts:write'), ...jsonBody(), wrap(async (req, res) => {
    const principal = me(res);
    const r = await deps.broadcasts.create(principal, principal.channelId, readBroadcastBody(req.body, 'create'));
    // the channel's path of the broadcast (PATCH, go-live, end, health); the public page is by slug
    res.setHeader('Location', `${req.baseUrl}/broadcasts/${r.broadcast.id}`);
    show(res, 201, r);
  })).all(methodNotAllowed('POST'));
  router.route('/broadcasts/:ref')
    .get(...publicDoor, wrap(async (req, res) => {
      const b = await deps.queries.broadcastBySlug(String(req.params.ref));
      if (!b) throw notFound('broadcast');
      await sendJson(req, res, { data: presentPublicBroadcast(b) });
    }))
    .patch(...channel('broadcasts:write'), ...jsonBody(), wrap(async (req, res) => {
      show(res, 200, await deps.broadcasts.update(me(res), String(req.params.ref), readBroadcastBody(req.body, 'update')));
    }))
    .all(methodNotAllowed('GET, HEAD, PATCH'));
  const action = (path: string, run: (principal: ChannelPrincipal, id: string) => Promise<{ broadcast: Parameters<typeof rowOf>[0]; streamKey?: string }>) =>
    router.route(`/broadcasts/:id/${path}`).post(...channel('broadcasts:write'), wrap(async (req, res) => {
      show(res, 200, await run(me(res), String(req.params.id)));
    })).all(methodNotAllowed('POST'));
  action('go-live', async (p, id) => ({ broadcast: await deps.broadcasts.goLive(p, id) }));
  action('end', async (p, id) => ({ broadcast: await deps.broadcasts.end(p, id) }));
  action('rotate-stream-key', (p, id) => deps.broadcasts.rotateStreamKey(p, id));
  router.route('/broadcasts/:id/health').get(...channel('read'), wrap(async (req, res) => {
    await sendJson(req, res, { data: await deps.ingest.health(me(res), String(req.params.id)) });
  })).all(methodNotAllowed('GET, HEAD'));

  router.use(methodNotAllowedOnBadPath(router, null));
  router.use((req: Request, res: Response, _next: NextFunction) => sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.baseUrl}${req.path}; see ${req.baseUrl}/openapi.json`));
  return router;
}
