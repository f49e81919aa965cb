import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import type { Container } from './container';
import { graphqlRouter } from './graphql/graphql.middleware';
import { accessLog } from './http/access-log';
import { errorHandler } from './http/error-handler';
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
    logger: c.logger,
    publicUrl: c.config.publicUrl,
    readCacheTtlMs: c.config.authCacheTtlMs,
    openApiJson: c.openApiJson,
  };
  return { ...base, reader: new RankingsReader(base), catalog: new CatalogReader(base, c.changes) };
}

export function tvApiDeps(c: Container): TvApiDeps {
  return {
    queries: c.queries.tv,
    broadcasts: c.services.broadcasts,
    ingest: c.services.ingest,
    channelKeys: c.channelKeys,
    limiter: c.limiter,
    logger: c.logger,
    ingestServerUrl: c.config.ingest.serverUrl,
    openApiJson: c.tvOpenApiJson,
    publicPerMinute: c.config.tvPublicPerMinute,
    schedules: new TvScheduleReader(c.queries.tv, c.config.authCacheTtlMs),
  };
}

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The server's request handler: the partner and TV fast paths first, express for everything else.
 * main.ts listens with it and the tests drive it through supertest, so both see the same code.
 */
export function createHttpHandler(c: Container): HttpHandler {
  const deps = partnerApiDeps(c);
  const tv = tvApiDeps(c);
  const app = createApp(c, deps, tv);
  const partner = partnerFastPath(deps, c.logger);
  const schedules = tvScheduleFastPath({ ...tv, trustProxy: c.config.trustProxy });
  return (req, res) => {
    const fast = req.url?.startsWith('/api/tv/') ? schedules : partner;
    fast(req, res).then(
      (handled) => { if (!handled) app(req, res); },
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
  app.set('trust proxy', c.config.trustProxy);
  app.use(requestId);
  app.use(accessLog(c.logger));

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
      res.json({ status: 'ready' });
    } catch {
      sendError(res, 503, 'not_ready', 'the database is not reachable');
    }
  });

  app.use('/api/v1', partnerApiRouter(partnerDeps));
  app.use('/api/tv', tvApiRouter(tvDeps));
  app.use('/internal/ingest', ingestRouter(c.services.ingest, c.config.ingest.secret));
  app.use('/graphql', graphqlRouter(c));

  app.use((req, res) => sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.path}`));
  app.use(errorHandler(c.logger));
  return app;
}
