/**
 * The TV API's request bodies as the document describes them (zod), derived from the domain's
 * field declarations (src/domain/channels/broadcast.fields.ts: each field's rule, text and example,
 * once); the body is read by ../broadcast-body.ts and judged by those same rules. Written here:
 * what the TV API says of a body as a whole, and the rules between fields.
 */
import { z } from 'zod';
import {
  BROADCAST_DECLARATIONS,
  BROADCAST_FIELD_ORDER,
  BROADCAST_FIELDS,
  type BroadcastField,
  codeWords,
  REQUIRED_BROADCAST_FIELDS,
} from '../../domain/channels/broadcast.fields';
import { EXTERNAL_SOURCES } from '../../domain/channels/broadcast.schemas';

/** One field of a body, as its declaration says, under its wire name. */
function property(field: BroadcastField, mode: 'create' | 'update'): z.ZodType {
  const declaration = BROADCAST_DECLARATIONS[field];
  const meta: Record<string, unknown> = { description: declaration.describe(codeWords), example: declaration.example };
  if (mode === 'create' && declaration.default !== undefined) meta.default = declaration.default;
  const schema = (declaration.json ?? declaration.rule).meta(meta);
  return mode === 'create' && REQUIRED_BROADCAST_FIELDS.includes(field) ? schema : schema.optional();
}

const properties = (mode: 'create' | 'update') => Object.fromEntries(BROADCAST_FIELD_ORDER.map((field) => [BROADCAST_FIELDS[field], property(field, mode)]));

/** A creation with every field: each field's example. */
const createExample = Object.fromEntries(BROADCAST_FIELD_ORDER.map((field) => [BROADCAST_FIELDS[field], BROADCAST_DECLARATIONS[field].example]));

export const BroadcastCreate = z.strictObject(properties('create')).meta({
  description:
    `A new broadcast. ${REQUIRED_BROADCAST_FIELDS.map((f) => `\`${BROADCAST_FIELDS[f]}\``)
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1')} are required; ` +
    '`source_url` is required unless ' +
    'the source is `ingest`, and forbidden then. A bad field is a 422 `invalid_<field>`; an unknown field ' +
    'or a body that is not a JSON object is a 422 `invalid_body`.',
  oneOf: [
    {
      type: 'object',
      description: 'An ingest broadcast: no `source_url`.',
      properties: { source: { type: 'string', enum: ['ingest'] }, source_url: { not: {}, description: 'Absent.' } },
      required: ['source'],
    },
    {
      type: 'object',
      description: 'An external broadcast: `source_url` is required.',
      properties: { source: { type: 'string', enum: EXTERNAL_SOURCES } },
      required: ['source', 'source_url'],
    },
  ],
  example: createExample,
});

export const BroadcastUpdate = z.strictObject(properties('update')).meta({
  description:
    'Changes to a broadcast: any of the creation fields, at least one. Which fields may change depends on ' +
    'the state (see `PATCH /broadcasts/{broadcast}`); a forbidden change is a 409 `invalid_state`. ' +
    'Switching `source` to `ingest` drops `source_url` (send none); switching away from `ingest` needs a ' +
    '`source_url`.',
  minProperties: 1,
  example: { title: 'Berlin Open: finals (main card)', tags: ['finals'] },
});

/** One `invalid_<field>` per field of a broadcast body, in field order, then `invalid_body`. */
export const INVALID_BROADCAST_FIELDS = [...BROADCAST_FIELD_ORDER.map((field) => `invalid_${BROADCAST_FIELDS[field]}`), 'invalid_body'];
