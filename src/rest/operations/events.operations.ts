/** Sanctioned events, one event, and an event's verified results. */
import { defineOperation } from '../../http/operation';
import { PAGING } from '../../http/paging';
import { params } from '../../http/query';
import { then } from '../../lib/maybe';
import type { PartnerApiDeps } from '../partner-api.deps';
import { Country, EventCode, partnerRead } from '../partner.parameters';
import { listAnswer } from './list-answer';

export const EVENTS_QUERY = {
  country: Country,
  level: { component: 'EventLevel', parser: params.level, prose: 'Event level.' },
  upcoming: {
    component: 'Upcoming',
    parser: params.upcoming,
    prose: '`1`: only events dated today or later, date ascending. `0` or absent: all events, date descending.',
  },
  ...PAGING,
};

export const listEvents = defineOperation({
  path: '/events',
  ...partnerRead('events.read'),
  kept: true,
  query: EVENTS_QUERY,
  handler: (deps: PartnerApiDeps, { query, url }) => then(deps.catalog.events(query), (page) => listAnswer(deps.publicUrl, url, page, EVENTS_QUERY)),
  doc: {
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'Sanctioned events',
    description:
      'Sanctioned events, `per_page` (default 25) at a time: all events date descending, or with ' +
      '`upcoming=1` the events dated today or later, date ascending.',
    okDescription: 'A page of events.',
    body: 'EventListResponse',
  },
});

export const getEvent = defineOperation({
  path: '/events/{code}',
  ...partnerRead('events.read'),
  kept: true,
  params: { code: EventCode },
  handler: (deps: PartnerApiDeps, { params: p }) => then(deps.catalog.event(p.code), (json) => ({ json })),
  doc: {
    operationId: 'getEvent',
    tag: 'Events',
    summary: 'One sanctioned event',
    description: 'One sanctioned event. Unsanctioned and unknown events are 404.',
    notFound: true,
    okDescription: 'The event.',
    body: 'EventResponse',
  },
});

export const listEventResults = defineOperation({
  path: '/events/{code}/results',
  ...partnerRead('results.read'),
  kept: true,
  params: { code: EventCode },
  handler: (deps: PartnerApiDeps, { params: p }) => then(deps.catalog.eventResults(p.code), (json) => ({ json })),
  doc: {
    operationId: 'listEventResults',
    tag: 'Results',
    summary: 'Verified results of one event',
    description:
      'The verified results of one sanctioned event in bout order; a bout yields one Result per adult ' +
      "fighter. Results of minors are never included; an adult's bout against a minor shows `opponent` `(withheld)`.",
    notFound: true,
    okDescription: 'The event and its results.',
    body: 'EventResultsResponse',
  },
});
