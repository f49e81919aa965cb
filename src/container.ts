import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import Redis from 'ioredis';
import type { Config } from './config/config';
import { LocalChangeFeed, type ChangeFeed } from './db/change-feed';
import { attachChangeFeed } from './db/announce-change';
import { EventQueries } from './domain/catalog/events.queries';
import { FighterQueries } from './domain/catalog/fighters.queries';
import { RankingQueries } from './domain/catalog/rankings.queries';
import { ReadContextProvider } from './domain/catalog/read-context';
import { ResultFeedQueries } from './domain/catalog/result-feed.queries';
import { pooledReadSql } from './domain/catalog/read-model/read-sql';
import { VerificationQueries } from './domain/catalog/verification.queries';
import { changeEffects } from './domain/change-effects';
import { systemClock, type Clock } from './domain/clock';
import { broadcastStorage } from './domain/channels/broadcast.repository';
import { BroadcastService } from './domain/channels/broadcast.service';
import { ChannelKeyAuthenticator } from './domain/channels/channel-key-authenticator';
import { channelStorage } from './domain/channels/channel.repository';
import { ChannelService } from './domain/channels/channel.service';
import { IngestService } from './domain/channels/ingest.service';
import { ingestStorage } from './domain/channels/ingest.repository';
import { StudioUserService } from './domain/channels/studio-user.service';
import { studioUserStorage } from './domain/channels/studio-user.repository';
import { StudioAuthService } from './domain/studio/studio-auth.service';
import { studioSessionStorage } from './domain/studio/studio-session.repository';
import { StudioQueries } from './domain/channels/studio.queries';
import { UnitOfWork } from './domain/unit-of-work';
import { TvQueries } from './domain/channels/tv.queries';
import { EventService } from './domain/events/event.service';
import { FighterService } from './domain/fighters/fighter.service';
import { KeyAuthenticator } from './domain/partners/key-authenticator';
import { PartnerService } from './domain/partners/partner.service';
import { ReferenceService } from './domain/reference/reference.service';
import { RankingService } from './domain/rankings/ranking.service';
import { ResultService } from './domain/results/result.service';
import { AuthFailureGuard } from './http/authenticate';
import { createLogger, type Logger } from './lib/logger';
import { createRateLimiter, type RateLimiter } from './http/rate-limiter';
import { RequestLog } from './http/request-log';
import { Metrics } from './ops/metrics';
import { ChannelWebhookService } from './webhooks/channel-webhook.service';
import { channelWebhookStorage } from './webhooks/channel-webhook.repository';
import { DeliveryLogService } from './webhooks/delivery-log.service';
import { Outbox } from './webhooks/outbox';
import { WebhookEndpointService } from './webhooks/webhook-endpoint.service';
import { WebhookPayloads } from './webhooks/webhook-payloads';
import type { HostResolver } from './webhooks/ssrf-guard';
import { IdempotencyKeys } from './domain/idempotency/idempotency-keys';

export interface Container {
  config: Config;
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
  redis: Redis | null;
  limiter: RateLimiter;
  /** What changed, heard from every instance: caches that must not serve stale answers depend on it. */
  changes: ChangeFeed;
  /** Prometheus metrics (served at /metrics) and the request log that feeds them. */
  metrics: Metrics;
  requestLog: RequestLog;
  /** Failed authentications per client IP, shared by every door. */
  authFailures: AuthFailureGuard;
  /** Idempotency keys of the TV API's POSTs and the studio's create mutations. */
  idempotency: IdempotencyKeys;
  services: {
    fighters: FighterService;
    events: EventService;
    results: ResultService;
    rankings: RankingService;
    partners: PartnerService;
    reference: ReferenceService;
    webhooks: WebhookEndpointService;
    deliveries: DeliveryLogService;
    /** A channel's webhook endpoints and delivery log, for studio users (docs/decisions.md#studio-schema). */
    channelWebhooks: ChannelWebhookService;
    channels: ChannelService;
    broadcasts: BroadcastService;
    ingest: IngestService;
    studioUsers: StudioUserService;
    studioAuth: StudioAuthService;
  };
  /** The one unit of work every write states its change to (read model, change feed, outbox). */
  uow: UnitOfWork;
  outbox: Outbox;
  queries: {
    rankings: RankingQueries;
    fighters: FighterQueries;
    events: EventQueries;
    results: ResultFeedQueries;
    verification: VerificationQueries;
    tv: TvQueries;
    studio: StudioQueries;
  };
  channelKeys: ChannelKeyAuthenticator;
  tvOpenApiJson: string;
  readContext: ReadContextProvider;
  keys: KeyAuthenticator;
  openApiJson: string;
  close(): Promise<void>;
}

export interface ContainerOptions {
  clock?: Clock;
  logger?: Logger;
  /** The rate limiter's clock, Unix milliseconds (tests move it by hand); the real one otherwise. */
  limiterNow?: () => number;
  /**
   * The change feed (src/db/listen-change-feed.ts) when other processes write to the same
   * database; by default only this process's own writes are heard. The container closes it.
   */
  changes?: ChangeFeed;
  /** How webhook target names are resolved at registration (tests inject one); the system's otherwise. */
  resolveHost?: HostResolver;
}

