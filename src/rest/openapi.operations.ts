/**
 * The operations of the partner OpenAPI document, written by hand: for each path its prose, its
 * scope, its parameters (src/rest/openapi.parameters.ts) and the name of its 200 body's schema
 * (src/rest/schemas); the answers every operation has (401, 429, ...) follow from the scope.
 */
import { PARTNER_API_PATHS } from './openapi.paths';
import { PARTNER_PARAMETERS as parameterSpecs, PAGING, type ParamKey } from './openapi.parameters';
import type { PartnerScope } from '../domain/partners/partner.entities';
import {
  codeList,
  commonHeaderSpecs,
  errorResponse,
  ID_AND_RATE_HEADERS,
  notModifiedFor,
  openApiDocumentBody,
  operationObject,
  RATE_HEADERS,
  ref,
  standardResponses,
  successResponse,
  type HeaderSpec,
  type Schema,
} from '../lib/openapi.helpers';

// ---------------------------------------------------------------------------------------------
// Headers and responses
// ---------------------------------------------------------------------------------------------

export const headerSpecs: Record<string, HeaderSpec> = commonHeaderSpecs(
  'Requests allowed per sliding 60-second window for the key.',
);

export const sharedResponses: Record<string, Schema> = standardResponses(
  {
    invalidKey: 'Unknown, revoked, expired or disabled key (partner suspended): `invalid_key`.',
    forbidden: 'The key lacks the scope this endpoint requires.',
    notFound: 'No such record.',
    tooManyRequests: 'The key\'s per-minute limit is exhausted.',
  },
  {
    BadPath: errorResponse(
      'A path value is not valid percent-encoding (e.g. `%ZZ`, or bytes that are not UTF-8): `invalid_path`. ' +
        'It cannot be read at all, so it is answered before the key is checked.',
      ['invalid_path'],
      ['X-Request-Id'],
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** Required scope; `null` = any valid key; `'public'` = no key. */
  scope: PartnerScope | null | 'public';
  params: ParamKey[];
  /** Extra 422 codes besides `invalid_<parameter>` of the query parameters. */
  extraInvalid?: string[];
  notFound?: boolean;
  okDescription: string;
  /** Name of the 200 body schema, or an inline schema. */
  body: string | Schema;
}

function scopeText(scope: OperationSpec['scope']): string {
  if (scope === 'public') return 'No key needed.';
  if (scope === null) return 'Any valid key; no scope needed.';
  return `Requires scope \`${scope}\`.`;
}

export function operation(spec: OperationSpec): Schema {
  const isPublic = spec.scope === 'public';
  const invalidCodes = [
    ...spec.params
      .map((key) => parameterSpecs[key])
      .filter((p) => p.in === 'query')
      .map((p) => `invalid_${p.name}`),
    ...(spec.extraInvalid ?? []),
  ];
  // `/openapi.json`, the one public path, is not rate limited: no rate headers, no 429.
  const paged = spec.params.includes('Page') ? ['Link'] : [];
  const successHeaders = isPublic ? ['X-Request-Id', 'ETag'] : ['X-Request-Id', 'ETag', ...paged, ...RATE_HEADERS];

  const responses: Schema = {
    '200': successResponse(spec.okDescription, successHeaders, spec.body),
    '304': notModifiedFor(!isPublic),
  };
  // Path values are percent-decoded before anything else; a malformed escape is a 400.
  if (spec.params.some((key) => parameterSpecs[key].in === 'path')) responses['400'] = ref('responses', 'BadPath');
  if (!isPublic) responses['401'] = ref('responses', 'Unauthorized');
  if (typeof spec.scope === 'string' && !isPublic) responses['403'] = ref('responses', 'Forbidden');
  if (spec.notFound) responses['404'] = ref('responses', 'NotFound');
  if (invalidCodes.length > 0) {
    responses['422'] = errorResponse(
      `A parameter has a bad value or is given twice: ${codeList(invalidCodes)}. ` +
        'The message names the parameter and the accepted values.',
      invalidCodes,
      ID_AND_RATE_HEADERS,
    );
  }
  if (!isPublic) responses['429'] = ref('responses', 'TooManyRequests');
  responses['500'] = ref('responses', 'InternalError');

  return operationObject(spec, {
    scopeText: scopeText(spec.scope),
    requiredScope: typeof spec.scope === 'string' && !isPublic ? spec.scope : undefined,
    isPublic,
    params: [...spec.params, 'IfNoneMatch'],
    responses,
  });
}

export const METHOD_NOTE = 'Only GET (and HEAD, which answers the same headers without a body) is served; any other method is a 405 `method_not_allowed` with an `Allow: GET, HEAD` header.';

export const operations: Record<(typeof PARTNER_API_PATHS)[number], OperationSpec> = {
  '/rankings': {
    operationId: 'getRanking',
    tag: 'Rankings',
    summary: 'Ranking table of one division',
    description:
      'The ranking of one division in one scope, from the latest published ranking run. `disc`, `cat`, `g` ' +
      'and `wc` narrow the divisions: when what is given names exactly one division, that is the answer; ' +
      'otherwise 422 `invalid_division`, whose message says which parameters are missing (or that no such ' +
      'division exists). `scope` defaults to `world`. Rows are ordered by rank (points descending; ties share ' +
      'a rank and are listed by name). Only adult, licensed fighters with an active licence, a published ' +
      'ranking and points above zero are ranked.',
    scope: 'rankings.read',
    params: ['Discipline', 'Category', 'Gender', 'WeightClass', 'RankingScope'],
    extraInvalid: ['invalid_division'],
    okDescription: 'The ranking table.',
    body: 'RankingResponse',
  },
  '/divisions': {
    operationId: 'listDivisions',
    tag: 'Rankings',
    summary: 'Divisions with ranked fighters',
    description:
      'Every division with at least one ranked fighter, ordered by discipline, category, gender and weight, ' +
      'with its world leader. `query` holds the `/rankings` parameters of the division.',
    scope: 'rankings.read',
    params: [],
    okDescription: 'The divisions.',
    body: 'DivisionListResponse',
  },
  '/fighters': {
    operationId: 'listFighters',
    tag: 'Fighters',
    summary: 'Search fighters',
    description:
      'Fighters ordered by name, then slug, `per_page` (default 25) at a time. Minors are never listed. ' +
      'Identity and contact data are never exposed.',
    scope: 'fighters.read',
    params: ['SearchQuery', 'Country', 'Discipline', 'FighterStatus', ...PAGING],
    okDescription: 'A page of fighters.',
    body: 'FighterListResponse',
  },
  '/fighters/{slug}': {
    operationId: 'getFighter',
    tag: 'Fighters',
    summary: 'Fighter profile',
    description:
      'The profile of a fighter with points, record, ranks and the last 20 verified bouts (newest first). ' +
      'For a minor (under 18 today) only `name`, `country` and `division` are returned, and a minor\'s ' +
      'results never appear anywhere.',
    scope: 'fighters.read',
    params: ['FighterSlug'],
    notFound: true,
    okDescription: 'The fighter.',
    body: 'FighterProfileResponse',
  },
  '/events': {
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'Sanctioned events',
    description:
      'Sanctioned events, `per_page` (default 25) at a time: all events date descending, or with ' +
      '`upcoming=1` the events dated today or later, date ascending.',
    scope: 'events.read',
    params: ['Country', 'EventLevel', 'Upcoming', ...PAGING],
    okDescription: 'A page of events.',
    body: 'EventListResponse',
  },
  '/events/{code}': {
    operationId: 'getEvent',
    tag: 'Events',
    summary: 'One sanctioned event',
    description: 'One sanctioned event. Unsanctioned and unknown events are 404.',
    scope: 'events.read',
    params: ['EventCode'],
    notFound: true,
    okDescription: 'The event.',
    body: 'EventResponse',
  },
  '/events/{code}/results': {
    operationId: 'listEventResults',
    tag: 'Results',
    summary: 'Verified results of one event',
    description:
      'The verified results of one sanctioned event in bout order; a bout yields one Result per adult ' +
      'fighter. Results of minors are never included.',
    scope: 'results.read',
    params: ['EventCode'],
    notFound: true,
    okDescription: 'The event and its results.',
    body: 'EventResultsResponse',
  },
  '/results': {
    operationId: 'listResults',
    tag: 'Results',
    summary: 'Verified results',
    description:
      'Verified results, `per_page` (default 25) at a time, ordered by event date descending, then event ' +
      'code, then bout order. A bout yields one Result per adult fighter; `opponent` is the other ' +
      'fighter\'s name. Results of minors are never included.',
    scope: 'results.read',
    params: ['Since', 'Country', 'Discipline', 'EventFilter', ...PAGING],
    okDescription: 'A page of results.',
    body: 'ResultListResponse',
  },
  '/verify/{number}': {
    operationId: 'verifyNumber',
    tag: 'Verification',
    summary: 'Verify a fighter ID, licence or certificate number',
    description:
      'Checks a fighter ID, licence number or certificate number. `status`: `ACTIVE` (valid and in date; ' +
      'the only status with `valid: true`), `SUSPENDED`, `EXPIRED` (past its validity), `PENDING ' +
      'VERIFICATION` (issued, not yet verified), `NO MATCHING RECORD` (the number was issued but no longer ' +
      'belongs to a current record: superseded on renewal, revoked or erased; `fighter` is then null). ' +
      '`matched` tells which kind of number matched. For a minor the fighter is the reduced profile.',
    scope: null,
    params: ['DocumentNumber'],
    extraInvalid: ['invalid_number'],
    notFound: true,
    okDescription: 'The verification answer.',
    body: 'VerificationResponse',
  },
  '/me': {
    operationId: 'getKeyInfo',
    tag: 'Account',
    summary: 'The key in use',
    description: 'Name, partner, scopes, rate limit, expiry and request count of the key used for the request.',
    scope: null,
    params: [],
    okDescription: 'The key information.',
    body: 'KeyInfoResponse',
  },
  '/openapi.json': {
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.0.3 description of the partner API (this document).',
    scope: 'public',
    params: [],
    okDescription: 'The OpenAPI document.',
    body: openApiDocumentBody(),
  },
};

