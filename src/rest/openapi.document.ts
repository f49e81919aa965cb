/**
 * The OpenAPI 3.0.3 description of the partner API (`/api/v1`), document version 1.1.0
 * (INTERFACE.md "Versioning", DECISIONS.md D2.19).
 *
 * The document is built from the small helpers of src/lib/openapi.helpers.ts (shared with the TV
 * API's document) so that every shape is written once and reused
 * through `#/components/...` references. Key order is fixed by the code, so `renderPartnerOpenApi()`
 * is byte-for-byte deterministic; `schema/openapi.json` is its output (`npm run schema`) and a test
 * fails when the checked-in file is stale.
 *
 * Conventions of the schemas:
 * - every listed property is `required`; a value that can be null is `nullable: true` (with `null`
 *   in its `enum` when it has one);
 * - objects of the contract are closed (`additionalProperties: false`), except `Error`;
 * - a "null or one of these objects" value is a `oneOf` whose last branch only admits `null`
 *   (OpenAPI 3.0.3 `nullable` needs a `type` in the same schema object, so `nullable` next to a
 *   `$ref` would have no effect).
 */

import {
  arrayOf,
  bearerScheme,
  bool,
  closedObject,
  codeList,
  commonHeaderSpecs,
  date,
  enumOf,
  errorResponse,
  errorSchema,
  ID_AND_RATE_HEADERS,
  ifNoneMatchParameterSpec,
  int,
  listOf,
  notModifiedFor,
  nullable,
  nullOnly,
  num,
  openApiDocument,
  openApiDocumentBody,
  operationObject,
  pageMetaSchema,
  pagingParameterSpecs,
  RATE_HEADERS,
  ref,
  renderOpenApi,
  schemaRef,
  standardResponses,
  str,
  successResponse,
  type HeaderSpec,
  type ParamSpec,
  type Props,
  type Schema,
} from '../lib/openapi.helpers';
import { PARTNER_SCOPES, type PartnerScope } from '../domain/partners/partner.entities';
import {
  CATEGORIES,
  CONTINENTS,
  DISCIPLINES,
  EVENT_LEVELS,
  FIGHTER_STATUSES,
  GENDERS,
  SLUG_PATTERN,
  WEIGHT_CLASS_PATTERN,
} from '../domain/reference/vocabulary';

export const PARTNER_OPENAPI_VERSION = '1.1.0';

export { CATEGORIES, CONTINENTS, DISCIPLINES, EVENT_LEVELS, FIGHTER_STATUSES, GENDERS, PARTNER_SCOPES };
export const LICENCE_STATUSES = ['active', 'suspended', 'expired', 'pending', 'none'] as const;
export const EVENT_STATUSES = ['scheduled', 'live', 'completed', 'cancelled'] as const;
export const BOUT_OUTCOMES = ['W', 'L', 'D', 'NC'] as const;
export const VERIFICATION_STATUSES = [
  'ACTIVE',
  'SUSPENDED',
  'EXPIRED',
  'PENDING VERIFICATION',
  'NO MATCHING RECORD',
] as const;
export const VERIFICATION_MATCHES = ['fighter_code', 'licence_no', 'certificate_no'] as const;
export type { PartnerScope };

/** Every path of the partner API, relative to `/api/v1`, in document order. */
export const PARTNER_API_PATHS = [
  '/rankings',
  '/divisions',
  '/fighters',
  '/fighters/{slug}',
  '/events',
  '/events/{code}',
  '/events/{code}/results',
  '/results',
  '/verify/{number}',
  '/me',
  '/openapi.json',
] as const;

// ---------------------------------------------------------------------------------------------
// Resource schemas
// ---------------------------------------------------------------------------------------------

const FIGHTER_ID_PATTERN = '^FID-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$';

const asOf = (): Schema =>
  date(
    'The date of the latest published ranking run (YYYY-MM-DD). Every successful answer carries it.',
  );

