import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError } from '../domain/errors';
import { unavailableError } from '../http/error-handler';
import { NUL_CODE } from './input-guards';
import { isLimitCode, tokenLimitError } from './query-limits';

/**
 * The one home of the studio's error codes (docs/studio-graphql.md#errors): every error's
 * `extensions.code` is one of the domain's lower snake case codes, the REST doors' vocabulary.
 * Apollo Server's own codes are translated here; the HTTP status stays the one Apollo answers with.
 */
export const APOLLO_CODES = {
  [ApolloServerErrorCode.GRAPHQL_PARSE_FAILED]: 'invalid_query',
  [ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED]: 'invalid_query',
  [ApolloServerErrorCode.BAD_USER_INPUT]: 'invalid_variables',
  [ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE]: 'invalid_operation_name',
  [ApolloServerErrorCode.BAD_REQUEST]: 'bad_request',
  // Clients of automatic persisted queries (Apollo Client, urql) recognise these by their message,
  // PersistedQueryNotFound / PersistedQueryNotSupported, which is kept.
  [ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND]: 'persisted_query_not_found',
  [ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED]: 'persisted_query_not_supported',
  [ApolloServerErrorCode.INTERNAL_SERVER_ERROR]: 'internal',
} as const satisfies Record<ApolloServerErrorCode, string>;

/** Apollo answers BAD_REQUEST for HTTP-level refusals too; these statuses get the REST doors' codes. */
const BAD_REQUEST_BY_STATUS: Record<number, string> = { 405: 'method_not_allowed', 406: 'not_acceptable' };

/** The status Apollo will answer an error with (it reads it from `extensions.http`). */
const httpStatusOf = (error: unknown): number | undefined =>
  error instanceof GraphQLError ? (error.extensions.http as { status?: number } | undefined)?.status : undefined;

/** The wire code of an error Apollo reports with `code` (one of its own, or none). */
function codeFor(code: string | undefined, error: unknown): string {
  // a code of ours (a resolver's GraphQLError such as login's rate_limited) stays
  if (code && !(code in APOLLO_CODES)) return code;
  const status = httpStatusOf(error);
  if (code === ApolloServerErrorCode.BAD_REQUEST) return BAD_REQUEST_BY_STATUS[status ?? 400] ?? APOLLO_CODES.BAD_REQUEST;
  if (code && code in APOLLO_CODES && code !== ApolloServerErrorCode.INTERNAL_SERVER_ERROR) return APOLLO_CODES[code as ApolloServerErrorCode];
  // Uncoded refusals of the request itself: a client's fault, not the server's.
  if (status !== undefined && status >= 400 && status < 500) return APOLLO_CODES.BAD_REQUEST;
  // graphql-js refusing an operation it cannot run as sent (a subscription over HTTP, say): uncoded (Apollo
  // calls it INTERNAL_SERVER_ERROR), thrown by no resolver (no originalError), at no field (no path).
  if (error instanceof GraphQLError && error.extensions.code === undefined && !error.originalError && !error.path)
    return APOLLO_CODES.GRAPHQL_VALIDATION_FAILED;
  return APOLLO_CODES.INTERNAL_SERVER_ERROR;
}

/** Domain codes go to extensions.code; Apollo's are translated; nothing internal (stack, SQL) leaves the server. */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const unavailable = original ? unavailableError(original) : null;
  if (unavailable) return { message: unavailable.message, path: formatted.path, extensions: { code: unavailable.code } };
  if (original instanceof DomainError) {
    return { message: original.message, path: formatted.path, locations: formatted.locations, extensions: { code: original.code } };
  }
  if (original instanceof GraphQLError && (isLimitCode(original.extensions.code) || original.extensions.code === NUL_CODE)) {
    return { message: original.message, extensions: { code: original.extensions.code } };
  }
  const tokens = original instanceof GraphQLError ? tokenLimitError(original.message) : null;
  if (tokens) return { message: tokens.message, extensions: { code: tokens.code } };
  const given = formatted.extensions?.code;
  const code = codeFor(typeof given === 'string' ? given : undefined, error);
  if (code === APOLLO_CODES.INTERNAL_SERVER_ERROR) return { message: 'an internal error occurred', path: formatted.path, extensions: { code } };
  return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
}

/**
 * The body of a refusal made before GraphQL runs (authentication, rate limits, body parsing) on
 * this door: a GraphQL response, so clients read every error the same way. The REST doors' `error`
 * becomes `extensions.code`, and any other field (a request id) joins it there.
 */
export function graphqlErrorBody(code: string, message: string, extra?: Record<string, unknown>): { errors: GraphQLFormattedError[] } {
  return { errors: [{ message, extensions: { code, ...extra } }] };
}
