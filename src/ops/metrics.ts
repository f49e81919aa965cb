import type { MikroORM } from '@mikro-orm/postgresql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LIVE_SLOTS } from '../domain/channels/channel.entities';
import type { LimiterHealth } from '../http/rate-limiter';
import type { Logger } from '../lib/logger';

/** Which public surface a request came through: the label that splits every HTTP series. */
export type Door = 'partner' | 'tv' | 'studio' | 'ingest' | 'ops' | 'other';

/** What the delivery worker reports of each attempt. */
export interface WebhookMetrics {
  /** `outcome`: succeeded, retry (will be tried again), failed (given up) or gone (410, endpoint disabled). */
  attempt(outcome: 'succeeded' | 'retry' | 'failed' | 'gone', seconds: number): void;
}

/** A knex (tarn) pool exposes its counts cheaply; PGlite's single connection goes through it too. */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's Prometheus metrics, in a registry of its own (one per container, so that tests
 * can run several apps in one process). Request series are fed by the request log; database
 * gauges (webhook outbox, live broadcasts, pool) are read on scrape, one cheap query each.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly webhooks: WebhookMetrics;
  private readonly requests: Counter<'door' | 'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'door' | 'method' | 'route'>;
  private readonly rateLimited: Counter<'door'>;

  constructor(orm: MikroORM, logger: Logger, limiter?: { health(): LimiterHealth }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total', help: 'HTTP requests answered, by door, route template and status',
      labelNames: ['door', 'method', 'route', 'status'], registers,
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds', help: 'Time from the request to the end of its answer',
      labelNames: ['door', 'method', 'route'], buckets: LATENCY_BUCKETS, registers,
    });
    this.rateLimited = new Counter({
      name: 'http_rate_limited_total', help: 'Requests refused with 429 by a rate limit, by door',
      labelNames: ['door'], registers,
    });
    const attempts = new Counter({
      name: 'webhook_attempts_total', help: 'Webhook delivery attempts, by outcome',
      labelNames: ['outcome'], registers,
    });
    const attemptLatency = new Histogram({
      name: 'webhook_attempt_duration_seconds', help: 'Time a receiver took to answer a delivery attempt',
      labelNames: ['outcome'], buckets: LATENCY_BUCKETS, registers,
    });
    this.webhooks = {
      attempt(outcome, seconds) {
        attempts.inc({ outcome });
        attemptLatency.observe({ outcome }, seconds);
      },
    };

    const failed = (what: string) => (err: unknown) => logger.warn({ err: (err as Error).message }, `metrics: could not read ${what}`);
    const execute = <T>(sql: string) => orm.em.getConnection('read').execute(sql) as Promise<T>;
    new Gauge({
      name: 'webhook_outbox_deliveries', help: 'Webhook deliveries not finished: pending (due = whose attempt time has come) and sending',
      labelNames: ['state'], registers,
      async collect() {
        const [row] = await execute<{ pending: number; due: number; sending: number }[]>(
          `select count(*) filter (where status = 'pending')::int as pending,
                  count(*) filter (where status = 'pending' and next_attempt_at <= now())::int as due,
                  count(*) filter (where status = 'sending')::int as sending
             from webhook_delivery where status in ('pending', 'sending')`,
        ).catch((err) => { failed('the webhook outbox')(err); return []; });
        if (!row) return;
        this.set({ state: 'pending' }, row.pending);
        this.set({ state: 'due' }, row.due);
        this.set({ state: 'sending' }, row.sending);
      },
    });
    new Gauge({
      name: 'webhook_endpoints', help: 'Webhook endpoints by health: healthy, failing (every delivery that ended failed, since failing_since) and disabled (deleted ones left out)',
      labelNames: ['state'], registers,
      async collect() {
        const [row] = await execute<{ healthy: number; failing: number; disabled: number }[]>(
          `select count(*) filter (where enabled and failing_since is null)::int as healthy,
                  count(*) filter (where enabled and failing_since is not null)::int as failing,
                  count(*) filter (where not enabled)::int as disabled
             from webhook_endpoint where deleted_at is null`,
        ).catch((err) => { failed('the webhook endpoints')(err); return []; });
        if (!row) return;
        this.set({ state: 'healthy' }, row.healthy);
        this.set({ state: 'failing' }, row.failing);
        this.set({ state: 'disabled' }, row.disabled);
      },
    });
    const liveSlots = new Gauge({ name: 'tv_live_slots', help: 'Live slots of all channels\' plans (used = live broadcasts)', labelNames: ['kind'], registers });
    new Gauge({
      name: 'tv_live_broadcasts', help: 'Broadcasts live now', registers,
      async collect() {
        const rows = await execute<{ plan: keyof typeof LIVE_SLOTS; channels: number; live: number }[]>(
          `select c.plan, count(*)::int as channels, coalesce(sum(l.n), 0)::int as live
             from channel c
             left join (select channel_id, count(*) as n from broadcast where state = 'live' group by channel_id) l on l.channel_id = c.id
            group by c.plan`,
        ).catch((err) => { failed('live broadcasts')(err); return null; });
        if (!rows) return;
        const live = rows.reduce((n, r) => n + r.live, 0);
        this.set(live);
        liveSlots.set({ kind: 'used' }, live);
        liveSlots.set({ kind: 'total' }, rows.reduce((n, r) => n + r.channels * (LIVE_SLOTS[r.plan] ?? 0), 0));
      },
    });
    if (limiter) {
      new Gauge({
        name: 'rate_limiter_degraded', help: '1 while the shared rate-limit store (Redis) is unreachable and each instance limits in memory',
        registers, collect() { this.set(limiter.health().degraded ? 1 : 0); },
      });
      new Gauge({
        name: 'rate_limiter_insurance_decisions', help: 'Requests decided by the in-memory insurance store since start (Redis unreachable)',
        registers, collect() { this.set(limiter.health().insuranceDecisions); },
      });
    }
    new Gauge({
      name: 'db_pool_connections', help: 'Connections of the primary database pool: used, free, and acquisitions waiting',
      labelNames: ['state'], registers,
      collect() {
        const pool = poolOf(orm);
        if (!pool) return;
        this.set({ state: 'used' }, pool.numUsed());
        this.set({ state: 'free' }, pool.numFree());
        this.set({ state: 'pending' }, pool.numPendingAcquires());
      },
    });
  }

  /** Each label set's series, found once (prom-client hashes the labels on every call otherwise). */
  private readonly series = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

  /** One answered request: counted, timed, and a 429 counted as a refusal. */
  request(door: Door, method: string, route: string, status: number, seconds: number): void {
    const key = `${door} ${method} ${route} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      if (this.series.size >= 10_000) this.series.clear();
      s = { count: this.requests.labels(door, method, route, String(status)), time: this.latency.labels(door, method, route) };
      this.series.set(key, s);
    }
    s.count.inc();
    s.time.observe(seconds);
    if (status === 429) this.rateLimited.inc({ door });
  }

  /** The exposition text, for /metrics. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

function poolOf(orm: MikroORM): PoolCounts | null {
  try {
    const pool = (orm.em.getConnection('write').getKnex().client as { pool?: Partial<PoolCounts> }).pool;
    return pool && typeof pool.numUsed === 'function' ? (pool as PoolCounts) : null;
  } catch {
    return null;
  }
}