const divisionProps: Props = {
  discipline: enumOf(DISCIPLINES, 'Discipline.'),
  category: enumOf(CATEGORIES, '`pro` (professional) or `am` (amateur).'),
  gender: enumOf(GENDERS, '`m` (men) or `f` (women).'),
  weight_class: str('Weight-class slug, e.g. `67kg`, `63-5kg`, `91kg-plus`.', {
    pattern: WEIGHT_CLASS_PATTERN,
    example: '67kg',
  }),
  label: str('Human-readable name of the division.', { example: 'Kickboxing, Pro, Men, 67 kg' }),
};

const recordCounter = (description: string): Schema => int(description, { minimum: 0 });

const fighterSummaryProps: Props = {
  slug: str('Fighter identifier used in paths.', { example: 'anna-schmidt' }),
  name: str('Public name of the fighter.'),
  nickname: nullable(str('Ring name, or null.')),
  country: schemaRef('Country'),
  division: schemaRef('Division'),
  status: enumOf(FIGHTER_STATUSES, 'Fighter status.'),
  ranking_published: bool('Whether the fighter agreed to appear in published rankings.'),
  licence_status: enumOf(LICENCE_STATUSES, 'State of the fighter\'s licence (`none`: never licensed).'),
  fighter_code: nullable(
    str('The fighter ID (`FID-XXXX-XXXX`, Crockford base32), null until one is issued.', {
      pattern: FIGHTER_ID_PATTERN,
      example: 'FID-7K3M-Q9TZ',
    }),
  ),
};

const fighterProps: Props = {
  ...fighterSummaryProps,
  points: nullable(num('Current ranking points in the fighter\'s division, or null.')),
  record: schemaRef('Record'),
  ranks: nullable({
    type: 'object',
    description:
      'Ranks in the fighter\'s division by scope: keys are scope values accepted by `/rankings` ' +
      '(`world`, a continent slug, a country slug), values are ranks. Null when the fighter is not ranked.',
    additionalProperties: int(undefined, { minimum: 1 }),
    example: { world: 12, europe: 4, germany: 1 },
  }),
};

const boutResultProps: Props = {
  event: schemaRef('Event'),
  opponent: str('Name of the other fighter.'),
  result: enumOf(BOUT_OUTCOMES, 'Outcome for this fighter: win, loss, draw or no contest.'),
  method: nullable(str('How the bout ended (e.g. `KO`, `TKO`, `UD`), or null.')),
  round: nullable(int('Round in which the bout ended, or null.', { minimum: 1 })),
  points: schemaRef('ResultPoints'),
};

const resultProps: Props = {
  event: boutResultProps.event,
  fighter: schemaRef('FighterSummary'),
  ...Object.fromEntries(Object.entries(boutResultProps).filter(([key]) => key !== 'event')),
};

