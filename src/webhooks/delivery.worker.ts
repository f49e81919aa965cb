import type { Announcer } from '../db/announce-change';
import type { Connection } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../lib/logger';
import type { WebhookMetrics } from '../ops/metrics';
import { activeSecrets, signingSecret } from './webhook-endpoint.service';
import type { SendResult, WebhookSender } from './webhook.sender';
import { HEADER, sign, signStandard, STANDARD_HEADER } from './signer';
import { maxAttempts } from '../config/retry-schedule';
import { disableFailingEndpoints } from './endpoint-health';
import { PACED_CTE, SPENT_CTE } from './delivery-rate';
import { LEASE_RAN_OUT, PENDING_DUE } from './delivery-due';
import { preparedStatement } from '../db/prepared-statement';
import { crewBeatMs, crewTtlMs, joinCrew, leaveCrew, SHARE_CTES } from './delivery-crew';

export interface WorkerOptions {
  /** Delays before attempts 2..n, ms. */
  schedule: readonly number[];
  /** How long a claimed attempt is ours; a worker that dies mid-delivery loses it after this. */
  leaseMs: number;
  /** The most attempts one claim statement takes. */
  batchSize: number;
  pollMs: number;
  /** The most attempts this worker has in flight at once, all endpoints together. */
  maxInFlight: number;
  /** The most attempts in flight to one endpoint, all workers together (fairness). */
  endpointConcurrency: number;
  /** The most change rows one expansion transaction takes (outbox.ts). */
  expandBatch: number;
}

export interface WakeSource {
  onWake(listener: () => void): void;
  close(): Promise<void>;
}

/** Turns committed changes into deliveries (Outbox.expand bound to the service's database). */
export interface Expander {
  expand(limit: number): Promise<number>;
}

interface Claimed {
  id: string;
  attempt: number;
  replay_of: string | null;
  endpoint_id: string;
  event_id: string;
  url: string;
  secret: string;
  next_secret: string | null;
  next_secret_from: Date | null;
  event_type: string;
  payload: string;
}

interface Outcome {
  d: Claimed;
  headers: Record<string, string>;
  startedAt: Date;
  result: SendResult;
  status: 'pending' | 'succeeded' | 'failed';
  delay: number | null;
  error: string | null;
  gone: boolean;
}

/**
 * A CTE that makes the statement's own transaction commit without waiting for the WAL flush
 * (`synchronous_commit` is read at commit, and `set_config(..., true)` lasts until then). Claims
 * and outcomes only: a PostgreSQL crash may lose the last few hundred milliseconds of them, and
 * losing either is what a worker's SIGKILL already does (the attempt is sent again, same
 * delivery id and attempt number, after the lease): at-least-once holds. The deliveries
 * themselves (expansion, outbox.ts) stay durable: re-expanding would mint new event ids.
 */
const ASYNC_COMMIT = `async_commit as (select set_config('synchronous_commit', 'off', true))`;

/**
 * What a claim statement leaves out when the same statement records outcomes (`record`): the
 * attempts it records (their slots are free once it commits, and their rows are its own to
 * update), and the endpoints whose health it changes or that answered 410 Gone (claimed by the
 * next tick, after their endpoint row is written).
 */
interface ClaimSkips {
  /** Live leases not counted: `s` is a delivery. */
  leases: string;
  /** Deliveries not claimed: `d` is a delivery. */
  scan: string;
  /** Endpoints not served: `e` is an endpoint. */
  endpoints: string;
}

const NOTHING_RECORDED: ClaimSkips = { leases: '', scan: '', endpoints: '' };

/**
 * The skips of a claim made by the statement that records CTE `outcome` (id, attempt), `done` and
 * `healed` (`record`). `not in`, not `not exists`: PostgreSQL turns the latter into an anti-join,
 * and then planned the pending scan as a sequential scan and a sort (7.5 of a statement's 10 ms)
 * instead of the index-ordered scan that stops at the free slots; `not in` stays a hashed filter.
 */
const OUTCOMES_RECORDED: ClaimSkips = {
  leases: ' and (s.id, s.attempt) not in (select o.id, o.attempt from outcome o)',
  scan: ' and d.id not in (select o.id from outcome o)',
  endpoints: ' and e.id not in (select id from healed) and e.id not in (select endpoint_id from done where status_code = 410)',
};

