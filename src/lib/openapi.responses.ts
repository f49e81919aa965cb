/**
 * The answers and headers both REST documents have alike (304, 401, 403, 404, 429, 500, 503; request
 * id, rate limit, ETag, Link...), worded by each document where they differ.
 */
import { errorResponse, headerSet, json, ref, schemaRef, type HeaderSpec } from './openapi.helpers';
import type { Schema } from './openapi.zod';

export const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
export const ID_AND_RATE_HEADERS = ['X-Request-Id', ...RATE_HEADERS];

/**
 * The response headers both APIs send. Only how `X-RateLimit-Limit` is counted differs (per key, or
 * per key and per client IP), so its description is the caller's.
 */
export function commonHeaderSpecs(rateLimitDescription: string): Record<string, HeaderSpec> {
  return {
    'X-Request-Id': { description: 'Id of the request; every answer carries it.', schema: { type: 'string' } },
    'X-RateLimit-Limit': { description: rateLimitDescription, schema: { type: 'integer' } },
    'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
    'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the window has room again.', schema: { type: 'integer' } },
    ETag: { description: 'Entity tag of the answer, for `If-None-Match`.', schema: { type: 'string' } },
    Link: {
      description:
        'Pagination links (RFC 8288), as GitHub sends them: `<url>; rel="first"`, `rel="prev"` (not on page 1), ' +
        '`rel="next"` (not on the last page) and `rel="last"`, comma-separated. Absolute URLs with the ' +
        "request's own query, only `page` replaced; parameters the endpoint does not know (and ignores) are left out.",
      schema: { type: 'string', example: '<https://api.example/api/v1/fighters?country=germany&page=2>; rel="next"' },
    },
    'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string', example: 'Bearer' } },
    'Retry-After': { description: 'Whole seconds (at least 1) to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  };
}

const NOT_MODIFIED = 'Not Modified: the `If-None-Match` header matched the current `ETag`. No body.';

/** A 304; without rate headers for an operation that no rate limit counts. */
function notModifiedResponse(rateLimited = true): Schema {
  return {
    description: NOT_MODIFIED,
    headers: headerSet(['X-Request-Id', 'ETag', ...(rateLimited ? RATE_HEADERS : [])]),
  };
}

/** The 304 of a GET: the shared `NotModified` answer, or its copy without rate headers. */
export const notModifiedFor = (rateLimited: boolean): Schema => (rateLimited ? ref('responses', 'NotModified') : notModifiedResponse(false));

/** How a document words the answers every API has; their codes and headers are the same everywhere. */
export interface StandardResponseWords {
  /** The `invalid_key` half of the 401 (the `unauthenticated` half is the same in both APIs). */
  invalidKey: string;
  forbidden: string;
  notFound: string;
  tooManyRequests: string;
}

/**
 * `components.responses`: the answers every API has, with the document's own (`own`) between the
 * 404 and the 429, so that the list reads in status order.
 */
export function standardResponses(words: StandardResponseWords, own: Record<string, Schema>): Record<string, Schema> {
  return {
    NotModified: notModifiedResponse(),
    Unauthorized: errorResponse(
      `No key, or an \`Authorization\` header that is not \`Bearer <token>\`: \`unauthenticated\`. ${words.invalidKey}`,
      ['unauthenticated', 'invalid_key'],
      ['X-Request-Id', 'WWW-Authenticate'],
    ),
    Forbidden: errorResponse(words.forbidden, ['insufficient_scope'], ID_AND_RATE_HEADERS),
    NotFound: errorResponse(words.notFound, ['not_found'], ID_AND_RATE_HEADERS),
    ...own,
    // A 429 always says when to retry.
    TooManyRequests: errorResponse(words.tooManyRequests, ['rate_limited'], ['X-Request-Id', 'Retry-After', ...RATE_HEADERS]),
    InternalError: errorResponse('Unexpected error; `request_id` identifies it.', ['internal'], ['X-Request-Id']),
    // The database cannot be reached (a restart): retry after `Retry-After`; service resumes by itself.
    ServiceUnavailable: errorResponse(
      'Service Unavailable: the service cannot reach its database right now (a restart, a failover). Nothing was done; ' + 'retry after `Retry-After` seconds.',
      ['unavailable'],
      ['X-Request-Id', 'Retry-After'],
    ),
  };
}

/** The success answer of an operation; its body is the name of a schema, or an inline schema; with an example answer if given. */
export function successResponse(description: string, headers: string[], body: string | Schema, example?: unknown): Schema {
  return {
    description,
    headers: headerSet(headers),
    content: json(typeof body === 'string' ? schemaRef(body) : body, example),
  };
}
