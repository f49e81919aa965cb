import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../domain/clock';
import type { DomainEvent, DomainEventSink } from '../domain/domain-events';
import { announceChange } from '../db/announce-change';
import { bulkSql, sql } from '../domain/unit-of-work';
import { newEventId } from './event-id';
import type { Payload } from './event-catalog';
import type { WebhookPayloads } from './webhook-payloads';

export const WAKE_CHANNEL = 'svc_webhooks';
/** A ranking publication's changes are recorded this many to a row: a worker expands a few rows per transaction. */
export const RANKING_CHANGES_PER_ROW = 250;

/**
 * Who receives: partner endpoints, a channel's endpoints (each subscribed to the event), or one
 * endpoint whatever it subscribed to (the studio's test `ping`).
 */
export type Audience = { kind: 'partners' } | { kind: 'channel'; channelId: string } | { kind: 'endpoint'; endpointId: string };

/** ISO 8601 with an explicit offset, as the envelope promises. */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

interface Envelope {
  id: string;
  event: string;
  created_at: string;
  data: unknown;
}

interface ChangeRow {
  id: string;
  type: string;
  channel_id: string | null;
  /** jsonb, as the driver hands it over (text or parsed). */
  subject: DomainEvent | string;
  /** What `publish` built in the change's transaction (json, parsed by the driver); null for a publication's chunk. */
  payloads: Payload[] | string | null;
  created_at: Date;
}

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * The transactional outbox (docs/decisions.md#outbox), in two steps.
 *
 * 1. `publish`, inside the transaction of the change: one `webhook_change` row per domain event
 *    (a ranking publication's changes in chunks), and nothing per endpoint, then one NOTIFY
 *    (delivered on commit, once per transaction). A rollback takes the rows with it. Every event
 *    but a publication's has its payloads built here, from the state the transaction commits
 *    (one event per transaction, one or two indexed reads): a broadcast that goes live and ends
 *    within a millisecond still sends `broadcast.live` with `state: "live"`.
 * 2. `expand`, by a worker after the commit: a few change rows claimed with SKIP LOCKED, a
 *    publication's chunks built in one query each, one event row per payload and one delivery per
 *    subscribed endpoint inserted, the change rows deleted, all in one transaction: a crash in
 *    between rolls back and another worker expands the same rows again.
 *
 * So the writing transaction costs the same whatever the number of endpoints, and a publication's
 * commit never waits for its tens of thousands of payloads (their figures travel in the change
 * row; only the fighters' summaries are read at expansion). The event's and its deliveries'
 * `created_at` is the time of the change, whenever the expansion runs.
 */
export class Outbox implements DomainEventSink {
  private readonly subscribedIn = new WeakMap<EntityManager, Set<string>>();

  constructor(
    private readonly payloads: WebhookPayloads,
    private readonly clock: Clock,
  ) {}

  async publish(em: EntityManager, events: DomainEvent[]): Promise<void> {
    // Skip event types no endpoint subscribes to; the answer is kept for the rest of the
    // transaction (a bulk operation asks once).
    let wanted = this.subscribedIn.get(em);
    if (!wanted) {
      const rows = await sql<{ type: string; channel_id: string | null }[]>(
        em,
        `select distinct unnest(events) as type, channel_id from webhook_endpoint where enabled`,
      );
      wanted = new Set(rows.map((r) => `${r.channel_id ?? 'partners'}|${r.type}`));
      this.subscribedIn.set(em, wanted);
    }
    const now = this.clock.now();
    const rows: { type: string; channel_id: string | null; subject: DomainEvent; payloads: Payload[] | null }[] = [];
    for (const event of events) {
      const channelId = 'channelId' in event ? event.channelId : null;
      if (!wanted.has(`${channelId ?? 'partners'}|${event.type}`)) continue;
      if (event.type === 'ranking.published') {
        for (let i = 0; i < event.changes.length; i += RANKING_CHANGES_PER_ROW) {
          rows.push({
            type: event.type,
            channel_id: null,
            subject: { ...event, changes: event.changes.slice(i, i + RANKING_CHANGES_PER_ROW) },
            payloads: null,
          });
        }
        continue;
      }
      // Built now, from what this transaction commits; nothing (a minor's licence) sends nothing.
      const payloads = await this.payloads.build(em, [event], now);
      if (payloads.length > 0) rows.push({ type: event.type, channel_id: channelId, subject: event, payloads });
    }
    if (rows.length === 0) return;
    await bulkSql(
      em,
      `insert into webhook_change (type, channel_id, subject, payloads, created_at)
       select x.type, x.channel_id, x.subject, x.payloads, ?::timestamptz
         from json_to_recordset(?::json) as x(type text, channel_id uuid, subject jsonb, payloads json)`,
      [now.toISOString(), JSON.stringify(rows)],
    );
    await sql(em, `select pg_notify('${WAKE_CHANNEL}', '')`);
  }

  /**
   * Expands up to `limit` change rows into events and deliveries, in one transaction of its own
   * on `root`; returns how many rows it expanded (0: nothing waits).
   */
  async expand(root: EntityManager, limit: number): Promise<number> {
    return root.fork().transactional(async (em) => {
      const rows = await sql<ChangeRow[]>(
        em as EntityManager,
        `select id, type, channel_id, subject, payloads, created_at from webhook_change order by id limit ? for update skip locked`,
        [limit],
      );
      if (rows.length === 0) return 0;
      const byAudience = new Map<string, { audience: Audience; envelopes: Envelope[] }>();
      for (const row of rows) {
        const at = new Date(row.created_at);
        const audience: Audience = row.channel_id ? { kind: 'channel', channelId: row.channel_id } : { kind: 'partners' };
        const key = row.channel_id ?? 'partners';
        const group = byAudience.get(key) ?? { audience, envelopes: [] };
        const payloads = row.payloads ? parsed(row.payloads) : await this.payloads.build(em as EntityManager, [parsed(row.subject)], at);
        group.envelopes.push(...this.envelopes(payloads, at));
        byAudience.set(key, group);
      }
      for (const { audience, envelopes } of byAudience.values()) await this.insert(em as EntityManager, envelopes, audience);
      await sql(em as EntityManager, `delete from webhook_change where id = any(?::bigint[])`, [`{${rows.map((r) => r.id).join(',')}}`]);
      await sql(em as EntityManager, `select pg_notify('${WAKE_CHANNEL}', '')`);
      await announceChange(em as EntityManager, 'studio');
      return rows.length;
    });
  }

  /** Payloads written at once, with their deliveries (the studio's ping, benchmarks); returns the event ids. */
  async write(em: EntityManager, payloads: Payload[], audience: Audience): Promise<string[]> {
    if (payloads.length === 0) return [];
    const envelopes = this.envelopes(payloads, this.clock.now());
    await this.insert(em, envelopes, audience);
    await sql(em, `select pg_notify('${WAKE_CHANNEL}', '')`);
    await announceChange(em, 'studio');
    return envelopes.map((e) => e.id);
  }

  private envelopes(payloads: Payload[], at: Date): Envelope[] {
    const createdAt = isoWithOffset(at);
    return payloads.map((p) => ({ id: newEventId(), event: p.type, created_at: createdAt, data: p.data }));
  }

  /** The event rows and one delivery per enabled endpoint of the audience subscribed to the event. */
  private async insert(em: EntityManager, envelopes: Envelope[], audience: Audience): Promise<void> {
    if (envelopes.length === 0) return;
    // The payload is kept as the exact text sent (every attempt and replay carries the same bytes).
    const rows = envelopes.map((e) => ({ id: e.id, type: e.event, payload: JSON.stringify(e), created_at: e.created_at }));
    const [target, targetParams]: [string, unknown[]] =
      audience.kind === 'partners'
        ? ['x.type = any(e.events) and e.partner_id is not null', []]
        : audience.kind === 'channel'
          ? ['x.type = any(e.events) and e.channel_id = ?', [audience.channelId]]
          : ['e.id = ?', [audience.endpointId]];
    await bulkSql(
      em,
      `with x as (select * from jsonb_to_recordset(?::jsonb) as x(id text, type text, payload text, created_at timestamptz)),
            ev as (insert into webhook_event (id, type, payload, created_at) select x.id, x.type, x.payload, x.created_at from x)
       insert into webhook_delivery (id, event_id, endpoint_id, status, attempt, next_attempt_at, created_at)
       select gen_random_uuid(), x.id, e.id, 'pending', 0, now(), x.created_at
         from x join webhook_endpoint e on ${target}
        where e.enabled`,
      [JSON.stringify(rows), ...targetParams],
    );
  }
}
