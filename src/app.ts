import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import type { Container } from './container';
import { startupGate, type StartupState } from './startup/startup-state';
import { graphqlRouter } from './graphql/graphql.middleware';
import { accessLog } from './http/access-log';
import { expressTrustProxy } from './http/client-ip';
import { errorHandler } from './http/error-handler';
import { opsRouter } from './ops/ops.router';
import { sendError } from './http/http-errors';
import { requestId } from './http/request-id';
import type { PartnerApiDeps } from './rest/partner-api.deps';
import { partnerApiRouter } from './rest/partner-api.router';
import { CatalogReader } from './rest/catalog.reader';
import { RankingsReader } from './rest/rankings.reader';
import { partnerFastPath } from './rest/rankings.fast-path';
import { ingestRouter } from './tv/ingest.router';
import { tvApiRouter, type TvApiDeps } from './tv/tv-api.router';
import { tvScheduleFastPath } from './tv/tv-schedule.fast-path';
import { TvScheduleReader } from './tv/tv-schedule.reader';

export function partnerApiDeps(c: Container): PartnerApiDeps {
  const base = {
    ...c.queries,
    readContext: c.readContext,
    keys: c.keys,
    limiter: c.limiter,
    authFailures: c.authFailures,
    logger: c.logger,
    publicUrl: c.config.publicUrl,
    readCacheTtlMs: c.config.authCacheTtlMs,
    openApiJson: c.openApiJson,
  };
  const reader = new RankingsReader(base, c.changes);
  return { ...base, reader, catalog: new CatalogReader({ ...base, reader }, c.changes), changes: c.changes };
}

export function tvApiDeps(c: Container): TvApiDeps {
  return {
    queries: c.queries.tv,
    broadcasts: c.services.broadcasts,
    ingest: c.services.ingest,
    channelKeys: c.channelKeys,
    limiter: c.limiter,
    authFailures: c.authFailures,
    logger: c.logger,
    ingestServerUrl: c.config.ingest.serverUrl,
    openApiJson: c.tvOpenApiJson,
    publicPerMinute: c.config.tvPublicPerMinute,
    trustProxy: c.config.trustProxy,
    schedules: new TvScheduleReader(c.queries.tv, c.config.authCacheTtlMs, c.changes, c.config.publicUrl),
  };
}

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The server's request handler: the partner and TV fast paths first, express for everything else.
 * main.ts listens with it and the tests drive it through supertest, so both see the same code.
 * With a start-up state, nothing is served but /healthz and /readyz until the demo is seeded.
 */
export function createHttpHandler(c: Container, options: { startup?: StartupState } = {}): HttpHandler {
  const gate = options.startup ? startupGate(options.startup) : () => false;
  const deps = partnerApiDeps(c);
  const tv = tvApiDeps(c);
  const app = createApp(c, deps, tv);
  const partner = partnerFastPath(deps, c.requestLog);
  const schedules = tvScheduleFastPath({ ...tv, requestLog: c.requestLog });
  return (req, res) => {
    if (gate(req, res)) return;
    const fast = req.url?.startsWith('/api/tv/') ? schedules : partner;
    let handled: boolean | Promise<boolean>;
    try {
      handled = fast(req, res);
    } catch {
      handled = false;
    }
    if (handled === true) return;
    if (handled === false) return void app(req, res);
    handled.then(
      (done) => { if (!done) app(req, res); },
      () => app(req, res),
    );
  };
}

/** Builds the express app; it never listens (supertest and main.ts do). */
export function createApp(c: Container, partnerDeps: PartnerApiDeps = partnerApiDeps(c), tvDeps: TvApiDeps = tvApiDeps(c)): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', expressTrustProxy(c.config.trustProxy));
  app.use(requestId);
  app.use(accessLog(c.requestLog));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await c.orm.em.getConnection().execute('select 1');
      const pending = await c.orm.getMigrator().getPendingMigrations();
      if (pending.length) {
        sendError(res, 503, 'not_ready', `${pending.length} migrations are pending`);
        return;
      }
      // A degraded rate limiter (Redis unreachable, limits kept in memory per instance) still
      // serves every request, so the instance stays ready; the check says so for operators.
      const limiter = c.limiter.health();
      res.json({ status: 'ready', checks: { database: 'ok', rate_limiter: limiter.degraded ? 'degraded: in-memory fallback' : 'ok' } });
    } catch {
      sendError(res, 503, 'not_ready', 'the database is not reachable');
    }
  });

  app.use('/api/v1', partnerApiRouter(partnerDeps));
  app.use('/api/tv', tvApiRouter(tvDeps));
  app.use('/internal/ingest', ingestRouter(c.services.ingest, c.config.ingest.secret));
  app.use('/graphql', graphqlRouter(c));
  app.use(opsRouter(c));

  app.use((req, res) => sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.path}`));
  app.use(errorHandler(c.logger));
  return app;
}