/**
 * The claim's CTEs, `me` to `spent`; parameters: the worker's id, the per-endpoint cap, the limit
 * twice, the lease (ms).
 *
 * The endpoints served are the worker's share (`share`, delivery-crew.ts). Per endpoint (`ep`):
 * its free slots (the cap less its live leases, all workers together) and, with a rate, at most
 * the room in its bucket (`paced`, delivery-rate.ts: a rated endpoint without room, or held by
 * another claim, gets nothing this round).
 * Then, per endpoint and locked, skipped by any other worker: first the attempts whose lease ran
 * out, then the due pending ones. Each is one index-ordered scan (endpoint, status,
 * next_attempt_at) that stops at the free slots: one status per scan, because a scan over both
 * statuses (an OR) must read and sort every due attempt of the endpoint, which cost 90 ms a claim
 * with 30,000 waiting.
 */
const claimCtes = (skip: ClaimSkips): string => `${SHARE_CTES},
       ${PACED_CTE},
       ep as (
         select e.id, least(r.room, greatest(0, ?::int - (select count(*) from webhook_delivery s
                                                   where s.endpoint_id = e.id and s.status = 'sending' and s.lease_until >= now()${skip.leases}))) as free
           from webhook_endpoint e left join partner p on p.id = e.partner_id left join paced r on r.id = e.id
          where e.enabled and e.id in (select id from share) and (p.id is null or p.status = 'active')
            and (e.rate_per_second is null or r.id is not null)${skip.endpoints}),
       expired as (
         select d.id, ep.id as endpoint_id from ep cross join lateral (
           select d.id from webhook_delivery d
            where d.endpoint_id = ep.id and ${LEASE_RAN_OUT}${skip.scan}
            order by d.next_attempt_at limit ep.free
            for update of d skip locked) d
          limit ?),
       pending as (
         select d.id from ep cross join lateral (
           select d.id from webhook_delivery d
            where d.endpoint_id = ep.id and ${PENDING_DUE}${skip.scan}
            order by d.next_attempt_at limit greatest(0, ep.free - (select count(*) from expired x where x.endpoint_id = ep.id))
            for update of d skip locked) d
          limit greatest(0, ?::int - (select count(*) from expired))),
       due as (select id from expired union all select id from pending),
       claimed as (
         update webhook_delivery d
            set attempt = case when d.status = 'pending' then d.attempt + 1 else d.attempt end,
                status = 'sending', lease_until = now() + (?::int * interval '1 millisecond')
           from due where d.id = due.id
         returning d.id, d.attempt, d.replay_of, d.endpoint_id, d.event_id),
       ${SPENT_CTE}`;

/** What a claim returns (`Claimed`), after CTEs `claimed`, `async_commit` and `announced`. */
const CLAIMED_SELECT = `select c.id, c.attempt, c.replay_of, c.endpoint_id, c.event_id, e.url, e.secret, e.next_secret, e.next_secret_from,
              ev.type as event_type, ev.payload
         from claimed c join webhook_endpoint e on e.id = c.endpoint_id join webhook_event ev on ev.id = c.event_id
              cross join async_commit cross join announced`;

/**
 * Recording a group of outcomes (parameter: their JSON), after CTEs `async_commit` and
 * `announced`: the attempt rows, the deliveries' new states (`done`; an outcome whose attempt
 * was since taken over changes nothing), and the endpoints' `failing_since` (`healed`: the
 * endpoints whose health changed).
 *
 * `done` finds the group's rows by id (`= any(array(...))`, the primary key): joined on `o.id`
 * alone, PostgreSQL estimates the outcomes at 100 rows (`jsonb_to_recordset`'s default) and, from
 * a few thousand deliveries in the table (the log keeps them), plans a hash join over a
 * sequential scan of the whole table, 3 to 9 ms a statement at 20,000 rows.
 */
