/**
 * The database edge: PostgreSQL errors classified here, once, into a small vocabulary of kinds
 * that the domain words (src/domain/storage-errors.ts), so that no door answers 500 for a race
 * that the database settled, and this edge knows no domain error. MikroORM wraps driver errors
 * in its own exceptions (UniqueConstraintViolationException, DeadlockException, ...) and copies
 * the driver's fields onto them, so the SQLSTATE `code`, `constraint` and `detail` read the same
 * on both.
 */
export type DbFailure =
  /** 23505: `field` and `value` from the detail (`Key (slug)=(abc) already exists.`). */
  | { kind: 'unique_violation'; constraint?: string; field?: string; value: string }
  /** 23503: a referenced row is missing, or (`stillReferenced`) a row is still referenced. */
  | { kind: 'foreign_key_violation'; constraint?: string; field?: string; value: string; stillReferenced: boolean }
  /** 40001 / 40P01: a serialization failure or a deadlock; the whole transaction may be run again. */
  | { kind: 'retryable' }
  /** The database cannot be reached right now (refused, cut, restarting, pool starved). */
  | { kind: 'unavailable' };

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const RETRYABLE = new Set(['40001', '40P01']);

interface PgFailure {
  code: string;
  constraint?: string;
  detail?: string;
}

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

/** What a PostgreSQL error means, or null for anything this edge does not classify. */
export function classifyDbError(err: unknown): DbFailure | null {
  if (isDbUnavailable(err)) return { kind: 'unavailable' };
  const failure = pgFailure(err);
  if (!failure) return null;
  if (failure.code === UNIQUE_VIOLATION) return { kind: 'unique_violation', constraint: failure.constraint, ...keyOf(failure.detail) };
  if (failure.code === FOREIGN_KEY_VIOLATION) {
    return {
      kind: 'foreign_key_violation',
      constraint: failure.constraint,
      ...keyOf(failure.detail),
      stillReferenced: !!failure.detail?.includes('still referenced'),
    };
  }
  if (RETRYABLE.has(failure.code)) return { kind: 'retryable' };
  return null;
}

/** True for a serialization failure or a deadlock: the transaction may be run again. */
export function isRetryableDbError(err: unknown): boolean {
  return classifyDbError(err)?.kind === 'retryable';
}

const ATTEMPTS = 4;

/**
 * Runs a whole transaction, again after a serialization failure or deadlock (up to 4 attempts,
 * with a short jittered pause); what still fails leaves as it was thrown.
 */
export async function retryingTransaction<T>(run: () => Promise<T>, attempts = ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt < attempts && isRetryableDbError(err)) {
        await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 10 * attempt));
        continue;
      }
      throw err;
    }
  }
}
