/** Fighter search and profiles. */
import { defineOperation } from '../../http/operation';
import { PAGING } from '../../http/paging';
import { params } from '../../http/query';
import { then } from '../../lib/maybe';
import type { PartnerApiDeps } from '../partner-api.deps';
import { Country, Discipline, partnerRead } from '../partner.parameters';
import { listAnswer } from './list-answer';
import { DEMO_RECORDS } from '../../demo/demo-records';

export const FIGHTERS_QUERY = {
  q: { component: 'SearchQuery', parser: params.q, prose: 'Case- and accent-insensitive substring of the name or nickname, 2 to 100 characters.' },
  country: Country,
  disc: Discipline,
  status: { component: 'FighterStatus', parser: params.status, prose: 'Fighter status.' },
  ...PAGING,
};

export const listFighters = defineOperation({
  path: '/fighters',
  ...partnerRead('fighters.read'),
  kept: true,
  query: FIGHTERS_QUERY,
  handler: (deps: PartnerApiDeps, { query, url }) => then(deps.catalog.fighters(query), (page) => listAnswer(deps.publicUrl, url, page, FIGHTERS_QUERY)),
  doc: {
    operationId: 'listFighters',
    tag: 'Fighters',
    summary: 'Search fighters',
    description:
      'Fighters ordered by name, then slug, `per_page` (default 25) at a time. Minors are never listed. ' + 'Identity and contact data are never exposed.',
    okDescription: 'A page of fighters.',
    body: 'FighterListResponse',
  },
});

export const getFighter = defineOperation({
  path: '/fighters/{slug}',
  ...partnerRead('fighters.read'),
  kept: true,
  params: { slug: { component: 'FighterSlug', description: 'Fighter slug.', example: DEMO_RECORDS.fighterSlug } },
  handler: (deps: PartnerApiDeps, { params: p }) => then(deps.catalog.fighter(p.slug), (json) => ({ json })),
  doc: {
    operationId: 'getFighter',
    tag: 'Fighters',
    summary: 'Fighter profile',
    description:
      'The profile of a fighter with points, record, ranks and the last 20 verified bouts (newest first). ' +
      "For a minor (under 18 today) only `name`, `country` and `division` are returned, and a minor's " +
      'results never appear anywhere.',
    notFound: true,
    okDescription: 'The fighter.',
    body: 'FighterProfileResponse',
  },
});
