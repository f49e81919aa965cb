/**
 * The parameters several partner operations share, with the document's words for them (their
 * parsers are in src/http/query.ts; the document adds what each accepts). A parameter one
 * operation alone takes is declared with that operation.
 */
import type { PathParam, QueryParam } from '../http/operation';
import { params } from '../http/query';
import { CONTINENTS } from '../domain/reference/vocabulary';
import { DEMO_RECORDS } from '../demo/demo-records';

const codes = (list: readonly string[]) => list.map((c) => `\`${c}\``).join(', ');

export const Discipline = {
  component: 'Discipline',
  parser: params.disc,
  prose: "Discipline. On `/rankings` it narrows the division; on `/fighters` and `/results` it filters by the discipline of the fighter's division.",
} satisfies QueryParam;

export const Country = {
  component: 'Country',
  parser: params.country,
  prose:
    "Country slug. On `/fighters` and `/results` the fighter's country, on `/events` the event's country. " +
    'A slug that names no known country is a 422 `invalid_country`.',
  example: 'germany',
} satisfies QueryParam;

export const RankingScope = {
  component: 'RankingScope',
  parser: params.scope,
  prose: `\`world\` (default), a continent slug (${codes(CONTINENTS)}) or a country slug. A continent or country scope re-ranks the fighters of that scope.`,
  example: 'europe',
} satisfies QueryParam;

export const EventCode: PathParam = { component: 'EventCode', description: 'Event code.', example: DEMO_RECORDS.eventCode };

/** What every partner read declares alike: a GET with a partner key, charged to that key. */
export const partnerRead = <S extends string | null>(scope: S) => ({ method: 'GET', credential: 'partner-key', scope, limit: 'key' }) as const;
