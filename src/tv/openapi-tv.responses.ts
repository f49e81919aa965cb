/** The headers and shared answers of the TV OpenAPI document (its parameters come with the operations). */
import { codeList, errorResponse, type HeaderSpec, type Schema } from '../lib/openapi.helpers';
import { commonHeaderSpecs, ID_AND_RATE_HEADERS, standardResponses } from '../lib/openapi.responses';
import { INVALID_BROADCAST_FIELDS as INVALID_FIELDS } from './schemas/request.schemas';

// ---------------------------------------------------------------------------------------------
// Headers and responses
// ---------------------------------------------------------------------------------------------

export const headerSpecs: Record<string, HeaderSpec> = {
  ...commonHeaderSpecs('Requests allowed per sliding 60-second window: 120 for a channel key, 60 per client IP on the public endpoints.'),
  Location: {
    description:
      'Path of the new broadcast for its channel: `/api/tv/broadcasts/{id}`, where it is changed with `PATCH` ' +
      '(and `/go-live`, `/end`, `/health` below it). Its public page is `/api/tv/broadcasts/{slug}`.',
    schema: { type: 'string', example: '/api/tv/broadcasts/3f2b8c1e-5d4a-4e8b-9c7d-1a2b3c4d5e6f' },
  },
};

const INVALID_PAGING = ['invalid_page', 'invalid_per_page'];

export const sharedResponses: Record<string, Schema> = standardResponses(
  {
    invalidKey: 'Unknown, revoked or expired key, or a key that is not a channel key (`ck_...`): `invalid_key`.',
    forbidden: 'The key lacks the scope this endpoint requires: `insufficient_scope`.',
    notFound: 'No such record (for channel endpoints also: a broadcast of another channel): `not_found`.',
    tooManyRequests:
      'The per-minute limit is exhausted: 120 requests per channel key, or 60 per client IP on the public ' + 'endpoints. `rate_limited`, with `Retry-After`.',
  },
  {
    InvalidPaging: errorResponse(
      `A paging parameter has a bad value or is given twice: ${codeList(INVALID_PAGING)}. The message names the parameter and the accepted values.`,
      INVALID_PAGING,
      ID_AND_RATE_HEADERS,
    ),
    InvalidBroadcast: errorResponse(
      `A field of the body is invalid: ${codeList(INVALID_FIELDS.slice(0, -1))} (the message says why); an ` +
        'unknown field, an empty PATCH or a body that is not a JSON object: `invalid_body`.',
      INVALID_FIELDS,
      ID_AND_RATE_HEADERS,
    ),
    // A create takes Idempotency-Key (docs/decisions.md#idempotency): its 422s include a key reused with another request.
    InvalidBroadcastCreate: errorResponse(
      `A field of the body is invalid: ${codeList(INVALID_FIELDS.slice(0, -1))} (the message says why); an ` +
        'unknown field or a body that is not a JSON object: `invalid_body`. The `Idempotency-Key` was sent before with ' +
        'another request (method, path or body): `idempotency_key_reused`.',
      [...INVALID_FIELDS, 'idempotency_key_reused'],
      ID_AND_RATE_HEADERS,
    ),
    PayloadTooLarge: errorResponse('The body is larger than 64 KiB: `payload_too_large`.', ['payload_too_large'], ID_AND_RATE_HEADERS),
    UnsupportedMediaType: errorResponse(
      'The body is not JSON (`Content-Type` must be `application/json`), or its charset or encoding is not ' + 'supported: `unsupported_media_type`.',
      ['unsupported_media_type'],
      ID_AND_RATE_HEADERS,
    ),
  },
);
