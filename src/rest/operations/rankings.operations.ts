/** The ranking reads of the partner API: one division's table, and the ranked divisions. */
import { defineOperation } from '../../http/operation';
import { params } from '../../http/query';
import { then } from '../../lib/maybe';
import type { PartnerApiDeps } from '../partner-api.deps';
import { Discipline, RankingScope, partnerRead } from '../partner.parameters';

export const RANKINGS_QUERY = {
  disc: Discipline,
  cat: { component: 'Category', parser: params.cat, prose: 'Category: `pro` or `am`.' },
  g: { component: 'Gender', parser: params.g, prose: 'Gender: `m` or `f`.' },
  wc: { component: 'WeightClass', parser: params.wc, prose: 'Weight-class slug, e.g. `67kg`, `63-5kg`, `91kg-plus`.', example: '67kg' },
  scope: RankingScope,
};

export const getRanking = defineOperation({
  path: '/rankings',
  ...partnerRead('rankings.read'),
  kept: true,
  query: RANKINGS_QUERY,
  handler: (deps: PartnerApiDeps, { query }) => then(deps.reader.rankings(query), (json) => ({ json })),
  doc: {
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
    invalid: ['invalid_division'],
    okDescription: 'The ranking table.',
    body: 'RankingResponse',
  },
});

export const listDivisions = defineOperation({
  path: '/divisions',
  ...partnerRead('rankings.read'),
  kept: true,
  handler: (deps: PartnerApiDeps) => then(deps.reader.divisionSummaries(), (json) => ({ json })),
  doc: {
    operationId: 'listDivisions',
    tag: 'Rankings',
    summary: 'Divisions with ranked fighters',
    description:
      'Every division with at least one ranked fighter, ordered by discipline, category, gender and weight, ' +
      'with its world leader. `query` holds the `/rankings` parameters of the division.',
    okDescription: 'The divisions.',
    body: 'DivisionListResponse',
  },
});
