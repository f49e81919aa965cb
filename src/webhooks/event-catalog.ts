/**
 * The webhook events (docs/webhooks.md#events): the domain's, each declared once in
 * src/domain/event-declarations.ts (its name, audience, words and the zod schema of its `data`),
 * and `ping`, which no change causes (the studio's Test button), the only one declared here. The
 * subscribable lists, the studio's GraphQL enum and its descriptions, the payload builders' types,
 * the AsyncAPI document (schema/webhooks.asyncapi.json, webhooks.asyncapi.ts) and the /docs
 * webhooks page derive from this catalog; tests validate every delivered payload against it.
 */
import { z } from 'zod';
import { BROADCAST_EVENT_TYPES, PARTNER_EVENT_TYPES, type BroadcastEventType, type PartnerEventType } from '../domain/domain-events';
import { type Audience, DOMAIN_EVENTS, type EventDeclaration, time } from '../domain/event-declarations';

export type { Audience, EventDeclaration };
export const PING = 'ping';
export type WebhookEventName = PartnerEventType | BroadcastEventType | typeof PING;

/** Keyed by every name the domain announces plus `ping`. */
export const EVENT_CATALOG = {
  ...DOMAIN_EVENTS,
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
