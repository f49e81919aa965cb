import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../domain/audit/audit.log';
import { DomainError, notFound } from '../domain/errors';
import { sql, type UnitOfWork } from '../domain/unit-of-work';
import { WAKE_CHANNEL } from './outbox';
import { DELIVERY_STATUSES, type DeliveryStatus } from './webhook.entities';
import { isUuid } from '../domain/ids';
import { storableInstant } from '../domain/date-range';

export interface DeliveryView {
  id: string;
  event_id: string;
  event: string;
  endpoint_id: string;
  status: DeliveryStatus;
  attempt: number;
  next_attempt_at: Date;
  replay_of: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface AttemptView {
  delivery_id: string;
  attempt_no: number;
  started_at: Date;
  duration_ms: number;
  request_headers: Record<string, string>;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

const SELECT_DELIVERY = `select d.id, d.event_id, ev.type as event, d.endpoint_id, d.status, d.attempt, d.next_attempt_at,
    d.replay_of, d.last_status_code, d.last_error, d.created_at, d.completed_at
  from webhook_delivery d join webhook_event ev on ev.id = d.event_id`;

/**
 * The delivery log's order, newest first (`${alias}` is the delivery's): by the change's time,
 * then by event id, which the expansion mints in the order a transaction's events happened
 * (`broadcast.ended` before `replay.ready`), then by id.
 */
export const newestFirst = (alias: string) => `${alias}.created_at desc, ${alias}.event_id desc, ${alias}.id desc`;

const STATUSES: readonly string[] = DELIVERY_STATUSES;
/** Raw queries return timestamps as PostgreSQL text: the views promise Dates. */
const at = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
export const deliveryView = (r: DeliveryView): DeliveryView => ({
  ...r,
  next_attempt_at: at(r.next_attempt_at)!,
  created_at: at(r.created_at)!,
  completed_at: at(r.completed_at),
});
const uuid = (id: string, what: string) => {
  if (!isUuid(id)) throw new DomainError('invalid_id', `${what} is a uuid`);
};

/** The delivery log (docs/decisions.md#delivery-log), replay (docs/decisions.md#replay) and bulk recovery (docs/decisions.md#gone). */
export class DeliveryLogService {
  constructor(private readonly uow: UnitOfWork) {}

  async list(filter: { endpointId?: string; status?: string; limit?: number } = {}, tx?: EntityManager): Promise<DeliveryView[]> {
    if (filter.endpointId) uuid(filter.endpointId, 'an endpoint id');
    if (filter.status && !STATUSES.includes(filter.status)) throw new DomainError('invalid_status', `status must be one of ${STATUSES.join(', ')}`);
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.endpointId) {
      where.push('d.endpoint_id = ?');
      params.push(filter.endpointId);
    }
    if (filter.status) {
      where.push('d.status = ?');
      params.push(filter.status);
    }
    const rows = await this.uow.run(tx, (em) =>
      sql<DeliveryView[]>(
        em,
        `${SELECT_DELIVERY}
        ${where.length ? `where ${where.join(' and ')}` : ''}
        order by ${newestFirst('d')} limit ?`,
        [...params, Math.min(filter.limit ?? 100, 1000)],
      ),
    );
    return rows.map(deliveryView);
  }

  async attempts(deliveryIds: string[], tx?: EntityManager): Promise<AttemptView[]> {
    if (deliveryIds.length === 0) return [];
    for (const id of deliveryIds) uuid(id, 'a delivery id');
    const rows = await this.uow.run(tx, (em) =>
      sql<AttemptView[]>(
        em,
        `select delivery_id, attempt_no, started_at, duration_ms, request_headers, status_code, error, response_excerpt
         from webhook_attempt where delivery_id = any(?::uuid[]) order by delivery_id, attempt_no, started_at`,
        [`{${deliveryIds.join(',')}}`],
      ),
    );
    return rows.map((r) => ({ ...r, started_at: at(r.started_at)! }));
  }

  /** A new attempt series of the same event: new delivery id, X-SVC-Replay-Of, attempts from 1. */
  async replay(actor: Actor, deliveryId: string, tx?: EntityManager): Promise<DeliveryView> {
    uuid(deliveryId, 'a delivery id');
    return this.uow.run(tx, async (em, changed) => {
      const [created] = await sql<{ id: string }[]>(
        em,
        `insert into webhook_delivery (id, event_id, endpoint_id, status, attempt, next_attempt_at, replay_of, created_at)
         select gen_random_uuid(), d.event_id, d.endpoint_id, 'pending', 0, now(), d.id, now()
           from webhook_delivery d where d.id = ? returning id`,
        [deliveryId],
      );
      if (!created) throw notFound(`delivery "${deliveryId}"`);
      audit(em, actor, 'deliveries.replay', deliveryId, { replay: created.id });
      await sql(em, `select pg_notify('${WAKE_CHANNEL}', '')`);
      await changed({ topics: ['studio'] });
      return (await this.byIds(em, [created.id]))[0];
    });
  }

  /** Re-sends every failed delivery of an endpoint created in [since, until). */
  async recover(actor: Actor, input: { endpointId: string; since: Date; until?: Date }, tx?: EntityManager): Promise<DeliveryView[]> {
    uuid(input.endpointId, 'an endpoint id');
    if (Number.isNaN(input.since.getTime()) || (input.until && Number.isNaN(input.until.getTime()))) {
      throw new DomainError('invalid_since', 'since and until must be ISO 8601 times');
    }
    storableInstant('since', input.since);
    if (input.until) storableInstant('until', input.until);
    return this.uow.run(tx, async (em, changed) => {
      const [endpoint] = await sql<{ id: string }[]>(em, `select id from webhook_endpoint where id = ?`, [input.endpointId]);
      if (!endpoint) throw notFound(`webhook endpoint "${input.endpointId}"`);
      const created = await sql<{ id: string }[]>(
        em,
        `insert into webhook_delivery (id, event_id, endpoint_id, status, attempt, next_attempt_at, replay_of, created_at)
         select gen_random_uuid(), d.event_id, d.endpoint_id, 'pending', 0, now(), d.id, now()
           from webhook_delivery d
          where d.endpoint_id = ? and d.status = 'failed' and d.created_at >= ? and (?::timestamptz is null or d.created_at < ?::timestamptz)
         returning id`,
        [input.endpointId, input.since, input.until ?? null, input.until ?? null],
      );
      audit(em, actor, 'deliveries.recover', input.endpointId, { count: created.length });
      await sql(em, `select pg_notify('${WAKE_CHANNEL}', '')`);
      await changed({ topics: ['studio'] });
      return this.byIds(
        em,
        created.map((c) => c.id),
      );
    });
  }

  /** Deliveries by id, oldest first, read in the caller's transaction. */
  async byIds(em: EntityManager, ids: string[]): Promise<DeliveryView[]> {
    if (ids.length === 0) return [];
    const rows = await sql<DeliveryView[]>(em, `${SELECT_DELIVERY} where d.id = any(?::uuid[]) order by d.created_at, d.event_id, d.id`, [
      `{${ids.join(',')}}`,
    ]);
    return rows.map(deliveryView);
  }
}
