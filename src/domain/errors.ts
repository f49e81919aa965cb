/**
 * Errors the domain raises. They carry a code and never an HTTP status: each door maps codes
 * to its own protocol (REST status table, GraphQL extensions.code).
 */
export type DomainErrorCode =
  | 'not_found'
  | 'invalid_state'
  | 'conflict'
  | 'forbidden'
  | 'insufficient_scope'
  | 'unauthenticated'
  | 'invalid_key'
  | 'rate_limited'
  | 'billing_inactive'
  | 'plan_forbids_source'
  | 'no_live_slot'
  | 'too_many_keys'
  /** The database cannot be reached right now (a restart, a cut connection): try again shortly. */
  | 'unavailable'
  /** An Idempotency-Key sent before with another request (docs/decisions.md#idempotency). */
  | 'idempotency_key_reused'
  /** An Idempotency-Key whose first request is still running. */
  | 'idempotency_key_in_progress'
  | `invalid_${string}`;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`);

/** A key without the scope an operation needs (the HTTP doors check it first, with these words). */
export const insufficientScope = (scope: string, has: readonly string[]): DomainError =>
  new DomainError('insufficient_scope', `this endpoint needs the "${scope}" scope; the key has: ${has.join(', ') || 'none'}`);