const resourceSchemas: Record<string, Schema> = {
  Country: closedObject(
    {
      slug: str('Country slug, as used by the `country` and `scope` parameters.', {
        pattern: SLUG_PATTERN,
        example: 'germany',
      }),
      name: str('Country name.', { example: 'Germany' }),
      code: str('ISO 3166-1 alpha-2 code.', { pattern: '^[A-Z]{2}$', example: 'DE' }),
      continent: enumOf(CONTINENTS, 'Continent slug.'),
    },
    'A country.',
  ),
  Division: closedObject(divisionProps, 'A ranking division: discipline, category, gender and weight class.'),
  Record: closedObject(
    {
      W: recordCounter('Wins.'),
      L: recordCounter('Losses.'),
      D: recordCounter('Draws.'),
      NC: recordCounter('No contests.'),
      KO: recordCounter('Wins by KO or TKO (included in W).'),
    },
    'Counts of the fighter\'s verified bouts.',
  ),
  FighterSummary: closedObject(fighterSummaryProps, 'A fighter as embedded in other resources.'),
  Fighter: closedObject(fighterProps, 'A fighter with points, record and ranks.'),
  FighterProfile: closedObject(
    {
      ...fighterProps,
      bouts: arrayOf(
        schemaRef('BoutResult'),
        'The fighter\'s last 20 verified results, newest first.',
        { maxItems: 20 },
      ),
    },
    'Profile of an adult fighter.',
  ),
  MinorFighter: closedObject(
    {
      name: fighterSummaryProps.name,
      country: schemaRef('Country'),
      division: schemaRef('Division'),
    },
    'Reduced profile of a fighter under 18: only name, country and division are ever shown.',
  ),
  Event: closedObject(
    {
      code: str('Event code, used in paths.'),
      name: str('Event name.'),
      city: nullable(str('City, or null.')),
      country: str('Country slug of the event.', { pattern: SLUG_PATTERN, example: 'germany' }),
      date: str('Date of the event.', { format: 'date' }),
      level: nullable(enumOf(EVENT_LEVELS, 'Sanctioning level, or null.')),
      multiplier: num('Points multiplier of the level: national 1.0, international 1.5, continental 2.0, worldcup 2.5, world 3.0, none 1.0.'),
      is_live: bool('True while `status` is `live`.'),
      status: enumOf(EVENT_STATUSES, 'Event status.'),
      url: str('Public page of the event (`{PUBLIC_URL}/events/{code}`).'),
    },
    'A sanctioned event.',
  ),
  ResultPoints: closedObject(
    {
      base: num('W 10 (12 by KO or TKO), D 5, L 2, NC 0.'),
      multiplier: num('The event level\'s multiplier.'),
      time_value: num('1.0 under 12 months old, 0.5 from 12 to 24 months, 0 older (at `as_of`).'),
      total: num('base × multiplier × time_value, rounded to 2 decimals.'),
    },
    'Ranking points of one result.',
  ),
  Result: closedObject(resultProps, 'A verified result of one fighter in one bout.'),
  BoutResult: closedObject(boutResultProps, 'A verified result inside a fighter profile (the Result without `fighter`).'),
  RankedRow: closedObject(
    {
      rank: int('Rank; ties share a rank (1, 2, 2, 4).', { minimum: 1 }),
      movement: nullable(
        int('Previous run\'s rank minus the current rank (positive = up); null for a new entry.'),
      ),
      points: num('Ranking points in the division.'),
      record: schemaRef('Record'),
      fighter: schemaRef('FighterSummary'),
    },
    'One row of a ranking table.',
  ),
  DivisionSummary: closedObject(
    {
      ...divisionProps,
      ranked: int('Number of ranked fighters.', { minimum: 1 }),
      query: closedObject(
        {
          disc: str('Value for the `disc` parameter.'),
          cat: str('Value for the `cat` parameter.'),
          g: str('Value for the `g` parameter.'),
          wc: str('Value for the `wc` parameter.'),
        },
        'The `/rankings` query parameters that select this division.',
      ),
      leader: closedObject(
        {
          points: num('The leader\'s points.'),
          fighter: schemaRef('FighterSummary'),
        },
        'The world number one of the division.',
      ),
    },
    'A division that has at least one ranked fighter.',
  ),
  Meta: pageMetaSchema(),
  KeyInfo: closedObject(
    {
      name: str('Name of the key.'),
      partner: nullable(
        closedObject(
          {
            slug: str('Partner slug.'),
            name: str('Partner name.'),
            status: str('Partner account status.'),
          },
          'The partner the key was issued to, or null.',
        ),
      ),
      scopes: arrayOf(enumOf(PARTNER_SCOPES), 'Scopes of the key.', { uniqueItems: true }),
      rate_limit_per_minute: int('Requests allowed per sliding 60-second window.', { minimum: 1 }),
      expires_at: nullable(str('Expiry time, or null when the key does not expire.', { format: 'date-time' })),
      request_count: int('Requests authenticated with this key so far, this one included.', { minimum: 1 }),
    },
    'The API key used for the request.',
  ),
  Error: errorSchema(),
};

// ---------------------------------------------------------------------------------------------
// Response-body schemas
// ---------------------------------------------------------------------------------------------

