/**
 * The webhook events, each declared once (docs/webhooks.md#events): its audience (partner
 * endpoints registered by the operator, or a channel's endpoints managed in the studio), its
 * words, and the zod schema of its `data`. The subscribable lists, the studio's GraphQL enum and
 * its descriptions, the payload builders' types, the AsyncAPI document
 * (schema/webhooks.asyncapi.json, webhooks.asyncapi.ts) and the /docs webhooks page derive from
 * it; tests validate every delivered payload against it. The names' one home is the domain
 * (domain-events.ts): `ping`, which no change causes (the studio's Test button), is the only
 * name declared here.
 */
import { z } from 'zod';
import { PARTNER_EVENT_TYPES, BROADCAST_EVENT_TYPES, type BroadcastEventType, type PartnerEventType } from '../domain/domain-events';
import { Division, Event, FighterSummary, Result } from '../domain/catalog/view.schemas';
import { Broadcast } from '../domain/channels/broadcast.schemas';
import { FIGHTER_STATUSES, LICENCE_STATUSES } from '../domain/reference/vocabulary';

export const PING = 'ping';
export type WebhookEventName = PartnerEventType | BroadcastEventType | typeof PING;
export type Audience = 'partner' | 'channel';

export interface EventDeclaration {
  audience: Audience;
  /** One sentence: the GraphQL enum value's description, the docs table, the AsyncAPI summary. */
  summary: string;
  /** More words for the AsyncAPI document and /docs, when one sentence is not enough. */
  description?: string;
  data: z.ZodType;
}

const time = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
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

/** Keyed by every name the domain announces plus `ping`: a name added there does not compile until it is declared here. */
export const EVENT_CATALOG = {
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
  ping: {
    audience: 'channel',
    summary: 'The Test button: sent to one endpoint, whatever it subscribed to.',
    data: z.strictObject({
      channel: z.strictObject({ slug: z.string().meta({ description: 'Channel slug.' }), name: z.string().meta({ description: 'Channel name.' }) }),
      message: z.string().meta({ description: 'A fixed text.' }),
    }),
  },
} as const satisfies Record<WebhookEventName, EventDeclaration>;

type Catalog = typeof EVENT_CATALOG;
export type EventsOf<A extends Audience> = { [N in WebhookEventName]: Catalog[N]['audience'] extends A ? N : never }[WebhookEventName];
export type PartnerWebhookEvent = EventsOf<'partner'>;
export type ChannelWebhookEvent = EventsOf<'channel'>;
/** The `data` of an event, as its builder must produce it. */
export type EventData<N extends WebhookEventName> = z.infer<Catalog[N]['data']>;
/** A built payload's type and data, typed together. */
export type Payload = { [N in WebhookEventName]: { type: N; data: EventData<N> } }[WebhookEventName];

/** Every event name, in declaration order (the domain's partner events, its broadcast events, `ping`). */
export const WEBHOOK_EVENTS = [...PARTNER_EVENT_TYPES, ...BROADCAST_EVENT_TYPES, PING] as const satisfies readonly WebhookEventName[];

function eventsOf<A extends Audience>(audience: A): readonly EventsOf<A>[] {
  return WEBHOOK_EVENTS.filter((n) => EVENT_CATALOG[n].audience === audience) as EventsOf<A>[];
}

/** What the operator may subscribe a partner's endpoint to. */
export const PARTNER_EVENTS = eventsOf('partner');
/** What a channel's endpoint may subscribe to; `ping` is also what the studio's Test button sends. */
export const CHANNEL_EVENTS = eventsOf('channel');

export function isWebhookEvent(name: string): name is WebhookEventName {
  return Object.hasOwn(EVENT_CATALOG, name);
}

/** The POSTed body of an event: `{id, event, created_at, data}`. */
export function envelopeSchema<N extends WebhookEventName>(name: N) {
  return z.strictObject({
    id: z
      .string()
      .regex(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/)
      .meta({ description: 'The event id: de-duplicate on it (a replay keeps it).' }),
    event: z.literal(name).meta({ description: 'The event name (also sent as X-SVC-Event).' }),
    created_at: time('When the change happened, ISO 8601 with offset.'),
    data: EVENT_CATALOG[name].data,
  });
}

/** Checks a delivered body against its event's schema; the problems, or an empty list. */
export function payloadProblems(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return ['the body is not JSON'];
  }
  const name = (parsed as { event?: unknown } | null)?.event;
  if (typeof name !== 'string' || !isWebhookEvent(name)) return [`unknown event ${JSON.stringify(name)}`];
  const result = envelopeSchema(name).safeParse(parsed);
  return result.success ? [] : result.error.issues.map((i) => `${name}: ${i.path.join('.')}: ${i.message}`);
}
