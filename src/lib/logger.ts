import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { BufferedLogStream } from './log-stream';

/**
 * Logs never carry credentials: request logs are built field by field (no headers), and
 * redaction is a second line of defence for anything that slips into a log object.
 *
 * Output is JSON, one record a line, except on a terminal: when stdout is a TTY and pino-pretty
 * (a dev dependency) is installed, records are rendered for a human. A machine reading the logs
 * (docker, systemd, a log shipper) never gets a TTY, so it always sees JSON. `destination` is
 * for tests, which read the JSON records from a stream.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: undefined,
    redact: {
      paths: ['authorization', 'headers.authorization', 'headers["x-api-key"]', '*.token', '*.secret', '*.password', 'token', 'secret', 'password', 'key'],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination);
  const pretty = humanReader() ? prettyTarget() : null;
  if (pretty) return pino({ ...options, transport: { target: pretty, options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  // Buffered: see log-stream.ts for why (every request is logged) and what it costs.
  return pino(options, new BufferedLogStream(1));
}

/**
 * Writes one record, already serialised as pino would (`{"level":30,"time":...,...,"msg":...}`),
 * to the logger's own destination: for the access log, whose fields are few, fixed and free of
 * anything secret (no header, no query), so pino's generic serialisation and redaction can be skipped.
 */
export function rawLineWriter(logger: Logger): (line: string) => void {
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
  return (line) => void stream.write(line);
}

/** Whether a person reads stdout: the banner and pretty records are for them. */
export function humanReader(): boolean {
  return process.stdout.isTTY === true;
}

function prettyTarget(): string | null {
  try {
    return require.resolve('pino-pretty');
  } catch {
    return null; // a production install (npm ci --omit=dev) has no pino-pretty: JSON it is
  }
}

export type { Logger };
