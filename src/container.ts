import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import Redis from 'ioredis';
import type { Config } from './config/config';
import { EventQueries } from './domain/catalog/events.queries';
import { FighterQueries } from './domain/catalog/fighters.queries';
import { RankingQueries } from './domain/catalog/rankings.queries';
import { ReadContextProvider } from './domain/catalog/read-context';
import { ResultFeedQueries } from './domain/catalog/result-feed.queries';
import { pooledReadSql } from './domain/catalog/read-model/read-sql';
import { takeCatalogChange } from './domain/catalog/read-model/read-model.refresh';
import { LocalChangeFeed, type ChangeFeed } from './db/change-feed';
import { VerificationQueries } from './domain/catalog/verification.queries';
import { systemClock, type Clock } from './domain/clock';
import { BroadcastService } from './domain/channels/broadcast.service';
import { ChannelKeyAuthenticator } from './domain/channels/channel-key-authenticator';
import { ChannelService } from './domain/channels/channel.service';
import { IngestService } from './domain/channels/ingest.service';
import { StudioUserService } from './domain/channels/studio-user.service';
import { StudioAuthService } from './domain/studio/studio-auth.service';
import { TvQueries } from './domain/channels/tv.queries';
import { EventService } from './domain/events/event.service';
import { FighterService } from './domain/fighters/fighter.service';
import { KeyAuthenticator } from './domain/partners/key-authenticator';
import { PartnerService } from './domain/partners/partner.service';
import { ReferenceService } from './domain/reference/reference.service';
import { RankingService } from './domain/rankings/ranking.service';
import { ResultService } from './domain/results/result.service';
import { createLogger, type Logger } from './http/logger';
import { createSlidingWindowLimiter, type SlidingWindowLimiter } from './http/sliding-window.limiter';
import { ChannelWebhookService } from './webhooks/channel-webhook.service';
import { DeliveryLogService } from './webhooks/delivery-log.service';
import { Outbox } from './webhooks/outbox';
import { WebhookEndpointService } from './webhooks/webhook-endpoint.service';
import { WebhookPayloads } from './webhooks/webhook-payloads';

export interface Container {
  config: Config;
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
  redis: Redis | null;
  limiter: SlidingWindowLimiter;
  services: {
    fighters: FighterService;
    events: EventService;
    results: ResultService;
    rankings: RankingService;
    partners: PartnerService;
    reference: ReferenceService;
    webhooks: WebhookEndpointService;
    deliveries: DeliveryLogService;
    /** A channel's webhook endpoints and delivery log, for studio users (D9.3). */
    channelWebhooks: ChannelWebhookService;
    channels: ChannelService;
    broadcasts: BroadcastService;
    ingest: IngestService;
    studioUsers: StudioUserService;
    studioAuth: StudioAuthService;
  };
  outbox: Outbox;
  queries: {
    rankings: RankingQueries;
    fighters: FighterQueries;
    events: EventQueries;
    results: ResultFeedQueries;
    verification: VerificationQueries;
    tv: TvQueries;
  };
  channelKeys: ChannelKeyAuthenticator;
  tvOpenApiJson: string;
  readContext: ReadContextProvider;
  keys: KeyAuthenticator;
  /** What changed, heard by this instance: caches keep the version they were filled under. */
  changes: ChangeFeed;
  openApiJson: string;
  close(): Promise<void>;
}

export interface ContainerOptions {
  clock?: Clock;
  logger?: Logger;
  changes?: ChangeFeed;
}

/** The one place that wires repositories, services and transports together. */
export function createContainer(config: Config, orm: MikroORM, options: ContainerOptions = {}): Container {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const root = orm.em;
  const read = () => orm.em.getConnection('read');
  const write = () => orm.em.getConnection('write');
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) : null;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const limiter = createSlidingWindowLimiter({ keyPrefix: config.rateLimitPrefix, redis: redis ?? undefined });
  const keys = new KeyAuthenticator(write, clock, config.authCacheTtlMs);
  const outbox = new Outbox(new WebhookPayloads(clock, config.publicUrl, config.ingest.serverUrl), clock);
  const broadcasts = new BroadcastService(root, clock, outbox);
  const targetPolicy = { allowInsecure: config.webhooks.allowInsecure, allowPrivate: config.webhooks.allowPrivate };
  const webhooks = new WebhookEndpointService(root, clock, targetPolicy);
  const deliveries = new DeliveryLogService(root);
  const changes = options.changes ?? new LocalChangeFeed();
  // This process's own catalog writes, once committed (another process's arrive through the feed).
  orm.em.getEventManager().registerSubscriber({ afterTransactionCommit: (args) => { if (takeCatalogChange(args.transaction)) changes.bump('catalog'); } });
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
    services: {
      fighters: new FighterService(root, clock, outbox),
      events: new EventService(root, clock, outbox),
      results: new ResultService(root, clock, outbox),
      rankings: new RankingService(root, clock, outbox),
      partners: new PartnerService(root, clock),
      reference: new ReferenceService(root),
      webhooks,
      deliveries,
      channelWebhooks: new ChannelWebhookService(root, clock, targetPolicy, outbox, webhooks, deliveries),
      channels: new ChannelService(root, clock),
      broadcasts,
      ingest: new IngestService(root, clock, broadcasts),
      studioUsers: new StudioUserService(root),
      studioAuth: new StudioAuthService(root, write, clock),
    },
    outbox,
    queries: {
      rankings: new RankingQueries(read),
      fighters: new FighterQueries(readSql),
      events: new EventQueries(readSql),
      results: new ResultFeedQueries(readSql),
      verification: new VerificationQueries(readSql),
      tv: new TvQueries(read),
    },
    channelKeys: new ChannelKeyAuthenticator(write, config.authCacheTtlMs),
    tvOpenApiJson: readFileSync(join(__dirname, '..', 'schema', 'openapi-tv.json'), 'utf8'),
    readContext,
    keys,
    changes,
    openApiJson: readFileSync(join(__dirname, '..', 'schema', 'openapi.json'), 'utf8'),
    async close() {
      await keys.flush().catch((err) => logger.error({ err: (err as Error).message }, 'could not flush request counts'));
      redis?.disconnect();
    },
  };
}
