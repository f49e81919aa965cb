/**
 * The webhooks page of /docs: the AsyncAPI description of the webhook events turned into an
 * OpenAPI 3.1 document whose `webhooks` Redoc renders like the APIs' operations (each event, the
 * headers it is sent with and its payload schema), with the verification recipe on top.
 *
 * Reads AsyncAPI 2 or 3 alike: every message under `components.messages` is one event (its
 * `name`, or its key), its `payload` the POSTed body, its `headers` the request headers;
 * `#/components/schemas/...` references mean the same in both formats.
 */
import { resolveRef } from '../lib/openapi-ref';

type Json = Record<string, any>;

export const VERIFICATION_RECIPE = `## Verifying a delivery

Every delivery is a JSON \`POST\` signed with the endpoint's secret (\`whsec_...\`, shown once when
the endpoint is registered). To accept one:

1. Read the **raw** body (before any JSON parsing).
2. Compute \`sha256=\` + hex HMAC-SHA256 of \`{X-SVC-Timestamp}.{raw body}\` with the secret, and
   compare it with \`X-SVC-Signature-Timestamped\` in constant time (\`X-SVC-Signature\` signs the body
   alone, for receivers that cannot read headers in order).
3. Refuse a \`X-SVC-Timestamp\` more than 300 seconds from your clock (a replayed capture).
4. Answer 2xx at once, then process: anything else, or no answer within 10 seconds, is retried
   after 1 minute, 5 minutes, 30 minutes and 2 hours (five attempts in all); a 410 Gone disables the
   endpoint.
5. De-duplicate on the payload \`id\`: delivery is at least once, and a replay (\`X-SVC-Replay-Of\`)
   keeps the \`id\`.

\`\`\`js
// Node 18 or later: express.raw keeps the body as it was signed.
const crypto = require('node:crypto');
const express = require('express');

function verified(req, secret) {
  const timestamp = req.get('X-SVC-Timestamp');
  if (!timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(timestamp + '.').update(req.body).digest('hex');
  const given = req.get('X-SVC-Signature-Timestamped') || '';
  return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

const seen = new Set(); // use your database: ids must survive a restart
express()
  .post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
    if (!verified(req, process.env.WEBHOOK_SECRET)) return res.sendStatus(401);
    res.sendStatus(204); // answer first, then work
    const event = JSON.parse(req.body);
    if (seen.has(event.id)) return;
    seen.add(event.id);
    console.log(event.event, event.data);
  })
  .listen(4500);
\`\`\`
`;

/** Where the page comes from, and the other way to verify. */
export const SOURCES = `The machine-readable description of these events is the AsyncAPI 3.0 document
[/docs/webhooks.asyncapi.json](/docs/webhooks.asyncapi.json). Every delivery also carries the
[Standard Webhooks](https://www.standardwebhooks.com) headers \`webhook-id\`, \`webhook-timestamp\` and
\`webhook-signature\`: a Standard Webhooks library verifies it with the endpoint's secret as printed.`;

/** Header parameters from a message's `headers` schema (an object schema, or a reference to one). */
function headerParameters(doc: Json, headers: Json | undefined): Json[] {
  const schema = resolveRef(doc, headers);
  const required = new Set<string>(schema?.required ?? []);
  return Object.entries<Json>(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'header',
    required: required.has(name),
    ...(property.description ? { description: property.description } : {}),
    schema: Object.fromEntries(Object.entries(property).filter(([k]) => k !== 'description')),
  }));
}

function examplesOf(message: Json): Json | undefined {
  const list = (message.examples ?? []) as Json[];
  if (list.length === 0) return undefined;
  return Object.fromEntries(list.map((e, i) => [e.name ?? `example${i + 1}`, { summary: e.summary ?? e.name, value: e.payload }]));
}

export function webhooksReference(asyncapi: Json): Json {
  const messages = Object.entries<Json>(asyncapi.components?.messages ?? {}).map(([key, m]) => [key, resolveRef(asyncapi, m)] as const);
  const tags = new Map<string, Json>();
  const webhooks: Json = {};
  for (const [key, message] of messages) {
    const name = String(message.name ?? key);
    for (const tag of message.tags ?? []) if (!tags.has(tag.name)) tags.set(tag.name, tag);
    const examples = examplesOf(message);
    webhooks[name] = {
      post: {
        operationId: name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()),
        summary: message.title ?? name,
        description: [message.summary, message.description].filter(Boolean).join('\n\n'),
        ...(message.tags ? { tags: message.tags.map((t: Json) => t.name) } : {}),
        parameters: headerParameters(asyncapi, message.headers),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: message.payload ?? {}, ...(examples ? { examples } : {}) } },
        },
        responses: {
          // One entry: a JSON object puts a numeric key such as 410 before "2XX".
          '2XX': {
            description:
              'Received. Answer at once and process afterwards. Anything else, or no answer within 10 seconds, is retried; a 410 Gone disables the endpoint.',
          },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: asyncapi.info?.title ?? 'Webhooks',
      version: asyncapi.info?.version ?? '1.0.0',
      description: [asyncapi.info?.description, SOURCES, VERIFICATION_RECIPE].filter(Boolean).join('\n\n'),
    },
    ...(tags.size ? { tags: [...tags.values()] } : {}),
    paths: {},
    webhooks,
    components: { schemas: asyncapi.components?.schemas ?? {} },
  };
}
