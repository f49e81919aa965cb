/**
 * What the domain announces, each event declared once: its name (the key), its audience (partner
 * endpoints registered by the operator, or a channel's endpoints managed in the studio), its words,
 * and the zod schema of its `data` (docs/webhooks.md#events). The domain's event names
 * (domain-events.ts), the webhook catalog (src/webhooks/event-catalog.ts, which adds `ping`) and
 * everything derived from it (the subscribable lists, the studio's GraphQL enum, the AsyncAPI
 * document, the /docs webhooks page) come from here: a new event is one entry here, plus the
 * change that announces it.
 */
import { z } from 'zod';
import { Division, Event, FighterSummary, Result } from './catalog/view.schemas';
import { Broadcast } from './channels/broadcast.schemas';
import { FIGHTER_STATUSES, LICENCE_STATUSES } from './reference/vocabulary';

export type Audience = 'partner' | 'channel';

export interface EventDeclaration {
  audience: Audience;
  /** One sentence: the GraphQL enum value's description, the docs table, the AsyncAPI summary. */
  summary: string;
  /** More words for the AsyncAPI document and /docs, when one sentence is not enough. */
  description?: string;
  data: z.ZodType;
}

export const time = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
const url = z.string().meta({ description: 'Where the subject is served on the partner API (with a key).' });

const LicenceFighter = z
  .strictObject({
    slug: z.string().meta({ description: 'Fighter slug.' }),
    name: z.string().meta({ description: 'Public name.' }),
    country: z.string().meta({ description: 'Country slug.' }),
    fighter_code: z.string().nullable().meta({ description: 'The fighter ID, or null.' }),
    licence_no: z.string().meta({ description: 'Licence number.' }),
  })
  .meta({ description: 'The fighter the licence belongs to (never a minor).' });

const fighterStatus = z.enum(FIGHTER_STATUSES).meta({ description: 'Fighter status.' });
const licenceStatus = z.enum(LICENCE_STATUSES).meta({ description: 'Licence status.' });
const broadcastData = z.strictObject({ broadcast: Broadcast });

/** In the order the operator and the studio list them: the partner events, then the channel events. */
export const DOMAIN_EVENTS = {
  'ranking.published': {
    audience: 'partner',
    summary: "A fighter's rank or points changed in a published ranking run (one delivery per fighter).",
    data: z.strictObject({
      fighter: FighterSummary,
      division: Division,
      as_of: z.iso.date().meta({ description: "The run's date." }),
      rank: z.int().min(1).meta({ description: 'World rank in the division.' }),
      previous_rank: z.int().min(1).nullable().meta({ description: 'Rank in the previous run; null: newly ranked.' }),
      movement: z.int().nullable().meta({ description: 'Previous rank minus this one (positive: up); null when new.' }),
      points: z.number().meta({ description: 'Ranking points in the division.' }),
      url,
    }),
  },
  'result.verified': {
    audience: 'partner',
    summary: 'A bout result was verified (one delivery per adult fighter of the bout).',
    data: Result.extend({ verified_at: time('When it was verified.') }),
  },
  'licence.suspended': {
    audience: 'partner',
    summary: 'A licence was suspended.',
    data: z.strictObject({ fighter: LicenceFighter, status: fighterStatus, licence_status: licenceStatus, suspended_at: time('When.'), url }),
  },
  'licence.issued': {
    audience: 'partner',
    summary: 'A fighter ID and licence were issued (or renewed).',
    data: z.strictObject({
      fighter: LicenceFighter,
      division: Division,
      status: fighterStatus,
      licence_status: licenceStatus,
      issued_at: time('When it was issued.'),
      valid_until: time('The end of its last valid day.').nullable(),
      url,
    }),
  },
  'event.sanctioned': {
    audience: 'partner',
    summary: 'An event was sanctioned by the operator.',
    data: Event.extend({ sanctioned_at: time('When it was sanctioned.') }),
  },
  'broadcast.scheduled': { audience: 'channel', summary: 'A broadcast was created or scheduled.', data: broadcastData },
  'broadcast.live': { audience: 'channel', summary: 'A broadcast went live.', data: broadcastData },
  'broadcast.ended': {
    audience: 'channel',
    summary: 'A broadcast ended.',
    description: 'An external broadcast is a replay at once; an ingest one when its recording is ready (`replay.ready`).',
    data: broadcastData,
  },
  'replay.ready': { audience: 'channel', summary: "A broadcast's replay is available.", data: broadcastData },
} as const satisfies Record<string, EventDeclaration>;

type Declared = typeof DOMAIN_EVENTS;
export type DomainEventName = keyof Declared;
export type DomainEventsOf<A extends Audience> = { [N in DomainEventName]: Declared[N]['audience'] extends A ? N : never }[DomainEventName];

function namesOf<A extends Audience>(audience: A): readonly DomainEventsOf<A>[] {
  return (Object.keys(DOMAIN_EVENTS) as DomainEventName[]).filter((n) => DOMAIN_EVENTS[n].audience === audience) as DomainEventsOf<A>[];
}

export const PARTNER_EVENT_TYPES = namesOf('partner');
export const BROADCAST_EVENT_TYPES = namesOf('channel');