const OUTCOME_CTES = `outcome as (select o.* from async_commit, announced, jsonb_to_recordset(?::jsonb) as o(id uuid, attempt int, started_at timestamptz, duration_ms int, headers jsonb,
                      status_code int, error text, excerpt text, status text, delay_ms int)),
              attempt as (
                insert into webhook_attempt (id, delivery_id, attempt_no, started_at, duration_ms, request_headers, status_code, error, response_excerpt)
                select gen_random_uuid(), o.id, o.attempt, o.started_at, o.duration_ms, o.headers, o.status_code, o.error, o.excerpt from outcome o),
              done as (
                update webhook_delivery d set status = o.status, lease_until = null, last_status_code = o.status_code, last_error = o.error,
                       next_attempt_at = case when o.delay_ms is null then d.next_attempt_at else now() + (o.delay_ms * interval '1 millisecond') end,
                       completed_at = case when o.status in ('succeeded', 'failed') then now() else null end
                  from outcome o where d.id = any(array(select id from outcome)) and d.id = o.id and d.attempt = o.attempt
                returning d.endpoint_id, o.status, o.status_code),
              healed as (
                update webhook_endpoint e
                   set failing_since = case when h.ok then null else coalesce(e.failing_since, now()) end
                  from (select endpoint_id, bool_or(status = 'succeeded') as ok from done where status in ('succeeded', 'failed') group by endpoint_id) h
                 where e.id = h.endpoint_id and (h.ok is distinct from (e.failing_since is null))
                returning e.id)`;

/**
 * The planner settings of the claim and record statements (`preparedStatement`'s `planner`): no
 * bitmap scans. A delivery's claim and its outcome each leave a dead entry in the due index
 * (its status is a key), and only an index scan that meets a dead entry marks it so (the next
 * scans skip it, and the page's next insert drops it); a bitmap scan marks nothing. Once the
 * log held a few tens of thousands of deliveries, PostgreSQL's plans for the endpoint's leases
 * (the live ones counted, the ones run out looked for) turned to bitmap scans, which then read
 * every lease the endpoint had had since the table was last vacuumed, at each claim: 6,000
 * entries and 220 heap pages a scan within a minute of the bench, and the cost grows until a
 * vacuum (never, on the embedded database). Index scans keep a scan to the live entries. Over
 * 20 endpoints written at once they cannot always mark what they pass, and the fan-out bench read
 * slower with them: not settled (docs/adr/0015-webhook-fan-out.md, sixth pass).
 */
export const QUEUE_PLANNER = { enable_bitmapscan: 'off' } as const;

/** The row of a record-and-claim statement that claimed nothing: only `held`. */
interface RecordedRow {
  held: number;
  id: null;
}

/** How often the worker looks for endpoints to disable (endpoint-health.ts). */
const HEALTH_EVERY_MS = 60_000;

/**
 * At most one studio NOTIFY carried by this worker's statements in this many ms; a change made
 * meanwhile is told by one NOTIFY at the end of the interval (`announceNow`). Every process that
 * listens to the change feed (each API instance, each worker) receives every NOTIFY: one a
 * statement, about 250 a second per busy worker, cost a second worker on the bench's one endpoint
 * 6-8% of its throughput.
 */
export const ANNOUNCE_EVERY_MS = 100;

/**
 * Claims due attempts with FOR UPDATE SKIP LOCKED (so any number of workers, in any number of
 * processes, never take the same attempt), sends them, and records the outcomes.
 *
 * A pipeline, not rounds: attempts are claimed whenever this worker has room (up to
 * `maxInFlight`), and per endpoint only up to `endpointConcurrency` attempts in flight across
 * all workers, so a slow, failing or hanging endpoint holds its own slots and nobody else's.
 * While several workers run, each claims only for its share of the endpoints (delivery-crew.ts).
 * Outcomes are recorded in batches (one statement for whatever finished meanwhile). No
 * transaction stays open during an HTTP call. A claim is a lease: if the worker dies, the same
 * attempt is taken over after the lease (at-least-once). Committed changes are expanded into
 * deliveries here too (outbox.ts), in batches, after their commit.
 */
export class DeliveryWorker {
  /** This worker's row in the crew (delivery-crew.ts). */
  readonly id = randomUUID();
  /** When this worker next moves its crew row on (Date.now()). */
  private nextBeat = 0;
  /**
   * When a statement of this worker last carried the studio's NOTIFY; whether a statement since
   * left it out; and the NOTIFY then due at the end of the interval (announceNow).
   */
  private lastAnnounced = 0;
  private announceOwed = false;
  private announceLater: NodeJS.Timeout | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private inFlight = 0;
  private readonly sending = new Set<Promise<void>>();
  private outcomes: Outcome[] = [];
  private recording: Promise<void> | null = null;
  /** The end of the last claiming statement queued (oneClaimAtATime). */
  private claimTurn: Promise<void> = Promise.resolve();
  private lastHealthCheck = 0;
  /** Change rows the last tick expanded. */
  private expanded = 0;
  /** Whether changes may wait: after a NOTIFY, a poll, or an expansion that filled its batch. */
  private expandDue = true;
  /**
   * The claim, the record-and-claim and the record statements, prepared (src/db/prepared-statement.ts):
   * planning the record-and-claim's CTEs took 1.1 to 1.3 ms of each execution.
   */
  private readonly claimStatement: (connection: Connection, params: unknown[]) => Promise<Claimed[]>;
  private readonly recordAndClaimStatement: (connection: Connection, params: unknown[]) => Promise<(RecordedRow | (Claimed & { held: number }))[]>;
  private readonly recordStatement: (connection: Connection, params: unknown[]) => Promise<unknown[]>;