const bodySchemas: Record<string, Schema> = {
  RankingResponse: closedObject(
    {
      as_of: asOf(),
      division: schemaRef('Division'),
      scope: str('The scope of the table: `world`, a continent slug or a country slug.'),
      count: int('Number of rows.', { minimum: 0 }),
      data: listOf('RankedRow', 'Rows by rank; ties are listed by name.'),
    },
    'A ranking table.',
  ),
  DivisionListResponse: closedObject(
    {
      as_of: asOf(),
      count: int('Number of divisions.', { minimum: 0 }),
      data: listOf('DivisionSummary', 'Ordered by discipline, category, gender and weight.'),
    },
    'The ranked divisions.',
  ),
  FighterListResponse: closedObject(
    {
      as_of: asOf(),
      meta: schemaRef('Meta'),
      data: listOf('Fighter', 'Ordered by name, then slug. Minors are never listed.'),
    },
    'A page of fighters.',
  ),
  FighterProfileResponse: closedObject(
    {
      as_of: asOf(),
      data: {
        oneOf: [schemaRef('FighterProfile'), schemaRef('MinorFighter')],
        description: 'The full profile of an adult, or the reduced profile of a minor.',
      },
    },
    'One fighter.',
  ),
  EventListResponse: closedObject(
    {
      as_of: asOf(),
      meta: schemaRef('Meta'),
      data: listOf('Event', 'Date descending; with `upcoming=1`, date ascending from today.'),
    },
    'A page of sanctioned events.',
  ),
  EventResponse: closedObject({ as_of: asOf(), data: schemaRef('Event') }, 'One sanctioned event.'),
  EventResultsResponse: closedObject(
    {
      as_of: asOf(),
      event: schemaRef('Event'),
      count: int('Number of results.', { minimum: 0 }),
      data: listOf('Result', 'Verified results of the event in bout order (one per adult fighter of a bout).'),
    },
    'The verified results of one event.',
  ),
  ResultListResponse: closedObject(
    {
      as_of: asOf(),
      meta: schemaRef('Meta'),
      data: listOf('Result', 'Event date descending, then event code, then bout order.'),
    },
    'A page of verified results.',
  ),
  VerificationResponse: closedObject(
    {
      as_of: asOf(),
      valid: bool('True only when `status` is `ACTIVE`.'),
      status: enumOf(VERIFICATION_STATUSES, 'Verification status.'),
      matched: enumOf(VERIFICATION_MATCHES, 'Which kind of number matched.'),
      fighter: {
        oneOf: [
          schemaRef('FighterSummary'),
          schemaRef('MinorFighter'),
          nullOnly('null when `status` is `NO MATCHING RECORD`.'),
        ],
        description: 'The fighter the number belongs to (reduced for a minor), or null.',
      },
    },
    'Verification answer; the fields stand at the top level (no `data` wrapper).',
  ),
  KeyInfoResponse: closedObject({ as_of: asOf(), data: schemaRef('KeyInfo') }, 'The key used for the request.'),
};

// ---------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------

