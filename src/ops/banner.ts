import type { Logger } from '../lib/logger';
import { humanReader } from '../lib/logger';

/**
 * The start banner. On a terminal it is printed as text for the developer who ran `npm start`.
 * Anywhere else stdout is read by a machine (docker logs, a log shipper) that expects one JSON
 * record a line, so the banner becomes one record, `listening on <url>`, with the addresses as fields.
 * Not stderr: docker and systemd merge both streams into one log, where a text banner would
 * break the JSON just the same. The demo keys stay out of that record (they are credentials,
 * even demo ones); the README lists them.
 */
export function announce(logger: Logger, lines: readonly string[], fields: { url: string } & Record<string, unknown>): void {
  if (humanReader()) {
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  // Logged whatever LOG_LEVEL says (as the text banner is printed): it is how a reader knows the service is up.
  const out = logger.isLevelEnabled('info') ? logger : logger.child({}, { level: 'info' });
  out.info(fields, `listening on ${fields.url}`);
}
