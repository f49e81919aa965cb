/**
 * The TV API `/api/tv` as a door of the request pipeline (src/http/pipeline.ts): its operations
 * in document order, its credential (a channel key by `Authorization: Bearer`, 120 requests a
 * minute), the per-client-address limit of its public schedule, and its kept answers (public
 * pages by URL until the `tv` topic moves).
 */
import type { BroadcastService } from '../domain/channels/broadcast.service';
import type { ChannelKeyAuthenticator, ChannelPrincipal } from '../domain/channels/channel-key-authenticator';
import type { IngestService } from '../domain/channels/ingest.service';
import type { TvQueries } from '../domain/channels/tv.queries';
import type { IdempotencyKeys } from '../domain/idempotency/idempotency-keys';
import type { AuthFailureGuard } from '../http/authenticate';
import type { TrustProxy } from '../lib/client-ip';
import type { AnyOperation, Answer } from '../http/operation';
import { weightOfJson } from '../http/send-json';
import type { Door } from '../http/pipeline';
import type { RateLimiter } from '../http/rate-limiter';
import type { RequestLog } from '../http/request-log';
import type { Logger } from '../lib/logger';
import { then } from '../lib/maybe';
import { VersionedCache } from '../lib/versioned-cache';
import { getChannelAccount, getTvOpenApiDocument } from './operations/account.operations';
import { endBroadcast, goLive, rotateStreamKey } from './operations/broadcast-transitions.operations';
import { createBroadcast, getBroadcastHealth, updateBroadcast } from './operations/broadcasts.operations';
import { getChannel, listChannels } from './operations/channels.operations';
import { getBroadcast, listLiveBroadcasts, listUpcomingBroadcasts } from './operations/schedule.operations';
import type { TvScheduleReader } from './tv-schedule.reader';

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
  /** How stale a kept answer may be against writers this instance cannot hear (0: nothing kept). */
  readCacheTtlMs: number;
  changes: ConstructorParameters<typeof VersionedCache>[0]['feed'];
  /** Where the POSTs' idempotency keys are kept. */
  idempotency: IdempotencyKeys;
}

export const TV_API_BASE = '/api/tv';

/** Every operation of the TV API, in the document's order. */
export const TV_OPERATIONS: readonly AnyOperation[] = [
  listLiveBroadcasts,
  listUpcomingBroadcasts,
  listChannels,
  getChannel,
  getBroadcast,
  updateBroadcast,
  getChannelAccount,
  createBroadcast,
  goLive,
  endBroadcast,
  rotateStreamKey,
  getBroadcastHealth,
  getTvOpenApiDocument,
];

const CHANNEL_KEY_PER_MINUTE = 120;
/** Bytes of whole TV answers kept by URL (public schedules, single broadcasts). */
const TV_KEPT_BYTES = 4 * 1024 * 1024;

export function tvDoor(deps: TvApiDeps, requestLog: RequestLog, operations: readonly AnyOperation[] = TV_OPERATIONS): Door<TvApiDeps> {
  return {
    base: TV_API_BASE,
    deps,
    operations,
    credentials: {
      'channel-key': {
        rule: { allowApiKeyHeader: false, tokenPrefix: 'ck_', failures: deps.authFailures },
        resolve: (token) =>
          then(deps.channelKeys.authenticate(token), (p: ChannelPrincipal) => ({
            kind: 'channel',
            limitKey: `ck:${p.keyId}`,
            limitPerMinute: CHANNEL_KEY_PER_MINUTE,
            scopes: p.scopes,
            subject: p,
          })),
      },
    },
    idempotency: deps.idempotency,
    publicLimit: { perMinute: deps.publicPerMinute, trustProxy: deps.trustProxy },
    kept: {
      keyOf: (url) => url,
      cache: new VersionedCache<Answer>({
        feed: deps.changes,
        topics: ['tv'],
        fallbackTtlMs: deps.readCacheTtlMs,
        maxEntries: 1000,
        maxBytes: TV_KEPT_BYTES,
        weigh: ((a: Answer) => weightOfJson(a.json)) as (value: never) => number,
      }),
    },
    limiter: deps.limiter,
    logger: deps.logger,
    requestLog,
  };
}
