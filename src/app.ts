import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import type { Container } from './container';
import { startupGate, type StartupState } from './startup/startup-state';
import { graphqlRouter } from './graphql/graphql.middleware';
import { accessLog } from './http/access-log';
import { expressTrustProxy } from './lib/client-ip';
import { errorHandler } from './http/error-handler';
import { opsRouter } from './ops/ops.router';
import { sendError } from './http/http-errors';
import { operationEntry, operationRouter } from './http/operation-router';
import type { Door } from './http/pipeline';
import { requestId } from './http/request-id';
import type { PartnerApiDeps } from './rest/partner-api.deps';
import { partnerDoor } from './rest/partner-api.door';
import { CatalogReader } from './rest/catalog.reader';
import { RankingsReader } from './rest/rankings.reader';
import { ingestRouter } from './tv/ingest.router';
import { tvDoor, type TvApiDeps } from './tv/tv-api.door';
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
    readCacheTtlMs: c.config.authCacheTtlMs,
    changes: c.changes,
    idempotency: c.idempotency,
  };
}

/** The two REST doors of the request pipeline (src/http/pipeline.ts), with their kept answers. */
export function restDoors(c: Container): { partner: Door<PartnerApiDeps>; tv: Door<TvApiDeps> } {
  return { partner: partnerDoor(partnerApiDeps(c), c.requestLog), tv: tvDoor(tvApiDeps(c), c.requestLog) };
}

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The server's request handler: a request naming a REST operation exactly runs the one pipeline
 * at once (src/http/operation-router.ts), everything else goes through express, whose REST
 * routers run the same pipeline. main.ts listens with it and the tests drive it through
 * supertest, so both see the same code. With a start-up state, nothing is served but /healthz
 * and /readyz until the demo is seeded.
 */
export function createHttpHandler(c: Container, options: { startup?: StartupState } = {}): HttpHandler {
  const gate = options.startup ? startupGate(options.startup) : () => false;
  const doors = restDoors(c);
  const app = createApp(c, doors);
  const entry = operationEntry([doors.partner, doors.tv]);
  return (req, res) => {
    if (gate(req, res)) return;
    const handled = entry(req, res);
    if (handled === false) app(req, res);
  };
}

/** Builds the express app; it never listens (supertest and main.ts do). */
export function createApp(c: Container, doors: ReturnType<typeof restDoors> = restDoors(c)): Express {
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

  app.use('/api/v1', operationRouter(doors.partner, 'the partner API is read-only'));
  app.use('/api/tv', operationRouter(doors.tv, null));
  app.use('/internal/ingest', ingestRouter(c.services.ingest, c.config.ingest.secret));
  app.use('/graphql', graphqlRouter(c));
  app.use(opsRouter(c));

  app.use((req, res) => sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.path}`));
  app.use(errorHandler(c.logger));
  return app;
}
