import { classifyDbError, retryingTransaction } from '../db/pg-errors';
import { DomainError } from './errors';

/**
 * The domain's words for what the database edge classifies (src/db/pg-errors.ts): a unique
 * violation is a `conflict` named after what the constraint protects, a foreign key an
 * `invalid_reference`, a collision that outlived its retries a `conflict`.
 */

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

/**
 * The words for a database that cannot be reached: the doors answer 503 `unavailable` with
 * Retry-After, and the next request tries again on a fresh connection, so service resumes by itself.
 */
export const UNAVAILABLE_MESSAGE = 'the service cannot reach its database right now; try again shortly';

/** True when `err` says the database cannot be reached right now (as opposed to a query it refused). */
export function isDbUnavailable(err: unknown): boolean {
  return classifyDbError(err)?.kind === 'unavailable';
}

/** The domain error for a PostgreSQL error, or null for anything the database edge does not classify. */
export function translateDbError(err: unknown): DomainError | null {
  if (err instanceof DomainError) return null;
  const failure = classifyDbError(err);
  if (!failure) return null;
  switch (failure.kind) {
    case 'unique_violation': {
      const message = failure.constraint && UNIQUE_MESSAGES[failure.constraint];
      return new DomainError('conflict', message ? message(failure.value) : `${failure.field ?? 'a unique value'} is already taken`, {
        constraint: failure.constraint,
        field: failure.field,
      });
    }
    case 'foreign_key_violation': {
      const name = failure.field ? `${failure.field} "${failure.value}"` : 'a referenced record';
      return new DomainError('invalid_reference', failure.stillReferenced ? `${name} is still referenced` : `${name} does not exist`, {
        constraint: failure.constraint,
        field: failure.field,
      });
    }
    case 'retryable':
      return new DomainError('conflict', 'the change collided with a concurrent change; try again');
    case 'unavailable':
      return new DomainError('unavailable', UNAVAILABLE_MESSAGE);
  }
}

/** Rethrows `err` as its domain error when it has one, unchanged otherwise. */
export function rethrowDbError(err: unknown): never {
  throw translateDbError(err) ?? err;
}

/**
 * Runs a whole transaction, again after a serialization failure or deadlock (the database edge's
 * retries), and translates what still fails.
 */
export function withDbRetry<T>(run: () => Promise<T>, attempts?: number): Promise<T> {
  return retryingTransaction(run, attempts).catch(rethrowDbError);
}
