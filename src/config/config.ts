import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from '../lib/client-ip';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './retry-schedule';

const flag = z.enum(['0', '1', 'true', 'false', 'on', 'off', 'yes', 'no']).transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_REPLICA_URLS: z.string().optional(),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  EMBEDDED_DB_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(16),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseTrustProxy(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: flag.default(true),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60000).default(1000),
  RATE_LIMIT_PREFIX: z.string().default('rl'),
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  TV_PUBLIC_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  STUDIO_SESSION_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  SUBSCRIPTION_SOCKETS_PER_SESSION: z.coerce.number().int().min(1).max(1000).default(5),
  SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).max(1000).default(20),
  WEBHOOK_WORKER: z.enum(['on', 'off']).default('on'),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .refine((v) => {
      try {
        parseRetrySchedule(v);
        return true;
      } catch {
        return false;
      }
    }, 'durations such as 1m,5m,30m,2h (units ms, s, m, h)'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(500).default(60_000),
  WEBHOOK_BATCH: z.coerce.number().int().min(1).max(500).default(64),
  WEBHOOK_IN_FLIGHT: z.coerce.number().int().min(1).max(2000).default(256),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(32),
  WEBHOOK_EXPAND_BATCH: z.coerce.number().int().min(1).max(500).default(8),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WEBHOOKS_ALLOW_INSECURE: flag.optional(),
  WEBHOOKS_ALLOW_PRIVATE: flag.optional(),
  OPERATOR: z.string().optional(),
  INGEST_SERVER_URL: z
    .string()
    .regex(/^(rtmps?|srt):\/\//, 'an rtmp://, rtmps:// or srt:// URL')
    .default('rtmp://localhost:1935/live'),
  INGEST_SECRET: z.string().min(16, 'at least 16 characters').optional(),
});

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly host: string;
  readonly port: number;
  /** Serves /metrics on a port of its own instead of the public one (null: on the public port). */
  readonly metricsPort: number | null;
  readonly publicUrl: string;
  /** Time-outs and the connection cap of the public HTTP server (src/http/http-server.ts). */
  readonly http: HttpServerLimits;
  readonly databaseUrl: string | undefined;
  readonly replicaUrls: readonly string[];
  readonly dataDir: string;
  readonly embeddedDbPort: number;
  /** PostgreSQL's shared_buffers in the embedded database (its WASM memory never shrinks). */
  readonly embeddedDbSharedBuffersMb: number;
  readonly dbPoolMax: number;
  readonly redisUrl: string | undefined;
  /** Which peers may name the client in X-Forwarded-For (see src/lib/client-ip.ts). */
  readonly trustProxy: TrustProxy;
  readonly logLevel: string;
  readonly seedDemo: boolean;
  readonly authCacheTtlMs: number;
  readonly rateLimitPrefix: string;
  /** Failed authentications (401) per minute per client IP over all doors; then 429 without a key look-up. */
  readonly authFailuresPerMinute: number;
  /** Public TV endpoints, per client IP; raised only for benchmarks. */
  readonly tvPublicPerMinute: number;
  /** GraphQL requests per minute per studio session; raised only for benchmarks. */
  readonly studioSessionPerMinute: number;
  /** GraphQL subscriptions over WebSocket on /graphql (docs/studio-graphql.md#subscriptions). */
  readonly subscriptions: {
    /** Open sockets one studio session may hold on one instance; the next one is closed with 4429. */
    readonly socketsPerSession: number;
    /** Subscriptions running at once on one socket; the next one is refused with an error. */
    readonly perSocket: number;
  };
  readonly webhooks: {
    readonly worker: boolean;
    readonly schedule: readonly number[];
    readonly timeoutMs: number;
    readonly leaseMs: number;
    readonly batchSize: number;
    /** Attempts one worker keeps in flight, and per endpoint across workers (fairness). */
    readonly maxInFlight: number;
    readonly endpointConcurrency: number;
    /** Change rows one expansion transaction takes. */
    readonly expandBatch: number;
    readonly pollMs: number;
    readonly allowInsecure: boolean;
    readonly allowPrivate: boolean;
  };
  /** Who the operator's commands are audited as. */
  readonly operator: string | undefined;
  readonly ingest: {
    /** Where encoders push ingest broadcasts (shown with each ingest broadcast). */
    readonly serverUrl: string;
    /** Authenticates the media server's callbacks; null disables them. */
    readonly secret: string | null;
  };
}

export interface HttpServerLimits {
  /** The whole request head (request line and headers) must arrive within this; else 408 and close. */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; else 408 and close. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (longer than load balancers' idle time-outs). */
  readonly keepAliveTimeoutMs: number;
  /** Connections beyond this many open ones are closed at once. */
  readonly maxConnections: number;
}

export class ConfigError extends Error {}

/** Parses the environment once; nothing else in the code reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  // Node refuses a headers time-out longer than the request time-out (the headers are part of the request).
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS: must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  }
  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    metricsPort: e.METRICS_PORT ?? null,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    http: Object.freeze({
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
    }),
    databaseUrl: e.DATABASE_URL,
    replicaUrls: Object.freeze(
      (e.DATABASE_REPLICA_URLS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    dataDir: e.DATA_DIR,
    embeddedDbPort: e.EMBEDDED_DB_PORT,
    embeddedDbSharedBuffersMb: e.EMBEDDED_DB_SHARED_BUFFERS_MB,
    dbPoolMax: e.DB_POOL_MAX,
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    rateLimitPrefix: e.RATE_LIMIT_PREFIX,
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    tvPublicPerMinute: e.TV_PUBLIC_PER_MINUTE,
    studioSessionPerMinute: e.STUDIO_SESSION_PER_MINUTE,
    subscriptions: Object.freeze({ socketsPerSession: e.SUBSCRIPTION_SOCKETS_PER_SESSION, perSocket: e.SUBSCRIPTIONS_PER_SOCKET }),
    webhooks: Object.freeze({
      worker: e.WEBHOOK_WORKER === 'on',
      schedule: Object.freeze(parseRetrySchedule(e.WEBHOOK_RETRY_SCHEDULE)),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      leaseMs: e.WEBHOOK_LEASE_MS,
      batchSize: e.WEBHOOK_BATCH,
      maxInFlight: e.WEBHOOK_IN_FLIGHT,
      endpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
      expandBatch: e.WEBHOOK_EXPAND_BATCH,
      pollMs: e.WEBHOOK_POLL_MS,
      // The embedded demo talks to receivers on the developer's machine; a real deployment
      // (DATABASE_URL) refuses http and private targets unless told otherwise (docs/decisions.md#targets).
      allowInsecure: e.WEBHOOKS_ALLOW_INSECURE ?? !e.DATABASE_URL,
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE ?? !e.DATABASE_URL,
    }),
    operator: e.OPERATOR,
    ingest: Object.freeze({
      serverUrl: e.INGEST_SERVER_URL,
      // The embedded demo has a known secret so the README's curl examples work; a deployment sets its own.
      secret: e.INGEST_SECRET ?? (e.DATABASE_URL ? null : 'demo-ingest-secret'),
    }),
  });
}
