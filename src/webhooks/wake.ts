import { Client } from 'pg';
import type { EmbeddedPostgres } from '../db/embedded-postgres';
import type { Logger } from '../lib/logger';
import type { WakeSource } from './delivery.worker';
import { WAKE_CHANNEL } from './outbox';

/**
 * Wakes workers right after a commit that wrote deliveries (the outbox NOTIFYs on commit), so
 * the first attempt does not wait for the next poll. Polling stays as the safety net.
 */
export async function createWakeSource(opts: { url: string; embedded: EmbeddedPostgres | null; logger: Logger }): Promise<WakeSource> {
  const listeners: (() => void)[] = [];
  const fire = () => {
    for (const l of listeners) l();
  };
  if (opts.embedded) {
    const unlisten = await opts.embedded.listen(WAKE_CHANNEL, fire);
    return { onWake: (l) => listeners.push(l), close: unlisten };
  }
  const client = new Client({ connectionString: opts.url });
  client.on('error', (err) => opts.logger.warn({ err: err.message }, 'webhook wake-up connection lost; polling continues'));
  client.on('notification', fire);
  await client.connect();
  await client.query(`listen ${WAKE_CHANNEL}`);
  return { onWake: (l) => listeners.push(l), close: () => client.end().catch(() => undefined) };
}
