/**
 * An AsyncAPI 3.0 description of the webhook events, assembled from what the service states
 * today: the payload rules (docs/decisions.md#payloads) over the schemas both OpenAPI documents
 * already publish (a `result.verified` is a Result plus `verified_at`, a channel event carries
 * the Broadcast). It stands in for the event catalog's own document (schema/webhooks.asyncapi.json),
 * which docs.ts reads instead as soon as it exists.
 */
type Json = Record<string, any>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const time = (description: string) => ({ type: 'string', format: 'date-time', description });
const str = (description: string) => ({ type: 'string', description });
const url = { type: 'string', format: 'uri', description: 'Where the subject is served on the partner API (with a key).' };

/** Copies `names` and every schema they reference from an OpenAPI document. */
function schemasFrom(doc: Json, names: string[], into: Json): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const target = (node as Json).$ref as string | undefined;
      if (target?.startsWith('#/components/schemas/')) add(target.split('/').pop()!);
      Object.values(node).forEach(visit);
    }
  };
  const add = (name: string) => {
    if (into[name] || !doc.components?.schemas?.[name]) return;
    into[name] = doc.components.schemas[name];
    visit(into[name]);
  };
  names.forEach(add);
}

const LICENCE_FIGHTER = {
  type: 'object', description: 'The fighter the licence belongs to (never a minor).',
  required: ['slug', 'name', 'country', 'fighter_code', 'licence_no'],
  properties: { slug: str('Fighter slug.'), name: str('Name.'), country: str('Country slug.'), fighter_code: { type: ['string', 'null'], description: 'Fighter ID.' }, licence_no: str('Licence number.') },
};

const object = (properties: Json) => ({ type: 'object', required: Object.keys(properties), properties });

const PARTNER: [string, string, Json][] = [
  ['ranking.published', 'A fighter\'s rank or points changed in a published ranking run (one delivery per fighter and scope).', object({
    fighter: ref('FighterSummary'), division: ref('Division'), as_of: { type: 'string', format: 'date', description: 'The run\'s date.' },
    rank: { type: 'integer' }, previous_rank: { type: ['integer', 'null'], description: 'null: newly ranked.' },
    movement: { type: ['integer', 'null'], description: 'Previous rank minus this one (positive: up); null when new.' }, points: { type: 'number' }, url,
  })],
  ['result.verified', 'A bout result was verified: one delivery per adult fighter of the bout.', { allOf: [ref('Result'), object({ verified_at: time('When it was verified.') })] }],
  ['licence.issued', 'A licence and fighter ID were issued (or renewed).', object({
    fighter: LICENCE_FIGHTER, division: ref('Division'), status: str('Fighter status.'), licence_status: str('Licence status.'),
    issued_at: time('When it was issued.'), valid_until: time('The end of its last valid day.'), url,
  })],
  ['licence.suspended', 'A licence was suspended.', object({ fighter: LICENCE_FIGHTER, status: str('Fighter status.'), licence_status: str('Licence status.'), suspended_at: time('When.'), url })],
  ['event.sanctioned', 'An event was sanctioned by the operator.', { allOf: [ref('Event'), object({ sanctioned_at: time('When it was sanctioned.') })] }],
];

const CHANNEL: [string, string, Json][] = [
  ['broadcast.scheduled', 'A broadcast was created or scheduled.', object({ broadcast: ref('Broadcast') })],
  ['broadcast.live', 'A broadcast went live.', object({ broadcast: ref('Broadcast') })],
  ['broadcast.ended', 'A broadcast ended (an external one is already a replay).', object({ broadcast: ref('Broadcast') })],
  ['replay.ready', 'A broadcast\'s replay is available.', object({ broadcast: ref('Broadcast') })],
  ['ping', 'The studio\'s Test button, to this endpoint only.', object({ channel: object({ slug: str('Channel slug.'), name: str('Channel name.') }), message: str('A fixed text.') })],
];

const HEADERS = {
  type: 'object', required: ['X-SVC-Event', 'X-SVC-Delivery', 'X-SVC-Timestamp', 'X-SVC-Attempt', 'X-SVC-Signature', 'X-SVC-Signature-Timestamped'],
  properties: {
    'X-SVC-Event': str('The event name.'),
    'X-SVC-Delivery': { type: 'string', format: 'uuid', description: 'The delivery id, the same for every attempt of it.' },
    'X-SVC-Timestamp': { type: 'string', pattern: '^[0-9]+$', description: 'Unix seconds at which this attempt was signed.' },
    'X-SVC-Attempt': { type: 'string', enum: ['1', '2', '3', '4', '5'], description: 'The attempt, 1 to 5.' },
    'X-SVC-Signature': { type: 'string', pattern: '^sha256=[0-9a-f]{64}$', description: 'Hex HMAC-SHA256 of the raw body with the endpoint\'s secret.' },
    'X-SVC-Signature-Timestamped': { type: 'string', pattern: '^sha256=[0-9a-f]{64}$', description: 'Hex HMAC-SHA256 of `{X-SVC-Timestamp}.{raw body}`.' },
    'X-SVC-Replay-Of': { type: 'string', format: 'uuid', description: 'On a replay only: the replayed delivery\'s id.' },
  },
};

function envelope(name: string, data: Json): Json {
  return {
    type: 'object', required: ['id', 'event', 'created_at', 'data'],
    properties: {
      id: { type: 'string', pattern: '^evt_', description: 'The event id: de-duplicate on it (a replay keeps it).' },
      event: { type: 'string', const: name },
      created_at: time('When the change happened, ISO 8601 with offset.'),
      data,
    },
  };
}

export function interimWebhooksAsyncApi(partnerOpenApi: Json, tvOpenApi: Json): Json {
  const schemas: Json = {};
  schemasFrom(partnerOpenApi, ['FighterSummary', 'Division', 'Result', 'Event'], schemas);
  schemasFrom(tvOpenApi, ['Broadcast'], schemas);
  const messages: Json = {};
  const add = (tag: string) => ([name, summary, data]: [string, string, Json]) => {
    messages[name.replace(/\./g, '_')] = { name, title: name, summary, tags: [{ name: tag }], headers: HEADERS, payload: envelope(name, data) };
  };
  PARTNER.forEach(add('Partner events'));
  CHANNEL.forEach(add('Channel events'));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Webhooks',
      version: '1.0.0',
      description: 'Partners receive the partner events at the endpoints the operator registers for them; channels receive the channel events at the endpoints they manage in the studio. Each is a JSON `POST` of `{id, event, created_at, data}`.',
    },
    components: { schemas, messages },
  };
}
