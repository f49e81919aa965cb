import { DomainError } from '../domain/errors';

/**
 * The database edge: PostgreSQL errors become domain errors here, once, so that no door answers
 * 500 for a race that the database settled. MikroORM wraps driver errors in its own exceptions
 * (UniqueConstraintViolationException, DeadlockException, ...) and copies the driver's fields
 * onto them, so the SQLSTATE `code`, `constraint` and `detail` read the same on both.
 */
interface PgFailure {
  code: string;
  constraint?: string;
  detail?: string;
}

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const RETRYABLE = new Set(['40001', '40P01']);

/** What a unique constraint protects, named the way a caller wrote it. */
const UNIQUE_MESSAGES: Record<string, (value: string) => string> = {
  channel_slug_unique: (v) => `channel "${v}" already exists`,
  partner_slug_unique: (v) => `partner "${v}" already exists`,
  studio_user_email_unique: (v) => `a studio user "${v}" already exists`,
  broadcast_slug_unique: (v) => `a broadcast with slug "${v}" already exists`,
  fighter_slug_unique: (v) => `fighter "${v}" already exists`,
  fighter_fighter_code_unique: (v) => `a fighter with fighter ID "${v}" already exists`,
  licence_licence_no_unique: (v) => `licence number "${v}" is already issued`,
  licence_one_current_per_fighter: () => 'the fighter already has a current licence',
  certificate_certificate_no_unique: (v) => `certificate number "${v}" is already issued`,
  event_code_unique: (v) => `event "${v}" already exists`,
  country_code_unique: (v) => `a country with code "${v}" already exists`,
  bout_event_id_order_unique: () => 'the event already has a bout in that order',
  channel_member_channel_id_user_id_unique: () => 'the user already has a role on that channel',
  ranking_run_as_of_unique: (v) => `a ranking run as of ${v} already exists`,
};

function pgFailure(err: unknown): PgFailure | null {
  if (typeof err !== 'object' || err === null) return null;
  const { code, constraint, detail } = err as Record<string, unknown>;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return null;
  return { code, constraint: typeof constraint === 'string' ? constraint : undefined, detail: typeof detail === 'string' ? detail : undefined };
}

/** `Key (slug)=(abc) already exists.` → { field: 'slug', value: 'abc' } */
function keyOf(detail: string | undefined): { field?: string; value: string } {
  const m = /^Key \(([^)]*)\)=\((.*)\)/.exec(detail ?? '');
  return m ? { field: m[1], value: m[2] } : { value: '' };
}

/** True for a serialization failure or a deadlock: the transaction may be run again. */
export function isRetryableDbError(err: unknown): boolean {
  const failure = pgFailure(err);
  return failure !== null && RETRYABLE.has(failure.code);
}

/** Socket errors of a connection that cannot be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/**
 * SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, recovering),
 * 53300 too many connections.
 */
const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** What the pg driver, its pool and knex's pool say without a code when a connection is lost or cannot be had. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Client has encountered a connection error and is not queryable/i,
  /Timeout acquiring a connection/i,
  /timeout exceeded when trying to connect/i,
  /Client was closed and is not queryable/i,
  /terminating connection due to administrator command/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/**
 * True when `err` says the database cannot be reached right now (refused, cut, restarting, pool
 * starved), as opposed to a query it refused: the doors answer 503 `unavailable` with Retry-After,
 * and the next request tries again on a fresh connection, so service resumes by itself. Wrapped
 * errors (MikroORM's exceptions, `cause`) are followed.
 */
export function isDbUnavailable(err: unknown): boolean {
  for (let e = err, hops = 0; typeof e === 'object' && e !== null && hops < 5; hops++) {
    const { code, message, name, errno } = e as Record<string, unknown>;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof errno === 'string' && NETWORK_CODES.has(errno)) return true;
    if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
    const errors = (e as { errors?: unknown }).errors; // AggregateError (IPv4 and IPv6 both refused)
    if (Array.isArray(errors) && errors.some((x) => isDbUnavailable(x))) return true;
    e = (e as { cause?: unknown; previous?: unknown }).cause ?? (e as { previous?: unknown }).previous;
  }
  return false;
}

export const UNAVAILABLE_MESSAGE = 'the service cannot reach its database right now; try again shortly';

/** The domain error for a PostgreSQL error, or null for anything this edge does not know. */
export function translateDbError(err: unknown): DomainError | null {
  if (err instanceof DomainError) return null;
  if (isDbUnavailable(err)) return new DomainError('unavailable', UNAVAILABLE_MESSAGE);
  const failure = pgFailure(err);
  if (!failure) return null;
  if (failure.code === UNIQUE_VIOLATION) {
    const { field, value } = keyOf(failure.detail);
    const message = failure.constraint && UNIQUE_MESSAGES[failure.constraint];
    return new DomainError('conflict', message ? message(value) : `${field ?? 'a unique value'} is already taken`, { constraint: failure.constraint, field });
  }
  if (failure.code === FOREIGN_KEY_VIOLATION) {
    const { field, value } = keyOf(failure.detail);
    const name = field ? `${field} "${value}"` : 'a referenced record';
    const message = failure.detail?.includes('still referenced') ? `${name} is still referenced` : `${name} does not exist`;
    return new DomainError('invalid_reference', message, { constraint: failure.constraint, field });
  }
  if (RETRYABLE.has(failure.code)) {
    return new DomainError('conflict', 'the change collided with a concurrent change; try again');
  }
  return null;
}

/** Rethrows `err` as its domain error when it has one, unchanged otherwise. */
export function rethrowDbError(err: unknown): never {
  throw translateDbError(err) ?? err;
}

const ATTEMPTS = 4;

/**
 * Runs a whole transaction, again after a serialization failure or deadlock (up to 4 attempts,
 * with a short jittered pause), and translates what still fails.
 */
export async function withDbRetry<T>(run: () => Promise<T>, attempts = ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt < attempts && isRetryableDbError(err)) {
        await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10 * attempt));
        continue;
      }
      rethrowDbError(err);
    }
  }
}
