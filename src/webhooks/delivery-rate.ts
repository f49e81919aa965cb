import { DomainError } from '../domain/errors';
import { LEASE_RAN_OUT, PENDING_DUE } from './delivery-due';

/**
 * An endpoint's delivery rate, set by the operator (docs/decisions.md#delivery-rate): at most
 * `rate_per_second` attempts started per second over every worker together, with a burst of up to
 * `max(1, floor(rate))` at once after a quiet spell (a token bucket, kept as GCRA: one timestamp).
 * Null is no limit.
 *
 * The state is `webhook_endpoint.rate_refilled_at`, the time at which the endpoint's bucket is full
 * again: at `now` it holds `burst - rate * (rate_refilled_at - now)` deliveries (all of them when
 * that time is past or null). The claim (delivery.worker.ts) locks each rated endpoint that has
 * room (`FOR NO KEY UPDATE SKIP LOCKED`: one claim at a time per endpoint; another worker skips it
 * for that round), takes at most that room, and moves the time on by claimed / rate seconds in the
 * same statement. Held-back deliveries simply stay pending: no attempt is spent, nothing fails.
 */

export const MIN_RATE_PER_SECOND = 0.01;
export const MAX_RATE_PER_SECOND = 1000;
export const RATE_TEXT = `a number of deliveries per second from ${MIN_RATE_PER_SECOND} to ${MAX_RATE_PER_SECOND}`;

/** The rate the operator may set: null (no limit) or a number within the bounds. */
export function validateRate(rate: number | null): number | null {
  if (rate === null) return null;
  if (!Number.isFinite(rate) || rate < MIN_RATE_PER_SECOND || rate > MAX_RATE_PER_SECOND) {
    throw new DomainError('invalid_rate', `the rate must be ${RATE_TEXT}, or none for no limit`);
  }
  return rate;
}

/** The most deliveries a rated endpoint may start at once (a full bucket). */
export const burstOf = (rate: number): number => Math.max(1, Math.floor(rate));

/** A due attempt of endpoint `e`, as the claim reads it (delivery-due.ts). */
const DUE = `((${PENDING_DUE}) or (${LEASE_RAN_OUT}))`;

/**
 * The claim's CTE `paced`, after CTE `share` (delivery-crew.ts): each enabled rated endpoint of the
 * worker's share with a due attempt and room in its bucket now, locked for this statement, with
 * `room` (how many it may start). A rated endpoint not listed (no room, or another claim holds
 * it) gets nothing this round.
 */
export const PACED_CTE = `paced as materialized (
         select e.id, b.room
           from webhook_endpoint e
           cross join lateral (select floor(greatest(1, floor(e.rate_per_second))
                                 - e.rate_per_second * extract(epoch from greatest(e.rate_refilled_at, now()) - now())::float8)::int as room) b
          where e.rate_per_second is not null and e.enabled and b.room >= 1 and e.id in (select id from share)
            and exists (select 1 from webhook_delivery d where d.endpoint_id = e.id and ${DUE})
            for no key update of e skip locked)`;

/** The claim's CTE `spent`: moves each rated endpoint's bucket on by what the statement claimed from it (CTE `claimed`). */
export const SPENT_CTE = `spent as (
         update webhook_endpoint e
            set rate_refilled_at = greatest(e.rate_refilled_at, now()) + (c.n / e.rate_per_second) * interval '1 second'
           from (select endpoint_id, count(*) as n from claimed group by endpoint_id) c
          where e.id = c.endpoint_id and e.rate_per_second is not null)`;
