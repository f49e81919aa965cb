import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../domain/clock';
import type { DomainEvent, DomainEventSink } from '../domain/domain-events';
import { pgArray } from '../domain/catalog/fighter-summary.sql';
import { announceChange } from '../db/announce-change';
import { sql } from '../domain/unit-of-work';
import { newEventId } from './event-id';
import type { Payload, WebhookPayloads } from './webhook-payloads';

export const WAKE_CHANNEL = 'svc_webhooks';

/**
 * Who receives: partner endpoints, a channel's endpoints (each subscribed to the event), or one
 * endpoint whatever it subscribed to (the studio's test `ping`).
 */
export type Audience = { kind: 'partners' } | { kind: 'channel'; channelId: string } | { kind: 'endpoint'; endpointId: string };

/** ISO 8601 with an explicit offset, as the envelope promises. */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

/**
 * The transactional outbox (docs/decisions.md#outbox): events and one delivery per subscribed endpoint are inserted
 * in the transaction of the change, then a NOTIFY (delivered on commit) wakes the workers. A
 * rollback takes the events with it; a crash after commit loses nothing.
 */
export class Outbox implements DomainEventSink {
  private readonly subscribedIn = new WeakMap<EntityManager, Set<string>>();

  constructor(private readonly payloads: WebhookPayloads, private readonly clock: Clock) {}

  async publish(em: EntityManager, events: DomainEvent[]): Promise<void> {
    // Building a payload costs queries: skip event types no endpoint subscribes to. The answer
    // is kept for the rest of the transaction (a bulk operation asks once).
    let wanted = this.subscribedIn.get(em);
    if (!wanted) {
      const rows = await sql<{ type: string; channel_id: string | null }[]>(em,
        `select distinct unnest(events) as type, channel_id from webhook_endpoint where enabled`);
      wanted = new Set(rows.map((r) => `${r.channel_id ?? 'partners'}|${r.type}`));
      this.subscribedIn.set(em, wanted);
    }
    for (const event of events) {
      const audience: Audience = 'channelId' in event ? { kind: 'channel', channelId: event.channelId } : { kind: 'partners' };
      if (!wanted.has(`${audience.kind === 'channel' ? audience.channelId : 'partners'}|${event.type}`)) continue;
      await this.write(em, await this.payloads.build(em, [event]), audience);
    }
  }

  async write(em: EntityManager, payloads: Payload[], audience: Audience): Promise<string[]> {
    if (payloads.length === 0) return [];
    const createdAt = isoWithOffset(this.clock.now());
    const envelopes = payloads.map((p) => ({ id: newEventId(), event: p.type, created_at: createdAt, data: p.data }));
    await sql(em,
      `insert into webhook_event (id, type, payload, created_at)
       select x.id, x.type, x.payload, ?::timestamptz from unnest(?::text[], ?::text[], ?::text[]) as x(id, type, payload)`,
      [createdAt, pgArray(envelopes.map((e) => e.id)), pgArray(envelopes.map((e) => e.event)), pgArray(envelopes.map((e) => JSON.stringify(e)))]);
    const ids = `{${envelopes.map((e) => e.id).join(',')}}`;
    const [target, targetParams]: [string, unknown[]] = audience.kind === 'partners' ? ['ev.type = any(e.events) and e.partner_id is not null', []]
      : audience.kind === 'channel' ? ['ev.type = any(e.events) and e.channel_id = ?', [audience.channelId]]
      : ['e.id = ?', [audience.endpointId]];
    await sql(em,
      `insert into webhook_delivery (id, event_id, endpoint_id, status, attempt, next_attempt_at, created_at)
       select gen_random_uuid(), ev.id, e.id, 'pending', 0, now(), now()
         from webhook_event ev join webhook_endpoint e on ${target}
        where ev.id = any(?::text[]) and e.enabled`,
      [...targetParams, ids]);
    await sql(em, `select pg_notify('${WAKE_CHANNEL}', '')`);
    await announceChange(em, 'studio');
    return envelopes.map((e) => e.id);
  }
}
