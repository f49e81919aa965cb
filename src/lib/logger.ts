import pino, { type Logger } from 'pino';

/**
 * Logs never carry credentials: request logs are built field by field (no headers), and
 * redaction is a second line of defence for anything that slips into a log object.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['authorization', 'headers.authorization', 'headers["x-api-key"]', '*.token', '*.secret', '*.password', 'token', 'secret', 'password', 'key'],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