const parameterSpecs: Record<string, ParamSpec> = {
  Discipline: {
    name: 'disc',
    in: 'query',
    description:
      'Discipline. On `/rankings` it narrows the division; on `/fighters` and `/results` it filters by the ' +
      'discipline of the fighter\'s division.',
    schema: enumOf(DISCIPLINES),
  },
  Category: { name: 'cat', in: 'query', description: 'Category: `pro` or `am`.', schema: enumOf(CATEGORIES) },
  Gender: { name: 'g', in: 'query', description: 'Gender: `m` or `f`.', schema: enumOf(GENDERS) },
  WeightClass: {
    name: 'wc',
    in: 'query',
    description: 'Weight-class slug, e.g. `67kg`, `63-5kg`, `91kg-plus`.',
    schema: str(undefined, { pattern: WEIGHT_CLASS_PATTERN }),
    example: '67kg',
  },
  RankingScope: {
    name: 'scope',
    in: 'query',
    description:
      `\`world\` (default), a continent slug (${codeList(CONTINENTS)}) or a country ` +
      'slug. A continent or country scope re-ranks the fighters of that scope.',
    schema: str(undefined, { pattern: SLUG_PATTERN, default: 'world' }),
    example: 'europe',
  },
  SearchQuery: {
    name: 'q',
    in: 'query',
    description: 'Case- and accent-insensitive substring of the name or nickname, 2 to 100 characters.',
    schema: str(undefined, { minLength: 2, maxLength: 100 }),
  },
  Country: {
    name: 'country',
    in: 'query',
    description:
      'Country slug. On `/fighters` and `/results` the fighter\'s country, on `/events` the event\'s country. ' +
      'A slug that names no known country is a 422 `invalid_country`.',
    schema: str(undefined, { pattern: SLUG_PATTERN }),
    example: 'germany',
  },
  FighterStatus: {
    name: 'status',
    in: 'query',
    description: 'Fighter status.',
    schema: enumOf(FIGHTER_STATUSES),
  },
  EventLevel: { name: 'level', in: 'query', description: 'Event level.', schema: enumOf(EVENT_LEVELS) },
  Upcoming: {
    name: 'upcoming',
    in: 'query',
    description:
      '`1`: only events dated today or later, date ascending. `0` or absent: all events, date descending.',
    schema: str(undefined, { enum: ['0', '1'], default: '0' }),
  },
  Since: {
    name: 'since',
    in: 'query',
    description: 'Only results of events on or after this date (YYYY-MM-DD).',
    schema: str(undefined, { format: 'date' }),
  },
  EventFilter: {
    name: 'event',
    in: 'query',
    description: 'Only results of this event code (an unknown code gives an empty list).',
    schema: str(),
  },
  ...pagingParameterSpecs(),
  FighterSlug: { name: 'slug', in: 'path', description: 'Fighter slug.', schema: str(), example: 'anna-schmidt' },
  EventCode: { name: 'code', in: 'path', description: 'Event code.', schema: str() },
  DocumentNumber: {
    name: 'number',
    in: 'path',
    description:
      'A fighter ID `FID-XXXX-XXXX` (Crockford base32), a licence number `LIC-CC-YYYY-NNNNNN` (CC = ISO ' +
      'country code) or a certificate number `CRT-YYYY-NNNNNN`. Matched case-insensitively after trimming. ' +
      'A malformed number is a 422 `invalid_number`; a well-formed unknown one a 404.',
    schema: str(),
    example: 'LIC-DE-2025-000123',
  },
  IfNoneMatch: ifNoneMatchParameterSpec(),
};

type ParamKey = keyof typeof parameterSpecs;

const PAGING: ParamKey[] = ['Page', 'PerPage'];

// ---------------------------------------------------------------------------------------------
// Headers and responses
// ---------------------------------------------------------------------------------------------

const headerSpecs: Record<string, HeaderSpec> = commonHeaderSpecs(
  'Requests allowed per sliding 60-second window for the key.',
);

