import type { Connection } from '@mikro-orm/core';

/**
 * The crew of delivery workers (docs/decisions.md#fairness): each worker lists itself in
 * `webhook_worker` while it runs, and every claim serves only the worker's share of the enabled
 * endpoints, so that one endpoint is served by one worker at a time.
 *
 * Why: an endpoint's slots (`endpointConcurrency`) are counted over all workers. Two workers on
 * one endpoint split them, each records its outcomes in groups half as large, and the database
 * then does twice the statements for the same deliveries: a second worker made one busy
 * endpoint slower. With shares, a second worker takes other endpoints and leaves a busy one to
 * the worker that serves it.
 *
 * The shares are a way of working, not what keeps the rules: the claim still counts every live
 * lease of an endpoint, whoever holds it, and locks what it takes (FOR UPDATE SKIP LOCKED). So
 * while the crew changes (a worker starts, stops or dies), two workers may serve one endpoint for
 * a moment, and the cap, the lease and the rate hold as before.
 */

/**
 * How long a worker's row says it is alive (ms): no longer than its lease, and at most 10 s. A
 * worker that dies keeps its share until then; its claimed attempts wait for their lease anyway.
 */
export const crewTtlMs = (leaseMs: number): number => Math.min(leaseMs, 10_000);

/** How often a running worker moves its row on: three times within its time to live. */
export const crewBeatMs = (leaseMs: number): number => Math.max(1, Math.floor(crewTtlMs(leaseMs) / 3));

/**
 * The claim's CTEs `me` (parameter: the worker's id), `crew` and `share`: the enabled endpoints,
 * in id order, dealt out among the workers alive, in id order. The worker itself is always in its
 * crew (before its first row is written, or if its row ran out while it was busy).
 */
export const SHARE_CTES = `me as (select ?::uuid as id),
       crew as (select w.id from webhook_worker w where w.alive_until >= now() union select id from me),
       share as materialized (
         select e.id from (select id, row_number() over (order by id) - 1 as r from webhook_endpoint where enabled) e
          where e.r % (select count(*) from crew) = (select count(*) from crew c where c.id < (select id from me)))`;

/**
 * Lists worker `id` as alive for `ttlMs` from now, and forgets workers whose row ran out an hour
 * ago (they died without leaving).
 */
export async function joinCrew(connection: Connection, id: string, ttlMs: number): Promise<void> {
  await connection.execute(
    `with gone as (delete from webhook_worker where alive_until < now() - interval '1 hour' and id <> ?)
     insert into webhook_worker (id, alive_until) values (?, now() + ? * interval '1 millisecond')
     on conflict (id) do update set alive_until = excluded.alive_until`,
    [id, id, ttlMs],
  );
}

/** Takes worker `id` off the crew: the others take its share at their next claim. */
export async function leaveCrew(connection: Connection, id: string): Promise<void> {
  await connection.execute(`delete from webhook_worker where id = ?`, [id]);
}