  constructor(
    private readonly connection: () => Connection,
    private readonly sender: WebhookSender,
    private readonly options: WorkerOptions,
    private readonly logger: Logger,
    private readonly wakeSource: WakeSource | null = null,
    private readonly metrics: WebhookMetrics | null = null,
    /** Tells every instance that deliveries changed (the studio shows them); called after each write. */
    private readonly announcer: Announcer | null = null,
    private readonly expander: Expander | null = null,
    private readonly now: () => Date = () => new Date(),
  ) {
    wakeSource?.onWake(() => {
      this.expandDue = true;
      this.wake?.();
    });
    this.claimStatement = preparedStatement(
      `with ${ASYNC_COMMIT}, ${claimCtes(NOTHING_RECORDED)},
       ${this.announcedCte('claimed')}
       ${CLAIMED_SELECT}`,
      { planner: QUEUE_PLANNER },
    );
    this.recordAndClaimStatement = preparedStatement(
      `with ${ASYNC_COMMIT}, ${this.announcedCte()}, ${OUTCOME_CTES}, ${claimCtes(OUTCOMES_RECORDED)},
            held as (select (select count(*) from healed) + (select count(*) from done where status_code = 410) as n)
       select h.n::int as held, c.id, c.attempt, c.replay_of, c.endpoint_id, c.event_id, e.url, e.secret, e.next_secret, e.next_secret_from,
              ev.type as event_type, ev.payload
         from held h left join (claimed c join webhook_endpoint e on e.id = c.endpoint_id join webhook_event ev on ev.id = c.event_id) on true
              cross join async_commit cross join announced`,
      { planner: QUEUE_PLANNER },
    );
    this.recordStatement = preparedStatement(`with ${ASYNC_COMMIT}, ${this.announcedCte()}, ${OUTCOME_CTES} select count(*) from healed`, {
      planner: QUEUE_PLANNER,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming and waits for the attempts in flight to be sent and recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    if (this.announceLater) clearTimeout(this.announceLater);
    this.announceLater = null;
    if (this.announceOwed) {
      this.announceOwed = false;
      this.announcer?.changed();
    }
    if (this.nextBeat > 0) {
      await leaveCrew(this.connection(), this.id).catch((err) =>
        this.logger.warn({ err: (err as Error).message }, 'webhook worker could not leave the crew; the others take its share when its row runs out'),
      );
    }
    await this.announcer?.settled();
    await this.wakeSource?.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let progressed = false;
      try {
        progressed = (await this.tick()) > 0 || this.expanded > 0;
      } catch (err) {
        this.logger.error({ err: (err as Error).message }, 'webhook worker tick failed');
      }
      // Full: wait for a slot (a recorded outcome wakes us). Nothing due: wait for a NOTIFY, an
      // outcome or the next poll. Otherwise go on at once.
      if (this.running && (!progressed || this.inFlight >= this.options.maxInFlight)) {
        // Never past the crew row's next beat (an idle worker keeps its share).
        if (await this.sleep(Math.max(0, Math.min(this.options.pollMs, this.nextBeat - Date.now())))) this.expandDue = true;
      }
    }
    await Promise.all(this.sending);
    await this.recording;
    if (this.outcomes.length) await this.record();
  }

  /** Resolves true when the poll interval ran out, false when woken. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
  }

  /** Expands committed changes, then claims what fits and starts sending it; returns how many attempts it claimed. */
  async tick(): Promise<number> {
    if (Date.now() >= this.nextBeat) {
      this.nextBeat = Date.now() + crewBeatMs(this.options.leaseMs);
      await joinCrew(this.connection(), this.id, crewTtlMs(this.options.leaseMs));
    }
    // An expansion is a transaction: run it when changes may wait, not on every tick.
    this.expanded = this.expander && this.expandDue ? await this.expander.expand(this.options.expandBatch) : 0;
    this.expandDue = this.expanded >= this.options.expandBatch;
    const done = await this.oneClaimAtATime(async () => {
      const room = this.options.maxInFlight - this.inFlight;
      if (room <= 0) return 0;
      const claimed = await this.claim(Math.min(room, this.options.batchSize));
      if (claimed.length) this.announcer?.notified();
      for (const d of claimed) this.launch(d);
      return claimed.length;
    });
    if (Date.now() - this.lastHealthCheck >= HEALTH_EVERY_MS) {
      this.lastHealthCheck = Date.now();
      await this.checkHealth(this.now());
    }
    return done;
  }

  /** Disables the endpoints failing for too long at `now` (endpoint-health.ts); returns their ids. */
  async checkHealth(now: Date): Promise<string[]> {
    const ids = await disableFailingEndpoints(this.connection(), now);
    if (ids.length) {
      this.logger.warn({ endpoints: ids }, 'webhook endpoints disabled: every delivery failed for 5 days');
      this.announcer?.changed();
    }
    return ids;
  }

  /** Waits until every attempt started so far is sent and recorded (tests, benchmarks). */
  async drain(): Promise<void> {
    while (this.sending.size || this.recording || this.outcomes.length) {
      await Promise.all(this.sending);
      await this.recording;
      if (this.outcomes.length && !this.recording) await this.oneClaimAtATime(() => this.record());
    }
  }

  /**
   * Runs the statements that claim (a tick's claim, a record that also claims) one after the
   * other: two at once would each count the same live leases and could, together, exceed the
   * per-endpoint cap.
   */
  private oneClaimAtATime<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.claimTurn.then(fn);
    this.claimTurn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private launch(d: Claimed): void {
    this.inFlight++;
    const p = this.deliver(d)
      .catch((err) => this.logger.error({ err: (err as Error).message, delivery: d.id }, 'webhook attempt not recorded'))
      .finally(() => {
        this.sending.delete(p);
      });
    this.sending.add(p);
  }

  private async claim(limit: number): Promise<Claimed[]> {
    try {
      return await this.claimStatement(this.connection(), [this.id, this.options.endpointConcurrency, limit, limit, this.options.leaseMs, this.announceNow()]);
    } finally {
      this.announceOwedLater();
    }
  }

  /**
   * `announced`: the studio's NOTIFY (the announcer's) carried by the statement itself, delivered
   * on its commit, so telling the other instances costs no round trip; only when its parameter
   * (`announceNow()`) is true and, with `after`, when that CTE has rows. One row whether it
   * notified or not (the outcomes are read through it), none when `after` has none. The caller
   * then bumps this instance (`announcer.notified()`).
   */
  private announcedCte(after?: string): string {
    return `announced as (select count(*) as n from (${this.announcer?.notifySql ?? 'select 1'} where ?::boolean) x${after ? ` having exists (select from ${after})` : ''})`;
  }

  /**
   * Whether the next statement carries the studio's NOTIFY: yes when none did in the last
   * ANNOUNCE_EVERY_MS. Otherwise the NOTIFY is owed: once the statement has committed
   * (`announceOwedLater`), one NOTIFY of its own goes at the end of the interval (at most one
   * waits), so another instance hears of a change at most that much later, and never before it.
   */
  private announceNow(): boolean {
    if (!this.announcer) return false;
    const now = Date.now();
    if (now - this.lastAnnounced >= ANNOUNCE_EVERY_MS) {
      this.lastAnnounced = now;
      return true;
    }
    this.announceOwed = true;
    return false;
  }

  /** After a statement: the NOTIFY it left out, if any, at the end of the interval. */
  private announceOwedLater(): void {
    if (!this.announceOwed || this.announceLater) return;
    this.announceLater = setTimeout(
      () => {
        this.announceLater = null;
        this.announceOwed = false;
        this.lastAnnounced = Date.now();
        this.announcer?.changed();
      },
      Math.max(0, this.lastAnnounced + ANNOUNCE_EVERY_MS - Date.now()),
    );
    this.announceLater.unref();
  }

  private async deliver(d: Claimed): Promise<void> {
    const body = d.payload;
    const startedAt = new Date();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const stamp = String(timestamp);
    const endpoint = { secret: d.secret, nextSecret: d.next_secret, nextSecretFrom: d.next_secret_from ? new Date(d.next_secret_from) : null };
    const signatures = sign(signingSecret(endpoint, startedAt), body, timestamp);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'SVC-Webhooks/1.0',
      [HEADER.event]: d.event_type,
      [HEADER.delivery]: d.id,
      [HEADER.timestamp]: stamp,
      [HEADER.attempt]: String(d.attempt),
      [HEADER.signature]: signatures.signature,
      [HEADER.signatureTimestamped]: signatures.timestamped,
    };
    if (d.replay_of) headers[HEADER.replayOf] = d.replay_of;
    headers[STANDARD_HEADER.id] = d.event_id;
    headers[STANDARD_HEADER.timestamp] = stamp;
    headers[STANDARD_HEADER.signature] = signStandard(activeSecrets(endpoint, startedAt), d.event_id, timestamp, body);
    const result = await this.sender.send(d.url, headers, body);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    const last = d.attempt >= maxAttempts(this.options.schedule);
    const status = ok ? 'succeeded' : gone || last ? 'failed' : 'pending';
    const error =
      result.error ??
      (ok
        ? null
        : result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400
          ? `redirect ${result.statusCode} not followed`
          : `HTTP ${result.statusCode}`);
    const delay = status === 'pending' ? this.options.schedule[d.attempt - 1] : null;
    this.metrics?.attempt(ok ? 'succeeded' : gone ? 'gone' : status === 'failed' ? 'failed' : 'retry', result.durationMs / 1000);
    this.outcomes.push({ d, headers, startedAt, result, status, delay, error, gone });
    // The slot is free once the outcome is written (a claim counts an unrecorded attempt as in flight).
    await this.scheduleRecord();
  }

