/**
 * Zod schemas to OpenAPI 3.0.3 schema objects, with zod's own `z.toJSONSchema` (target
 * `openapi-3.0`: a nullable value is `nullable: true`). The schemas are the source of the documents
 * (docs/adr/0008-layering.md, "Schemas are the source"): a shape is declared once, as the zod
 * schema its door types its answers (or parses its requests) with, and its description and example
 * ride along as zod metadata (`.meta({ description, example })`).
 *
 * `componentSchemas` turns a named set into `components/schemas`: each is registered under its
 * name in a registry of the document's own, so a shape used inside another one becomes a `$ref`
 * to `#/components/schemas/<name>`. A few of zod's renderings are tidied to the conventions the
 * documents have always had (see `tidy`).
 */
import { z } from 'zod';

export type Schema = Record<string, unknown>;

const TARGET = 'openapi-3.0';
const COMPONENT_PREFIX = '#/components/schemas/';
/** Formats whose zod check also writes its own regular expression as `pattern`: the format says it. */
const SELF_DESCRIBING_FORMATS = new Set(['date', 'date-time', 'uuid']);

/**
 * Tidies zod's output, in place:
 * - no `$id` (a component's name is its key);
 * - an integer's implicit safe-integer bounds are dropped (they are not part of the contract);
 * - a nullable enum lets `null` through its `enum` (OpenAPI 3.0.3: `nullable` does not widen `enum`);
 * - an open object is `additionalProperties: true` rather than `{}`;
 * - `date`, `date-time` and `uuid` strings carry their `format`, not zod's regular expression;
 * - a lone `allOf: [{ $ref }]` (zod's rendering of an optional reference) is the `$ref` itself.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out = node as Schema;
  for (const [key, value] of Object.entries(out)) out[key] = tidy(value);
  delete out.$id;
  if (out.type === 'integer') {
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  }
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  const extra = out.additionalProperties;
  if (extra !== null && typeof extra === 'object' && Object.keys(extra).length === 0) out.additionalProperties = true;
  if (typeof out.format === 'string' && SELF_DESCRIBING_FORMATS.has(out.format)) delete out.pattern;
  const allOf = out.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && Object.keys(out).length === 1 && Object.keys(allOf[0] as Schema).join() === '$ref') return allOf[0];
  return out;
}

/** `components/schemas` of a document, in the order given; shared shapes are `$ref`s. */
export function componentSchemas(components: Record<string, z.ZodType>): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: TARGET, uri: (id) => `${COMPONENT_PREFIX}${id}` });
  return tidy(schemas) as Record<string, Schema>;
}

/**
 * The schema of a request parameter as the document shows it: what the parser produces (the
 * page number as an integer, the trimmed search text), or, where that is not JSON (a flag read
 * into a boolean), what it accepts.
 */
export function parameterSchema(schema: z.ZodType): Schema {
  try {
    return tidy(z.toJSONSchema(schema, { target: TARGET, io: 'output' })) as Schema;
  } catch {
    return tidy(z.toJSONSchema(schema, { target: TARGET, io: 'input' })) as Schema;
  }
}
