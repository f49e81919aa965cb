/**
 * The AsyncAPI 3.0 document of the webhooks (schema/webhooks.asyncapi.json, written by
 * `npm run schema`), generated from the event catalog's zod schemas: one message per event, the
 * headers every delivery carries, and the shared shapes (FighterSummary, Result, Broadcast, ...)
 * under `components/schemas`, the same declarations the partner and TV documents are made from.
 * /docs turns it into its webhooks page (src/ops/webhooks-reference.ts).
 */
import { z } from 'zod';
import { Country, Division, Event, FighterSummary, Result, ResultPoints } from '../domain/catalog/view.schemas';
import { Broadcast, ChannelRef, Ingest } from '../domain/channels/broadcast.schemas';
import { EVENT_CATALOG, envelopeSchema, WEBHOOK_EVENTS, type Audience } from './event-catalog';
import { HEADER, STANDARD_HEADER } from './signer';

type Json = Record<string, any>;

const COMPONENT_PREFIX = '#/components/schemas/';
/** Shapes shared with the REST documents: referenced, not repeated. */
const SHARED: Record<string, z.ZodType> = { Country, Division, FighterSummary, Event, ResultPoints, Result, ChannelRef, Ingest, Broadcast };

const str = (description: string, extra: Json = {}) => ({ type: 'string', description, ...extra });

