/**
 * Small builders for OpenAPI 3.0.3 documents, shared by the partner API's document
 * (src/rest/openapi.document.ts) and the TV API's (src/tv/openapi-tv.document.ts).
 *
 * Every builder returns a plain object whose key order is fixed by the code, so a document built
 * from them renders byte-for-byte deterministically.
 *
 * Conventions:
 * - `closedObject` lists every property as `required` and allows nothing else;
 * - a value that can be null is `nullable(...)` (with `null` added to its `enum`, if it has one);
 * - a "null or one of these objects" value is a `oneOf` whose last branch is `nullOnly(...)`
 *   (OpenAPI 3.0.3 `nullable` needs a `type` in the same schema object, so `nullable` next to a
 *   `$ref` would have no effect).
 */

export type Schema = Record<string, unknown>;
export type Props = Record<string, Schema>;

export const ref = (kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): Schema => ({
  $ref: `#/components/${kind}/${name}`,
});
export const schemaRef = (name: string): Schema => ref('schemas', name);

export function withDescription(schema: Schema, description?: string): Schema {
  return description === undefined ? schema : { ...schema, description };
}

export const str = (description?: string, extra: Schema = {}): Schema =>
  withDescription({ type: 'string', ...extra }, description);
export const int = (description?: string, extra: Schema = {}): Schema =>
  withDescription({ type: 'integer', ...extra }, description);
export const num = (description?: string, extra: Schema = {}): Schema =>
  withDescription({ type: 'number', ...extra }, description);
export const bool = (description?: string): Schema => withDescription({ type: 'boolean' }, description);
export const date = (description?: string): Schema => str(description, { format: 'date', example: '2026-11-20' });
export const enumOf = (values: readonly string[], description?: string): Schema =>
  str(description, { enum: [...values] });
export const arrayOf = (items: Schema, description?: string, extra: Schema = {}): Schema =>
  withDescription({ type: 'array', items, ...extra }, description);

/** Marks a typed schema nullable (and lets `null` through its `enum`, if it has one). */
export function nullable(schema: Schema): Schema {
  const out: Schema = { ...schema, nullable: true };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

/** A schema that admits only `null`: the last branch of a "null or one of these" `oneOf`. */
export const nullOnly = (description: string): Schema => ({
  type: 'object',
  description,
  nullable: true,
  enum: [null],
});

/** A closed object: every property required, nothing else allowed. */
export function closedObject(properties: Props, description?: string, extra: Schema = {}): Schema {
  return withDescription(
    {
      type: 'object',
      ...extra,
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    },
    description,
  );
}

// ---------------------------------------------------------------------------------------------
// Parameters, headers, responses
// ---------------------------------------------------------------------------------------------

export interface ParamSpec {
  name: string;
  in: 'query' | 'path' | 'header';
  description: string;
  schema: Schema;
  example?: unknown;
}

/** A Parameter Object: path parameters are required, query parameters are not. */
export function parameter(spec: ParamSpec): Schema {
  const out: Schema = { name: spec.name, in: spec.in, description: spec.description };
  if (spec.in === 'path') out.required = true;
  else if (spec.in === 'query') out.required = false;
  out.schema = spec.schema;
  if (spec.example !== undefined) out.example = spec.example;
  return out;
}

export const headerRef = (name: string): Schema => ref('headers', name);
export const headerSet = (names: string[]): Schema => Object.fromEntries(names.map((n) => [n, headerRef(n)]));

/** A Media Type map with one `application/json` entry. */
export const json = (schema: Schema, example?: unknown): Schema => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

/** An error answer whose body is the `Error` schema with `error` one of `codes`. */
export function errorResponse(description: string, codes: string[], headers: string[]): Schema {
  return {
    description,
    headers: headerSet(headers),
    content: json(
      {
        allOf: [
          schemaRef('Error'),
          { type: 'object', properties: { error: enumOf(codes) } },
        ],
      },
      { error: codes[0], message: 'See the description of this answer.' },
    ),
  };
}
