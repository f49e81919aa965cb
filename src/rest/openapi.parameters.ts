/**
 * The parameters of the partner OpenAPI document (`components/parameters`). A query parameter is
 * described from its parser in src/http/query.ts (`params`): its schema is generated from the
 * parser's zod schema and its description ends with what the parser accepts, so the document and
 * the 422 messages say the same; only the prose before it is written here.
 */
import { params } from '../http/query';
import { codeList, ifNoneMatchParameterSpec, pagingParameterSpecs, queryParameter, type ParamSpec } from '../lib/openapi.helpers';
import { CONTINENTS } from '../domain/reference/vocabulary';

const pathParameter = (name: string, description: string, example?: string): ParamSpec => ({
  name,
  in: 'path',
  description,
  schema: { type: 'string' },
  ...(example === undefined ? {} : { example }),
});

export const PARTNER_PARAMETERS = {
  Discipline: queryParameter(
    'disc',
    params.disc,
    'Discipline. On `/rankings` it narrows the division; on `/fighters` and `/results` it filters by the ' +
      'discipline of the fighter\'s division.',
  ),
  Category: queryParameter('cat', params.cat, 'Category: `pro` or `am`.'),
  Gender: queryParameter('g', params.g, 'Gender: `m` or `f`.'),
  WeightClass: queryParameter('wc', params.wc, 'Weight-class slug, e.g. `67kg`, `63-5kg`, `91kg-plus`.', '67kg'),
  RankingScope: queryParameter(
    'scope',
    params.scope,
    `\`world\` (default), a continent slug (${codeList(CONTINENTS)}) or a country ` +
      'slug. A continent or country scope re-ranks the fighters of that scope.',
    'europe',
  ),
  SearchQuery: queryParameter('q', params.q, 'Case- and accent-insensitive substring of the name or nickname, 2 to 100 characters.'),
  Country: queryParameter(
    'country',
    params.country,
    'Country slug. On `/fighters` and `/results` the fighter\'s country, on `/events` the event\'s country. ' +
      'A slug that names no known country is a 422 `invalid_country`.',
    'germany',
  ),
  FighterStatus: queryParameter('status', params.status, 'Fighter status.'),
  EventLevel: queryParameter('level', params.level, 'Event level.'),
  Upcoming: queryParameter(
    'upcoming',
    params.upcoming,
    '`1`: only events dated today or later, date ascending. `0` or absent: all events, date descending.',
  ),
  Since: queryParameter('since', params.since, 'Only results of events on or after this date (YYYY-MM-DD).'),
  EventFilter: queryParameter('event', params.event, 'Only results of this event code (an unknown code gives an empty list).'),
  ...pagingParameterSpecs(params.page, params.per_page),
  FighterSlug: pathParameter('slug', 'Fighter slug.', 'anna-schmidt'),
  EventCode: pathParameter('code', 'Event code.'),
  DocumentNumber: pathParameter(
    'number',
    'A fighter ID `FID-XXXX-XXXX` (Crockford base32), a licence number `LIC-CC-YYYY-NNNNNN` (CC = ISO ' +
      'country code) or a certificate number `CRT-YYYY-NNNNNN`. Matched case-insensitively after trimming. ' +
      'A malformed number is a 422 `invalid_number`; a well-formed unknown one a 404.',
    'LIC-DE-2025-000123',
  ),
  IfNoneMatch: ifNoneMatchParameterSpec(),
} satisfies Record<string, ParamSpec>;

export type ParamKey = keyof typeof PARTNER_PARAMETERS;

export const PAGING: ParamKey[] = ['Page', 'PerPage'];
