/** The feed of verified results. */
import { defineOperation } from '../../http/operation';
import { PAGING } from '../../http/paging';
import { params } from '../../http/query';
import { then } from '../../lib/maybe';
import type { PartnerApiDeps } from '../partner-api.deps';
import { Country, Discipline, partnerRead } from '../partner.parameters';
import { listAnswer } from './list-answer';

export const RESULTS_QUERY = {
  since: { component: 'Since', parser: params.since, prose: 'Only results of events on or after this date (YYYY-MM-DD).' },
  country: Country,
  disc: Discipline,
  event: { component: 'EventFilter', parser: params.event, prose: 'Only results of this event code (an unknown code gives an empty list).' },
  ...PAGING,
};

export const listResults = defineOperation({
  path: '/results',
  ...partnerRead('results.read'),
  kept: true,
  query: RESULTS_QUERY,
  handler: (deps: PartnerApiDeps, { query, url }) => then(deps.catalog.results(query), (page) => listAnswer(deps.publicUrl, url, page, RESULTS_QUERY)),
  doc: {
    operationId: 'listResults',
    tag: 'Results',
    summary: 'Verified results',
    description:
      'Verified results, `per_page` (default 25) at a time, ordered by event date descending, then event ' +
      'code, then bout order. A bout yields one Result per adult fighter; `opponent` is the other ' +
      "fighter's name, or `(withheld)` when that fighter is a minor. Results of minors are never included.",
    okDescription: 'A page of results.',
    body: 'ResultListResponse',
  },
});
