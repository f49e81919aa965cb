import type { Response } from 'express';
import type { DomainErrorCode } from '../domain/errors';

/** The one table from domain error codes to HTTP statuses, shared by /api/v1 and /api/tv. */
const STATUS: Record<string, number> = {
  unauthenticated: 401,
  invalid_key: 401,
  insufficient_scope: 403,
  forbidden: 403,
  plan_forbids_source: 403,
  billing_inactive: 402,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_many_keys: 409,
  invalid_state: 409,
  no_live_slot: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  invalid_json: 400,
  invalid_idempotency_key: 400,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  internal: 500,
  unavailable: 503,
};

/** Seconds a client is asked to wait after a 503 `unavailable` (a database restart takes a few). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** A refusal of the HTTP layer itself (a body that is not JSON), not of the domain. */
export class HttpError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function statusFor(code: DomainErrorCode | string): number {
  return STATUS[code] ?? (code.startsWith('invalid_') ? 422 : 500);
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** How a door whose clients read another error shape (GraphQL's `errors`) writes an error body; REST's by default. */
    errorBody?: (error: string, message: string, extra?: Record<string, unknown>) => unknown;
  }
}

export function sendError(res: Response, status: number, error: string, message: string, extra?: Record<string, unknown>): void {
  if (status === 401 && !res.getHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', 'Bearer');
  if (status === 503 && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
  res.status(status).json(res.locals?.errorBody?.(error, message, extra) ?? { error, message, ...extra });
}
