import { healthHoldsUntil, type Telemetry } from '../../domain/channels/broadcast-health';
import type { LiveEvents } from './live-events';

/**
 * Schedules a broadcast's health subject for the moment its health changes without a report (its
 * latest report going stale: healthHoldsUntil), if it will, so that subscribers see no_signal
 * when the media server falls silent. The delay is taken on the service's clock.
 */
export function wakeHealth(
  events: Pick<LiveEvents<unknown>, 'wakeAt'>,
  channelId: string,
  broadcast: { id: string; source: string },
  telemetry: Telemetry | null,
  now: Date,
): void {
  const until = healthHoldsUntil(broadcast, telemetry, now);
  // holdsUntil is inclusive: the health differs one millisecond later
  if (until !== null) events.wakeAt({ kind: 'health', channelId, id: broadcast.id }, until + 1 - now.getTime());
}