const sharedResponses: Record<string, Schema> = standardResponses(
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

function operation(spec: OperationSpec): Schema {
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

const METHOD_NOTE = 'Only GET (and HEAD, which answers the same headers without a body) is served; any other method is a 405 `method_not_allowed` with an `Allow: GET, HEAD` header.';

const operations: Record<(typeof PARTNER_API_PATHS)[number], OperationSpec> = {
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

// ---------------------------------------------------------------------------------------------
// Document
// ---------------------------------------------------------------------------------------------

const INFO_DESCRIPTION = [
  'Read-only JSON access to the official world ranking, fighter profiles, sanctioned events, verified ' +
    'results and the verification of fighter IDs, licence numbers and certificate numbers.',
  '',
  '## Authentication',
  'Send the API key as `Authorization: Bearer <API_KEY>` or as `X-API-Key: <API_KEY>` (when both are ' +
    'sent, `Authorization` wins). No key, or an `Authorization` header that is not `Bearer <token>`, is a ' +
    '401 `unauthenticated`; an unknown, revoked, expired or disabled key (its partner suspended) is a 401 ' +
    '`invalid_key`. 401 answers carry `WWW-Authenticate: Bearer`. Only `/openapi.json` needs no key.',
  '',
  '## Scopes',
  'Keys carry scopes: `rankings.read` (`/rankings`, `/divisions`), `fighters.read` (`/fighters`, ' +
    '`/fighters/{slug}`), `events.read` (`/events`, `/events/{code}`), `results.read` (`/results`, ' +
    '`/events/{code}/results`). `/verify/{number}` and `/me` accept any valid key. A key without the ' +
    'scope of an endpoint gets 403 `insufficient_scope`. Each operation names its scope in ' +
    '`x-required-scope`.',
  '',
  '## Rate limits',
  'Limits are per key over a sliding 60-second window (default 60 requests; the key\'s value is ' +
    '`rate_limit_per_minute` in `/me`). Every authenticated answer carries `X-RateLimit-Limit`, ' +
    '`X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds). Over the limit the answer is 429 ' +
    '`rate_limited` with `Retry-After` in whole seconds. 401 and 304 answers do not count. Checks run in ' +
    'this order: key, rate limit, scope, parameters.',
  '',
  '## Conditional requests',
  'Every GET answer carries an `ETag`; a request whose `If-None-Match` matches it is answered 304 Not ' +
    'Modified without a body.',
  '',
  '## Methods',
  METHOD_NOTE,
  '',
  '## Parameters and pagination',
  'Unknown query parameters are ignored. A known parameter with a bad value, or given twice, is a 422 ' +
    'whose `error` is `invalid_<parameter>` and whose message names the parameter and the accepted ' +
    'values. List answers take `page` (from 1, default 1) and `per_page` (1 to 100, default 25); a page ' +
    'past the end is a 200 with empty `data` and true `meta`. A list answer carries a `Link` header with ' +
    'the `first`, `prev`, `next` and `last` pages (GitHub style: absolute URLs, your query with `page` ' +
    'replaced and unknown parameters left out; no `prev` on page 1, no `next` on the last page).',
  '',
  '## CORS',
  'The partner API is for servers: keys are secrets and must not reach a browser. It sends no CORS ' +
    'headers and answers no preflight, so a web page cannot read its answers; call it from your back end. ' +
    '(The TV API\'s public schedule, for viewers\' apps, is the one that allows any origin.)',
  '',
  '## Data rules',
  'Every successful answer carries `as_of`, the date of the latest published ranking run. Identity and ' +
    'contact data are never exposed. Minors (under 18 today) are never listed or ranked, their profile ' +
    'shows only name, country and division, and their results never appear. Nothing in this API can ' +
    'create or change points or statuses: it is read-only.',
  '',
  '## Errors',
  'Every error answer is a JSON object with `error` (a code) and `message`, plus `request_id` where ' +
    'useful; every answer carries `X-Request-Id`. Unknown paths under `/api/v1` are 404 `not_found` ' +
    '(JSON). A path value that is not valid percent-encoding is a 400 `invalid_path`. A 500 is `internal`.',
].join('\n');

export function buildPartnerOpenApi(): Record<string, unknown> {
  const paths: Record<string, Schema> = {};
  for (const path of PARTNER_API_PATHS) {
    const spec = operations[path];
    paths[path] = {
      summary: spec.summary,
      description: METHOD_NOTE,
      get: operation(spec),
    };
  }

  return openApiDocument({
    title: 'Ranking partner API',
    version: PARTNER_OPENAPI_VERSION,
    description: INFO_DESCRIPTION,
    server: { url: '/api/v1', description: 'Partner API, version 1 (relative to the service address).' },
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: [
      { name: 'Rankings', description: 'Ranking tables and ranked divisions.' },
      { name: 'Fighters', description: 'Fighter search and profiles.' },
      { name: 'Events', description: 'Sanctioned events.' },
      { name: 'Results', description: 'Verified results.' },
      { name: 'Verification', description: 'Verification of fighter IDs, licences and certificates.' },
      { name: 'Account', description: 'The key in use.' },
      { name: 'Meta', description: 'This description.' },
    ],
    paths,
    schemas: { ...resourceSchemas, ...bodySchemas },
    parameters: parameterSpecs,
    responses: sharedResponses,
    headers: headerSpecs,
    securitySchemes: {
      bearerAuth: bearerScheme('The API key as a bearer token: `Authorization: Bearer <API_KEY>`.'),
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'The API key in the `X-API-Key` header.',
      },
    },
  });
}

/** The document as written to `schema/openapi.json` (and served at `/api/v1/openapi.json`). */
export function renderPartnerOpenApi(): string {
  return renderOpenApi(buildPartnerOpenApi());
}
