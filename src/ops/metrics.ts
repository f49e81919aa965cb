import type { MikroORM } from '@mikro-orm/postgresql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
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
 * gauges (webhook outbox, live broadcasts, pool) are read on scrape, one cheap query each. Names
 * follow Prometheus conventions: counters end in `_total`, units are suffixes (`_seconds`), and
 * the series of one metric are parts of one whole (summing them means something).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly webhooks: WebhookMetrics;
  private readonly requests: Counter<'door' | 'method' | 'route' | 'status'>;
  private readonly latency: TalliedHistogram;
  private readonly rateLimited: Counter<'door'>;

  constructor(orm: MikroORM, logger: Logger, limiter?: { health(): LimiterHealth }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const series = this.series;
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by door, route template and status',
      labelNames: ['door', 'method', 'route', 'status'],
      registers,
      collect() {
        // the counts tallied since the last scrape (see request())
        for (const s of series.values()) flushCount(this, s);
      },
    });
    this.latency = new TalliedHistogram('http_request_duration_seconds', 'Time from the request to the end of its answer', LATENCY_BUCKETS);
    this.registry.registerMetric(this.latency as unknown as Metric);
    this.rateLimited = new Counter({
      name: 'http_rate_limited_total',
      help: 'Requests refused with 429 by a rate limit, by door',
      labelNames: ['door'],
      registers,
    });
    const attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome',
      labelNames: ['outcome'],
      registers,
    });
    const attemptLatency = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time a receiver took to answer a delivery attempt',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.webhooks = {
      attempt(outcome, seconds) {
        attempts.inc({ outcome });
        attemptLatency.observe({ outcome }, seconds);
      },
    };

    const failed = (what: string) => (err: unknown) => logger.warn({ err: (err as Error).message }, `metrics: could not read ${what}`);
    const execute = <T>(sql: string) => orm.em.getConnection('read').execute(sql) as Promise<T>;
    // Every metric reads its own value in its own collect(): a value set by another metric's
    // collect would be exposed one scrape late (the registry collects all metrics at once).
    // The metrics fed by one query share it, once per scrape (perScrape).
    const outbox = perScrape(() =>
      execute<{ pending: number; due: number; sending: number }[]>(
        `select count(*) filter (where status = 'pending')::int as pending,
              count(*) filter (where status = 'pending' and next_attempt_at <= now())::int as due,
              count(*) filter (where status = 'sending')::int as sending
         from webhook_delivery where status in ('pending', 'sending')`,
      ).then(
        ([row]) => row ?? null,
        (err) => {
          failed('the webhook outbox')(err);
          return null;
        },
      ),
    );
    // pending + sending are the unfinished deliveries; due is a part of pending, so a metric of its own.
    new Gauge({
      name: 'webhook_outbox_deliveries',
      help: 'Webhook deliveries not finished, by state: pending (waiting for their attempt) or sending',
      labelNames: ['state'],
      registers,
      async collect() {
        const row = await outbox();
        if (!row) return;
        this.set({ state: 'pending' }, row.pending);
        this.set({ state: 'sending' }, row.sending);
      },
    });
    new Gauge({
      name: 'webhook_outbox_deliveries_due',
      help: 'Pending webhook deliveries whose attempt time has come (a part of webhook_outbox_deliveries{state="pending"})',
      registers,
      async collect() {
        const row = await outbox();
        if (row) this.set(row.due);
      },
    });
    const live = perScrape(() =>
      execute<{ plan: keyof typeof LIVE_SLOTS; channels: number; live: number }[]>(
        `select c.plan, count(*)::int as channels, coalesce(sum(l.n), 0)::int as live
         from channel c
         left join (select channel_id, count(*) as n from broadcast where state = 'live' group by channel_id) l on l.channel_id = c.id
        group by c.plan`,
      ).then(
        (rows) => ({
          live: rows.reduce((n, r) => n + r.live, 0),
          limit: rows.reduce((n, r) => n + r.channels * (LIVE_SLOTS[r.plan] ?? 0), 0),
        }),
        (err) => {
          failed('live broadcasts')(err);
          return null;
        },
      ),
    );
    new Gauge({
      name: 'webhook_endpoints',
      help: 'Webhook endpoints by health: healthy, failing (every delivery that ended failed, since failing_since) and disabled (deleted ones left out)',
      labelNames: ['state'],
      registers,
      async collect() {
        const [row] = await execute<{ healthy: number; failing: number; disabled: number }[]>(
          `select count(*) filter (where enabled and failing_since is null)::int as healthy,
                  count(*) filter (where enabled and failing_since is not null)::int as failing,
                  count(*) filter (where not enabled)::int as disabled
             from webhook_endpoint where deleted_at is null`,
        ).catch((err) => {
          failed('the webhook endpoints')(err);
          return [];
        });
        if (!row) return;
        this.set({ state: 'healthy' }, row.healthy);
        this.set({ state: 'failing' }, row.failing);
        this.set({ state: 'disabled' }, row.disabled);
      },
    });
    new Gauge({
      name: 'tv_live_broadcasts',
      help: 'Broadcasts live now',
      registers,
      async collect() {
        const r = await live();
        if (r) this.set(r.live);
      },
    });
    new Gauge({
      name: 'tv_live_slots_used',
      help: 'Live slots in use, all channels (one per live broadcast)',
      registers,
      async collect() {
        const r = await live();
        if (r) this.set(r.live);
      },
    });
    new Gauge({
      name: 'tv_live_slots_limit',
      help: "Live slots the channels' plans allow in all",
      registers,
      async collect() {
        const r = await live();
        if (r) this.set(r.limit);
      },
    });
    if (limiter) {
      new Gauge({
        name: 'rate_limiter_degraded',
        help: '1 while the shared rate-limit store (Redis) is unreachable and each instance limits in memory',
        registers,
        collect() {
          this.set(limiter.health().degraded ? 1 : 0);
        },
      });
      let counted = 0;
      new Counter({
        name: 'rate_limiter_insurance_decisions_total',
        help: 'Requests decided by the in-memory insurance store (Redis unreachable) since the process started',
        registers,
        collect() {
          // The limiter keeps the running total; the counter takes what was added since the last scrape.
          const total = limiter.health().insuranceDecisions;
          if (total > counted) this.inc(total - counted);
          counted = Math.max(counted, total);
        },
      });
    }
    // Open connections (used + free) sum to the pool's size; waiting acquisitions are a queue, not connections.
    new Gauge({
      name: 'db_pool_connections',
      help: 'Open connections of the primary database pool, by state: used or free',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = poolOf(orm);
        if (!pool) return;
        this.set({ state: 'used' }, pool.numUsed());
        this.set({ state: 'free' }, pool.numFree());
      },
    });
    new Gauge({
      name: 'db_pool_pending_acquires',
      help: 'Requests waiting for a connection of the primary database pool',
      registers,
      collect() {
        const pool = poolOf(orm);
        if (pool) this.set(pool.numPendingAcquires());
      },
    });
  }

  /** Each label set's series, found once, with the requests counted since the last scrape. */
  private readonly series = new Map<string, RequestSeries>();

  /**
   * One answered request: counted, timed, and a 429 counted as a refusal. Every request comes
   * here, so it only adds to plain numbers (prom-client hashes the labels on every call): the
   * count goes to `http_requests_total` on the next scrape, the time is tallied where the
   * histogram is read.
   */
  request(door: Door, method: string, route: string, status: number, seconds: number): void {
    const key = `${door} ${method} ${route} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      if (this.series.size >= 10_000) {
        for (const old of this.series.values()) flushCount(this.requests, old);
        this.series.clear();
      }
      s = { labels: { door, method, route, status: String(status) }, pending: 0, time: this.latency.series({ door, method, route }) };
      this.series.set(key, s);
    }
    s.pending += 1;
    observe(this.latency.upperBounds, s.time, seconds);
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

interface RequestSeries {
  labels: { door: string; method: string; route: string; status: string };
  /** Requests counted since the last scrape. */
  pending: number;
  time: Tally;
}

function flushCount(counter: Counter<'door' | 'method' | 'route' | 'status'>, s: RequestSeries): void {
  if (s.pending === 0) return;
  counter.inc(s.labels, s.pending);
  s.pending = 0;
}

/** One label set of a tallied histogram: the count of each bucket (not cumulative), the sum and the count. */
interface Tally {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

function observe(upperBounds: readonly number[], t: Tally, value: number): void {
  for (let i = 0; i < upperBounds.length; i++) {
    if (value <= upperBounds[i]) {
      t.buckets[i] += 1;
      break;
    }
  }
  t.sum += value;
  t.count += 1;
}

/**
 * A histogram whose observations are added to plain numbers by the caller (a series found once,
 * then no hashing of labels per observation), exposed as prom-client exposes its Histogram: the
 * same lines in the same order (each label set's cumulative buckets, +Inf, _sum and _count).
 * Registered in the registry as any metric (`registerMetric`).
 */
export class TalliedHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly tallies = new Map<string, Tally>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly upperBounds: readonly number[],
  ) {}

  /** The tally of a label set, made on first use; keep it and pass it to `observe`. */
  series(labels: Record<string, string>): Tally {
    const key = JSON.stringify(labels);
    let t = this.tallies.get(key);
    if (!t) {
      t = { labels, buckets: this.upperBounds.map(() => 0), sum: 0, count: 0 };
      this.tallies.set(key, t);
    }
    return t;
  }

  observe(labels: Record<string, string>, value: number): void {
    observe(this.upperBounds, this.series(labels), value);
  }

  /** For the registry's text exposition (as Histogram.getForPromString). */
  getForPromString() {
    const values: Array<{
      labels: Record<string, string | number>;
      sharedLabels: Record<string, string>;
      value: number;
      metricName: string;
      exemplar: null | undefined;
    }> = [];
    for (const t of this.tallies.values()) {
      let acc = 0;
      this.upperBounds.forEach((le, i) => {
        acc += t.buckets[i];
        values.push({ labels: { le }, sharedLabels: t.labels, value: acc, metricName: `${this.name}_bucket`, exemplar: null });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: t.labels, value: t.count, metricName: `${this.name}_bucket`, exemplar: null });
      values.push({ labels: {}, sharedLabels: t.labels, value: t.sum, metricName: `${this.name}_sum`, exemplar: undefined });
      values.push({ labels: {}, sharedLabels: t.labels, value: t.count, metricName: `${this.name}_count`, exemplar: undefined });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** For the registry's JSON (as Histogram.get: the label sets merged). */
  get() {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {
    this.tallies.clear();
  }
}

/**
 * One read shared by the metrics a scrape collects together: the registry starts every collect()
 * in the same pass, so the first starts the read and the others join it; the next scrape reads anew.
 */
export function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (!pending) {
      pending = read();
      void pending.finally(() => {
        pending = null;
      });
    }
    return pending;
  };
}

function poolOf(orm: MikroORM): PoolCounts | null {
  try {
    const pool = (orm.em.getConnection('write').getKnex().client as { pool?: Partial<PoolCounts> }).pool;
    return pool && typeof pool.numUsed === 'function' ? (pool as PoolCounts) : null;
  } catch {
    return null;
  }
}
