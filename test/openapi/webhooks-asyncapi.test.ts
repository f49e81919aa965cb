import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { CHANNEL_EVENTS, EVENT_CATALOG, PARTNER_EVENTS, WEBHOOK_EVENTS, payloadProblems } from '../../src/webhooks/event-catalog';
import { renderWebhooksAsyncApi, renderWebhooksAsyncApiDocument } from '../../src/webhooks/webhooks.asyncapi';

/** schema/webhooks.asyncapi.json: generated from the event catalog, checked in, never stale. */

const FILE = join(__dirname, '../../schema/webhooks.asyncapi.json');
const doc = renderWebhooksAsyncApiDocument();

test('the checked-in document is what `npm run schema` writes today', () => {
  if (readFileSync(FILE, 'utf8') !== renderWebhooksAsyncApi())
    throw new Error('schema/webhooks.asyncapi.json is stale: run `npm run schema` and commit the result');
});

test('it is an AsyncAPI 3.0 document with one message per catalog event, on the channel of its audience', () => {
  expect(doc.asyncapi).toBe('3.0.0');
  expect(Object.values(doc.components.messages).map((m: any) => m.name)).toEqual([...WEBHOOK_EVENTS]);
  const onChannel = (key: string) => Object.keys(doc.channels[key].messages).map((k) => doc.components.messages[k].name);
  expect(onChannel('partnerEndpoint')).toEqual([...PARTNER_EVENTS]);
  expect(onChannel('channelEndpoint')).toEqual([...CHANNEL_EVENTS]);
  for (const op of Object.values<any>(doc.operations)) {
    expect(op.action).toBe('send');
    for (const m of op.messages) expect(m.$ref).toMatch(new RegExp(`^${op.channel.$ref}/messages/`));
  }
  for (const target of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas[target[1]]).toBeDefined();
  for (const name of WEBHOOK_EVENTS) expect(doc.components.messages[name.replace('.', '_')].summary).toBe(EVENT_CATALOG[name].summary);
});

test('a payload the catalog accepts is valid against the published JSON schema, and one it refuses is not', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const withRefs = (schema: unknown) =>
    JSON.parse(JSON.stringify({ ...(schema as object), definitions: doc.components.schemas }).replaceAll('#/components/schemas/', '#/definitions/'));
  const validate = ajv.compile(withRefs(doc.components.messages.ping.payload));
  const ping = {
    id: 'evt_01JD0000000000000000000000',
    event: 'ping',
    created_at: '2026-11-25T10:00:00+00:00',
    data: { channel: { slug: 'demo-tv', name: 'Demo TV' }, message: 'ping from the studio' },
  };
  expect(payloadProblems(JSON.stringify(ping))).toEqual([]);
  expect(validate(ping)).toBe(true);
  const extra = { ...ping, data: { ...ping.data, secret: 'x' } };
  expect(payloadProblems(JSON.stringify(extra))).not.toEqual([]);
  expect(validate(extra)).toBe(false);
  expect(payloadProblems(JSON.stringify({ ...ping, event: 'nope' }))).toEqual(['unknown event "nope"']);
});

test("docs/webhooks.md's events table is the catalog's", () => {
  const { withEventsTable } = require('../../src/webhooks/webhooks.asyncapi') as typeof import('../../src/webhooks/webhooks.asyncapi');
  const doc = readFileSync(join(__dirname, '../../docs/webhooks.md'), 'utf8');
  if (withEventsTable(doc) !== doc) throw new Error('the events table of docs/webhooks.md is stale: run `npm run schema` and commit the result');
  for (const name of WEBHOOK_EVENTS) expect(doc).toContain(`| \`${name}\` |`);
});
