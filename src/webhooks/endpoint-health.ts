import type { Connection } from '@mikro-orm/core';

/** Svix's rule: an endpoint whose every delivery has failed for this long is disabled. */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * 3600 * 1000;

/** An endpoint's health as the operator, the studio and /metrics show it. */
export type EndpointState = 'healthy' | 'failing' | 'disabled';
export const ENDPOINT_STATES: readonly EndpointState[] = ['healthy', 'failing', 'disabled'];

export function endpointState(e: { enabled: boolean; failingSince: Date | null }): EndpointState {
  return !e.enabled ? 'disabled' : e.failingSince ? 'failing' : 'healthy';
}

/**
 * Endpoint health (docs/decisions.md#endpoint-health): `failing_since` is set when a delivery ends
 * failed (out of attempts, or 410) while none has succeeded since, and cleared by any success
 * (delivery.worker.ts records both). An endpoint failing since 5 days before `now` is disabled
 * with the reason; re-enabling it (operator or studio) clears both and its waiting deliveries
 * resume. Returns the disabled endpoints' ids.
 */
export async function disableFailingEndpoints(connection: Connection, now: Date): Promise<string[]> {
  const rows = await connection.execute<{ id: string }[]>(
    `update webhook_endpoint
        set enabled = false, disabled_at = ?::timestamptz,
            disabled_reason = 'every delivery failed since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ' (5 days): disabled automatically; re-enable it once the receiver is fixed'
      where enabled and deleted_at is null and failing_since <= ?::timestamptz - (?::bigint * interval '1 millisecond')
      returning id`,
    [now.toISOString(), now.toISOString(), FAILING_DISABLES_AFTER_MS],
  );
  return rows.map((r: { id: string }) => r.id);
}