export const DELIVERY_HEADERS: Json = {
  type: 'object',
  required: [
    HEADER.event,
    HEADER.delivery,
    HEADER.timestamp,
    HEADER.attempt,
    HEADER.signature,
    HEADER.signatureTimestamped,
    STANDARD_HEADER.id,
    STANDARD_HEADER.timestamp,
    STANDARD_HEADER.signature,
  ],
  properties: {
    [HEADER.event]: str('The event name.'),
    [HEADER.delivery]: str('The delivery id, the same for every attempt of it.', { format: 'uuid' }),
    [HEADER.timestamp]: str('Unix seconds at which this attempt was signed.', { pattern: '^[0-9]+$' }),
    [HEADER.attempt]: str('The attempt, 1 to 5.', { enum: ['1', '2', '3', '4', '5'] }),
    [HEADER.signature]: str("Hex HMAC-SHA256 of the raw body with the endpoint's secret.", { pattern: '^sha256=[0-9a-f]{64}$' }),
    [HEADER.signatureTimestamped]: str('Hex HMAC-SHA256 of `{X-SVC-Timestamp}.{raw body}`.', { pattern: '^sha256=[0-9a-f]{64}$' }),
    [HEADER.replayOf]: str("On a replay only: the replayed delivery's id.", { format: 'uuid' }),
    [STANDARD_HEADER.id]: str('Standard Webhooks: the payload `id` (the same on a replay).', { pattern: '^evt_' }),
    [STANDARD_HEADER.timestamp]: str('Standard Webhooks: Unix seconds at which this attempt was signed (equal to X-SVC-Timestamp).', { pattern: '^[0-9]+$' }),
    [STANDARD_HEADER.signature]: str(
      'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64 part of the ' +
        "`whsec_` secret decoded; one entry per secret that signs (two while a rotation's switch is pending), space-separated.",
      { pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    ),
  },
};

/** zod's JSON Schema (draft 7, AsyncAPI's default schema format), without `$schema`/`$id`. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out = node as Json;
  for (const [key, value] of Object.entries(out)) out[key] = tidy(value);
  delete out.$schema;
  delete out.$id;
  if (typeof out.format === 'string' && ['date', 'date-time', 'uuid'].includes(out.format)) delete out.pattern;
  if (out.type === 'integer') {
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  }
  return out;
}

const messageKey = (name: string) => name.replace(/\./g, '_');
const channelOf: Record<Audience, { key: string; title: string; description: string; tag: string }> = {
  partner: {
    key: 'partnerEndpoint',
    tag: 'Partner events',
    title: "A partner's endpoint",
    description: 'An https URL the operator registered for a partner (`webhooks:register`), with the events it receives.',
  },
  channel: {
    key: 'channelEndpoint',
    tag: 'Channel events',
    title: "A channel's endpoint",
    description: 'An https URL a channel owner or manager registered in the studio, with the events it receives.',
  },
};

export function renderWebhooksAsyncApiDocument(): Json {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SHARED)) registry.add(schema, { id });
  const envelopes = Object.fromEntries(WEBHOOK_EVENTS.map((n) => [n, envelopeSchema(n)]));
  for (const n of WEBHOOK_EVENTS) registry.add(envelopes[n], { id: `payload:${n}` });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-7', uri: (id) => `${COMPONENT_PREFIX}${id}`, unrepresentable: 'any' });
  const tidied = tidy(schemas) as Json;
  const components: Json = {};
  for (const id of Object.keys(SHARED)) components[id] = tidied[id];

  const messages: Json = {};
  const channels: Json = {};
  const operations: Json = {};
  for (const audience of ['partner', 'channel'] as const) {
    const c = channelOf[audience];
    const names = WEBHOOK_EVENTS.filter((n) => EVENT_CATALOG[n].audience === audience);
    channels[c.key] = {
      address: null,
      title: c.title,
      description: c.description,
      messages: Object.fromEntries(names.map((n) => [messageKey(n), { $ref: `#/components/messages/${messageKey(n)}` }])),
    };
    operations[`send${c.key[0].toUpperCase()}${c.key.slice(1)}Events`] = {
      action: 'send',
      title: `Deliveries to ${c.title.toLowerCase()}`,
      channel: { $ref: `#/channels/${c.key}` },
      messages: names.map((n) => ({ $ref: `#/channels/${c.key}/messages/${messageKey(n)}` })),
    };
    for (const n of names) {
      messages[messageKey(n)] = {
        name: n,
        title: n,
        summary: EVENT_CATALOG[n].summary,
        ...('description' in EVENT_CATALOG[n] ? { description: EVENT_CATALOG[n].description } : {}),
        contentType: 'application/json',
        tags: [{ name: c.tag }],
        headers: { $ref: '#/components/schemas/DeliveryHeaders' },
        payload: tidied[`payload:${n}`],
      };
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Webhooks',
      version: '1.0.0',
      description:
        'Partners receive the partner events at the endpoints the operator registers for them; channels receive the channel events at ' +
        'the endpoints they manage in the studio. Each is a JSON `POST` of `{id, event, created_at, data}`, signed twice: with the ' +
        '`X-SVC-*` headers and with the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { schemas: { ...components, DeliveryHeaders: DELIVERY_HEADERS }, messages },
  };
}

const EVENTS_START = '<!-- events:start (generated from src/webhooks/event-catalog.ts by `npm run schema`) -->';
const EVENTS_END = '<!-- events:end -->';

/** The events table of docs/webhooks.md, from the catalog. */
export function renderEventsTable(): string {
  const rows = WEBHOOK_EVENTS.map((n) => {
    const e: { audience: Audience; summary: string; description?: string } = EVENT_CATALOG[n];
    const fields = Object.keys((EVENT_CATALOG[n].data as z.ZodObject).shape)
      .map((f) => `\`${f}\``)
      .join(', ');
    return `| \`${n}\` | ${e.audience} | ${[e.summary, e.description].filter(Boolean).join(' ')} | ${fields} |`;
  });
  return ['| event | audience | when | `data` fields |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** `markdown` with its events table replaced by today's. */
export function withEventsTable(markdown: string): string {
  const start = markdown.indexOf(EVENTS_START);
  const end = markdown.indexOf(EVENTS_END);
  if (start < 0 || end < start) throw new Error(`docs/webhooks.md lacks the markers ${EVENTS_START} ... ${EVENTS_END}`);
  return `${markdown.slice(0, start)}${EVENTS_START}\n${renderEventsTable()}\n${markdown.slice(end)}`;
}

export function renderWebhooksAsyncApi(): string {
  return `${JSON.stringify(renderWebhooksAsyncApiDocument(), null, 2)}\n`;
}