  /** Group commit: one statement writes every outcome that arrived while the previous one ran. */
  private async scheduleRecord(): Promise<void> {
    // The outcomes that arrive in this turn of the event loop join the group: else the first answer
    // of a burst goes alone and the rest wait for it (groups of 1 and 31, which then stay apart).
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.recording) await this.recording;
    if (this.outcomes.length === 0) return;
    this.recording = this.oneClaimAtATime(() => this.record()).finally(() => {
      this.recording = null;
    });
    await this.recording;
  }

  private async record(): Promise<void> {
    const batch = this.outcomes;
    this.outcomes = [];
    // While the loop runs, the statement that frees the slots also fills them (and any other room of
    // this worker): one statement a group instead of a record and a claim after it.
    const limit = this.running ? Math.min(this.options.maxInFlight - (this.inFlight - batch.length), this.options.batchSize) : 0;
    const outcomes = JSON.stringify(
      batch.map((o) => ({
        id: o.d.id,
        attempt: o.d.attempt,
        started_at: o.startedAt.toISOString(),
        duration_ms: o.result.durationMs,
        headers: o.headers,
        status_code: o.result.statusCode,
        error: o.error,
        excerpt: o.result.excerpt,
        status: o.status,
        delay_ms: o.delay,
      })),
    );
    let claimed: Claimed[] = [];
    let wake = true;
    try {
      if (limit > 0) {
        const rows = await this.recordAndClaimStatement(this.connection(), [
          this.announceNow(),
          outcomes,
          this.id,
          this.options.endpointConcurrency,
          limit,
          limit,
          this.options.leaseMs,
        ]);
        claimed = rows.filter((r: RecordedRow | (Claimed & { held: number })): r is Claimed & { held: number } => r.id !== null);
        // The loop claims what this statement did not: more may be due when it filled its limit, and
        // it left out the endpoints whose row it changed (health) or that answered 410 Gone.
        wake = claimed.length >= limit || (rows[0]?.held ?? 0) > 0;
      } else {
        await this.recordStatement(this.connection(), [this.announceNow(), outcomes]);
      }
    } finally {
      this.announceOwedLater();
      this.inFlight -= batch.length;
      for (const d of claimed) this.launch(d);
      if (wake) this.wake?.();
    }
    for (const o of batch.filter((x) => x.gone)) {
      await this.connection().execute(`update webhook_endpoint set enabled = false, disabled_at = now(), disabled_reason = ? where id = ?`, [
        `the receiver answered 410 Gone at ${new Date().toISOString()}`,
        o.d.endpoint_id,
      ]);
      this.logger.warn({ endpoint: o.d.endpoint_id }, 'webhook endpoint disabled after 410 Gone');
    }
    this.announcer?.notified();
    for (const o of batch) this.logger.debug({ delivery: o.d.id, attempt: o.d.attempt, status: o.status, code: o.result.statusCode }, 'webhook attempt');
  }
}