/**
 * Redis must fail fast, never hold a request: a command that gets no answer within the timeout
 * fails, and while disconnected commands fail at once (no offline queue) as the client
 * reconnects in the background. The rate limiter then decides in memory (see rate-limiter.ts).
 */
const REDIS_OPTIONS = {
  commandTimeout: 200,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  connectTimeout: 2000,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  lazyConnect: false,
};

/** The one place that wires repositories, services and transports together. */
export function createContainer(config: Config, orm: MikroORM, options: ContainerOptions = {}): Container {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const root = orm.em;
  const changes = options.changes ?? new LocalChangeFeed();
  // this instance's own announcements bump its feed right after their commit
  const detachChanges = attachChangeFeed(root, changes);
  const read = () => orm.em.getConnection('read');
  const write = () => orm.em.getConnection('write');
  const redis = config.redisUrl ? new Redis(config.redisUrl, REDIS_OPTIONS) : null;
  // One line per outage, not one per reconnection attempt.
  let redisFailing = false;
  redis?.on('error', (err) => {
    if (!redisFailing) logger.warn({ err: err.message }, 'redis error');
    redisFailing = true;
  });
  redis?.on('ready', () => {
    redisFailing = false;
  });
  const limiter = createRateLimiter({ keyPrefix: config.rateLimitPrefix, redis: redis ?? undefined, now: options.limiterNow, logger });
  // Failed authentications are counted on the service's clock (tests pin it; windows then never roll over mid-test).
  const now = () => clock.now().getTime();
  const authFailures = new AuthFailureGuard({
    limiter: createRateLimiter({ keyPrefix: config.rateLimitPrefix, redis: redis ?? undefined, now, logger }),
    trust: config.trustProxy,
    perMinute: config.authFailuresPerMinute,
    logger,
    now,
  });
  const keys = new KeyAuthenticator(write, clock, config.authCacheTtlMs, changes);
  const outbox = new Outbox(new WebhookPayloads(clock, config.publicUrl, config.ingest.serverUrl), clock);
  // every write states its change to this one unit of work: read model, change feed, outbox
  const uow = new UnitOfWork(root, changeEffects(outbox));
  const broadcasts = new BroadcastService(broadcastStorage(uow), clock);
  const targetPolicy = { allowInsecure: config.webhooks.allowInsecure, allowPrivate: config.webhooks.allowPrivate, resolve: options.resolveHost };
  const webhooks = new WebhookEndpointService(uow, clock, targetPolicy);
  const deliveries = new DeliveryLogService(uow);
  const metrics = new Metrics(orm, logger, limiter);
  const readSql = pooledReadSql(orm);
  const readContext = new ReadContextProvider(read, clock, config.authCacheTtlMs);
  changes.on('catalog', () => readContext.invalidate());
  return {
    config,
    orm,
    clock,
    logger,
    redis,
    limiter,
    changes,
    metrics,
    requestLog: new RequestLog(logger, metrics),
    authFailures,
    idempotency: new IdempotencyKeys(write, clock),
    services: {
      fighters: new FighterService(uow, clock),
      events: new EventService(uow, clock),
      results: new ResultService(uow, clock),
      rankings: new RankingService(uow, clock),
      partners: new PartnerService(uow, clock),
      reference: new ReferenceService(uow),
      webhooks,
      deliveries,
      channelWebhooks: new ChannelWebhookService(channelWebhookStorage(uow, { outbox, endpoints: webhooks, log: deliveries }), clock, targetPolicy),
      channels: new ChannelService(channelStorage(uow), clock),
      broadcasts,
      ingest: new IngestService(ingestStorage(uow), clock, broadcasts),
      studioUsers: new StudioUserService(studioUserStorage(uow)),
      studioAuth: new StudioAuthService(studioSessionStorage(uow), clock, { changes, fallbackTtlMs: config.authCacheTtlMs }),
    },
    uow,
    outbox,
    queries: {
      rankings: new RankingQueries(read),
      fighters: new FighterQueries(readSql),
      events: new EventQueries(readSql),
      results: new ResultFeedQueries(readSql),
      verification: new VerificationQueries(readSql),
      // The primary, not a replica: a schedule is re-read once per announced change and must
      // show that change (read-your-writes); a lagging replica would be cached as current.
      tv: new TvQueries(write),
      studio: new StudioQueries(root, read),
    },
    channelKeys: new ChannelKeyAuthenticator(write, config.authCacheTtlMs, changes),
    tvOpenApiJson: readFileSync(join(__dirname, '..', 'schema', 'openapi-tv.json'), 'utf8'),
    readContext,
    keys,
    openApiJson: readFileSync(join(__dirname, '..', 'schema', 'openapi.json'), 'utf8'),
    async close() {
      await keys.flush().catch((err) => logger.error({ err: (err as Error).message }, 'could not flush request counts'));
      redis?.disconnect();
      detachChanges();
      await changes.close();
    },
  };
}
