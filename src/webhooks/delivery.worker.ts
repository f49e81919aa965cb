import type { Announcer } from '../domain/announce-change';
import type { Connection } from '@mikro-orm/core';
import type { Logger } from '../lib/logger';
import type { WebhookMetrics } from '../ops/metrics';
import { activeSecrets, signingSecret } from './webhook-endpoint.service';
import type { SendResult, WebhookSender } from './webhook.sender';
import { HEADER, sign, signStandard, STANDARD_HEADER } from './signer';
import { maxAttempts } from './retry-schedule';

export interface WorkerOptions {
  /** Delays before attempts 2..n, ms. */
  schedule: readonly number[];
  /** How long a claimed attempt is ours; a worker that dies mid-delivery loses it after this. */
  leaseMs: number;
  batchSize: number;
  pollMs: number;
}

export interface WakeSource {
  onWake(listener: () => void): void;
  close(): Promise<void>;
}

interface Claimed {
  id: string;
  attempt: number;
  replay_of: string | null;
  endpoint_id: string;
  url: string;
  secret: string;
  next_secret: string | null;
  next_secret_from: Date | null;
  event_id: string;
  event_type: string;
  payload: string;
}

/**
 * Claims due attempts with FOR UPDATE SKIP LOCKED in one statement (so any number of workers,
 * in any number of processes, never take the same attempt), sends them, and records the outcome.
 * No transaction stays open during an HTTP call. A claim is a lease: if the worker dies, the
 * same attempt is taken over after the lease (at-least-once).
 */
export class DeliveryWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly connection: () => Connection,
    private readonly sender: WebhookSender,
    private readonly options: WorkerOptions,
    private readonly logger: Logger,
    private readonly wakeSource: WakeSource | null = null,
    private readonly metrics: WebhookMetrics | null = null,
    /** Tells every instance that deliveries changed (the studio shows them); called after each write. */
    private readonly announcer: Announcer | null = null,
  ) {
    wakeSource?.onWake(() => this.wake?.());
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
    await this.announcer?.settled();
    await this.wakeSource?.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.tick();
      } catch (err) {
        this.logger.error({ err: (err as Error).message }, 'webhook worker tick failed');
      }
      if (claimed < this.options.batchSize && this.running) await this.sleep(this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** Claims and sends one batch; returns how many attempts it claimed. */
  async tick(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length) this.announcer?.changed();
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
  }

  private async claim(): Promise<Claimed[]> {
    return this.connection().execute<Claimed[]>(
      `with due as (
         select d.id from webhook_delivery d
           join webhook_endpoint e on e.id = d.endpoint_id
           left join partner p on p.id = e.partner_id
          where ((d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.lease_until < now()))
            and e.enabled and (p.id is null or p.status = 'active')
          order by d.next_attempt_at
          limit ? for update of d skip locked),
       claimed as (
         update webhook_delivery d
            set attempt = case when d.status = 'pending' then d.attempt + 1 else d.attempt end,
                status = 'sending', lease_until = now() + (?::int * interval '1 millisecond')
           from due where d.id = due.id
         returning d.id, d.attempt, d.replay_of, d.endpoint_id, d.event_id)
       select c.id, c.attempt, c.replay_of, c.endpoint_id, c.event_id, e.url, e.secret, e.next_secret, e.next_secret_from,
              ev.type as event_type, ev.payload
         from claimed c join webhook_endpoint e on e.id = c.endpoint_id join webhook_event ev on ev.id = c.event_id`,
      [this.options.batchSize, this.options.leaseMs],
    );
  }

  private async deliver(d: Claimed): Promise<void> {
    const body = d.payload;
    const timestamp = Math.floor(Date.now() / 1000);
    const endpoint = { secret: d.secret, nextSecret: d.next_secret, nextSecretFrom: d.next_secret_from ? new Date(d.next_secret_from) : null };
    const now = new Date();
    const signatures = sign(signingSecret(endpoint, now), body, timestamp);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'SVC-Webhooks/1.0',
      [HEADER.event]: d.event_type,
      [HEADER.delivery]: d.id,
      [HEADER.timestamp]: String(timestamp),
      [HEADER.attempt]: String(d.attempt),
      [HEADER.signature]: signatures.signature,
      [HEADER.signatureTimestamped]: signatures.timestamped,
      ...(d.replay_of ? { [HEADER.replayOf]: d.replay_of } : {}),
      [STANDARD_HEADER.id]: d.event_id,
      [STANDARD_HEADER.timestamp]: String(timestamp),
      [STANDARD_HEADER.signature]: signStandard(activeSecrets(endpoint, now), d.event_id, timestamp, body),
    };
    const startedAt = new Date();
    const result = await this.sender.send(d.url, headers, body);
    await this.record(d, headers, startedAt, result);
  }

  private async record(d: Claimed, headers: Record<string, string>, startedAt: Date, r: SendResult): Promise<void> {
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const gone = r.statusCode === 410;
    const last = d.attempt >= maxAttempts(this.options.schedule);
    const status = ok ? 'succeeded' : gone || last ? 'failed' : 'pending';
    const delay = status === 'pending' ? this.options.schedule[d.attempt - 1] : null;
    const error = r.error ?? (ok ? null : r.statusCode !== null && r.statusCode >= 300 && r.statusCode < 400 ? `redirect ${r.statusCode} not followed` : `HTTP ${r.statusCode}`);
    await this.connection().execute(
      `with attempt as (
         insert into webhook_attempt (id, delivery_id, attempt_no, started_at, duration_ms, request_headers, status_code, error, response_excerpt)
         values (gen_random_uuid(), ?, ?, ?, ?, ?::jsonb, ?, ?, ?))
       update webhook_delivery set status = ?, lease_until = null, last_status_code = ?, last_error = ?,
              next_attempt_at = case when ?::int is null then next_attempt_at else now() + (?::int * interval '1 millisecond') end,
              completed_at = case when ? in ('succeeded', 'failed') then now() else null end
        where id = ? and attempt = ?`,
      [d.id, d.attempt, startedAt, r.durationMs, JSON.stringify(headers), r.statusCode, error, r.excerpt,
        status, r.statusCode, error, delay, delay, status, d.id, d.attempt],
    );
    this.metrics?.attempt(ok ? 'succeeded' : gone ? 'gone' : status === 'failed' ? 'failed' : 'retry', r.durationMs / 1000);
    if (gone) {
      await this.connection().execute(
        `update webhook_endpoint set enabled = false, disabled_reason = ? where id = ?`,
        [`the receiver answered 410 Gone at ${new Date().toISOString()}`, d.endpoint_id],
      );
      this.logger.warn({ endpoint: d.endpoint_id }, 'webhook endpoint disabled after 410 Gone');
    }
    this.announcer?.changed();
    this.logger.debug({ delivery: d.id, attempt: d.attempt, status, code: r.statusCode }, 'webhook attempt');
  }
}
