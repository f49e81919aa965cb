/**
 * Request generation from an OpenAPI 3.0 document, for the seeded fuzz tests of the REST doors:
 *
 *   const ops = operationsOf(doc);                       // every path and method it documents
 *   paramValue(doc, param, real)                         // valid and invalid values of a parameter
 *   bodyOf(doc, schema)                                  // valid samples and mutations of a body
 *   documentedErrorCodes(doc, template, method, status)  // the `error` codes the document lists
 *
 * Valid values come from the schemas themselves (openapi-sampler's sample, `enum`, `pattern`
 * through fc.stringMatching, integer bounds, formats) mixed with real identifiers of the test
 * world; invalid ones are wrong types, values just outside the bounds, over-long strings,
 * unicode and control characters. Everything is a fast-check arbitrary, so a fixed seed fixes
 * the requests.
 */
import fc from 'fast-check';
import { sample } from 'openapi-sampler';

type Json = Record<string, any>;

export const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Operation {
  template: string;
  method: HttpMethod;
  op: Json;
  parameters: Json[];
  /** The request-body schema (application/json), when the operation takes one. */
  bodySchema?: Json;
  /** `security: []` on the operation: no key is needed. */
  isPublic: boolean;
}

/** Follows `$ref`s (local ones) to the node they name. */
export function deref(doc: Json, node: any): any {
  let seen = 0;
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    if (++seen > 20) throw new Error(`reference cycle at ${node.$ref}`);
    node = node.$ref
      .slice(2)
      .split('/')
      .map((t: string) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((n: any, t: string) => (n == null ? undefined : n[t]), doc);
  }
  return node;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
      const body = deref(doc, op.requestBody);
      const bodySchema = body?.content?.['application/json']?.schema;
      out.push({
        template,
        method,
        op,
        parameters,
        bodySchema: bodySchema ? deref(doc, bodySchema) : undefined,
        isPublic: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return out;
}

/** The documented response of a status (exact code, `4XX`-style range, then `default`). */
export function documentedResponse(doc: Json, template: string, method: string, status: number): Json | undefined {
  const item = doc.paths?.[template];
  const op = item?.[method.toLowerCase()] ?? (method.toLowerCase() === 'head' ? item?.get : undefined);
  const responses = op?.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find((k) => responses[k]);
  return key ? deref(doc, responses[key]) : undefined;
}

/** The values an `error` property may take in a schema (through $ref and allOf); undefined if not enumerated. */
function errorEnum(doc: Json, schema: any): string[] | undefined {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object') return undefined;
  const own = deref(doc, s.properties?.error)?.enum as string[] | undefined;
  let codes: string[] | undefined = own ? [...own] : undefined;
  for (const part of s.allOf ?? []) {
    const inner = errorEnum(doc, part);
    // allOf: a value must satisfy every part, so enums intersect
    if (inner) codes = codes ? codes.filter((c) => inner.includes(c)) : inner;
  }
  const alternatives = [...(s.oneOf ?? []), ...(s.anyOf ?? [])].map((p) => errorEnum(doc, p));
  if (alternatives.length > 0 && alternatives.every(Boolean)) {
    const union = [...new Set(alternatives.flat() as string[])];
    codes = codes ? codes.filter((c) => union.includes(c)) : union;
  }
  return codes;
}

/**
 * The `error` codes the document lists for an operation's answer with this status, or undefined
 * when its schema does not enumerate them.
 */
export function documentedErrorCodes(doc: Json, template: string, method: string, status: number): string[] | undefined {
  const response = documentedResponse(doc, template, method, status);
  const schema = response?.content?.['application/json']?.schema;
  return schema ? errorEnum(doc, schema) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Values

/** A generated value: `undefined` means "leave it out". */
export type Gen<T = unknown> = fc.Arbitrary<T>;

const CONTROL = ['\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u007f'];
const UNICODE = ['é', 'Müller', 'ǅ', '𝕏', '😀', '\u202e', '\u200b', '\ufeff', 'ﬃ', '\ud800', 'İ', '日本'];

/** Strings that no schema of the documents accepts and that have broken servers before. */
export const nastyString: Gen<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '  x  ',
    'null',
    'undefined',
    'true',
    '0',
    '-1',
    'NaN',
    'Infinity',
    '1e309',
    '[]',
    '{}',
    '%',
    '%ZZ',
    '%00',
    '../..',
    '..%2f..',
    "' or 1=1 --",
    '"; drop table fighter; --',
    '${jndi:ldap://x}',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
  ),
  fc.constantFrom(...CONTROL).map((c) => `a${c}b`),
  fc.constantFrom(...UNICODE),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer({ min: 101, max: 5000 }).map((n) => 'x'.repeat(n)),
);

/** A valid value of a (primitive) schema, from the schema itself. */
export function validValue(doc: Json, schemaIn: any, real: unknown[] = []): Gen<unknown> {
  const schema = deref(doc, schemaIn) ?? {};
  const choices: Gen<unknown>[] = [];
  if (real.length > 0) choices.push(fc.constantFrom(...real));
  if (Array.isArray(schema.enum)) {
    choices.push(fc.constantFrom(...schema.enum.filter((v: unknown) => v !== null || schema.nullable)));
  } else if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? -1_000_000;
    const max = schema.maximum ?? 1_000_000;
    choices.push(fc.integer({ min, max }), fc.constantFrom(min, max));
  } else if (schema.type === 'boolean') {
    choices.push(fc.boolean());
  } else if (schema.type === 'array') {
    choices.push(fc.array(validValue(doc, schema.items), { maxLength: Math.min(schema.maxItems ?? 5, 12), minLength: schema.minItems ?? 0 }));
  } else if (schema.type === 'string' || schema.type === undefined) {
    if (schema.format === 'date') {
      choices.push(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      );
      // The edges of the storable range are valid dates.
      choices.push(fc.constantFrom('0001-01-01', '9999-12-31'));
    } else if (schema.format === 'date-time') {
      choices.push(
        fc
          .date({ min: new Date('2027-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')),
      );
      choices.push(
        fc
          .tuple(fc.integer({ min: 2027, max: 2035 }), fc.integer({ min: -12, max: 14 }))
          .map(([y, h]) => `${y}-03-04T20:30:00${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}:00`),
      );
    } else if (schema.format === 'uuid') {
      choices.push(fc.uuid());
    } else if (typeof schema.pattern === 'string' && schema.format === undefined) {
      choices.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200) && s.length >= (schema.minLength ?? 0)));
    } else if (schema.format === undefined) {
      choices.push(
        fc
          .string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 60), unit: 'grapheme-ascii' })
          .filter((s) => s.trim().length >= (schema.minLength ?? 0)),
      );
    }
  }
  const sampled = sample(schema, { quiet: true }, doc);
  if (sampled !== undefined) choices.push(fc.constant(sampled));
  if (schema.example !== undefined) choices.push(fc.constant(schema.example));
  if (schema.default !== undefined) choices.push(fc.constant(schema.default));
  return fc.oneof(...choices);
}

/** An invalid value of a schema: wrong type, out of bounds, off the pattern, too long, odd characters. */
export function invalidValue(doc: Json, schemaIn: any): Gen<unknown> {
  const schema = deref(doc, schemaIn) ?? {};
  const choices: Gen<unknown>[] = [nastyString, fc.constantFrom(null, true, false, 0, -1, 1.5, 1e21, [], {}, ['a'], { a: 1 })];
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? 0;
    const max = schema.maximum ?? 1_000_000;
    choices.push(
      fc.constantFrom(min - 1, max + 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER, 2 ** 31, -(2 ** 31) - 1),
      fc.integer({ min: max + 1, max: max * 10 + 100 }),
      fc.constantFrom('1.5', '1e2', '0x10', ' 1', '1 ', '+1', '01', '١', '1_000', `${max}0`, '9'.repeat(30)),
    );
  }
  if (typeof schema.maxLength === 'number') choices.push(fc.constant('x'.repeat(schema.maxLength + 1)), fc.constant('é'.repeat(schema.maxLength + 1)));
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    choices.push(fc.constant('x'.repeat(schema.minLength - 1)), fc.constant(' '.repeat(schema.minLength + 1)));
  if (Array.isArray(schema.enum)) {
    const e = schema.enum.filter((v: unknown) => typeof v === 'string') as string[];
    if (e.length)
      choices.push(
        fc.constantFrom(...e).map((v) => v.toUpperCase()),
        fc.constantFrom(...e).map((v) => ` ${v}`),
        fc.constantFrom(...e).map((v) => `${v}\u0000`),
      );
  }
  if (schema.type === 'array') {
    choices.push(
      fc.constant(Array.from({ length: (schema.maxItems ?? 10) + 1 }, (_, i) => `t${i}`)),
      fc.array(invalidValue(doc, schema.items), { minLength: 1, maxLength: 3 }),
    );
  }
  if (schema.format === 'date' || schema.format === 'date-time') {
    choices.push(
      fc.constantFrom(
        '2026-02-30',
        '2026-13-01',
        '0000-00-00',
        '2026-06-15T25:00:00Z',
        '2026-06-15 10:00',
        '2026-06-15T10:00:00',
        '1999-01-01T00:00:00Z',
        '+275760-09-13T00:00:00Z',
        '2026-06-15T10:00:00+24:00',
      ),
    );
    // Outside the storable range (src/domain/date-range.ts): year 0000 parses in JavaScript, PostgreSQL refuses it.
    choices.push(
      fc.constantFrom(
        '0000-01-01',
        '0000-12-31',
        '0000-01-01T00:00:00Z',
        '0000-12-31T23:59:59+00:00',
        '-000001-01-01T00:00:00Z',
        '+010000-01-01T00:00:00Z',
        '10000-01-01',
      ),
    );
  }
  if (schema.format === 'uri')
    choices.push(
      fc.constantFrom(
        'http://www.youtube.com/watch?v=x',
        'https://',
        'javascript:alert(1)',
        'https://127.0.0.1/a.m3u8',
        `https://x.example/${'a'.repeat(3000)}.mp4`,
        'https://exa mple.com/a.mp4',
      ),
    );
  return fc.oneof(...choices);
}

// ---------------------------------------------------------------------------------------------
// Bodies

export interface BodyCase {
  /** What kind of body this is, for the summary. */
  kind: string;
  /** The exact bytes sent; undefined sends no body. */
  raw?: string;
  /** Content-Type; undefined sends none. */
  type?: string;
  /** Content-Encoding, when set. */
  encoding?: string;
}

const json = (v: unknown) => JSON.stringify(v);

/**
 * Bodies for an object schema: valid samples (openapi-sampler, and one value per property from
 * its schema), and mutations: a required field missing, extra fields (`__proto__`,
 * `constructor`), one field of a wrong type or invalid, strings just under and over the body
 * limit, bodies that are not objects, malformed JSON and wrong content types.
 */
export function bodyOf(doc: Json, schemaIn: Json, opts: { limitBytes: number; validOverrides?: Gen<Record<string, unknown>> }): Gen<BodyCase> {
  const schema = deref(doc, schemaIn);
  const props = Object.entries<Json>(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const sampled = sample(schema, { quiet: true }, doc) as Record<string, unknown>;

  const validObject: Gen<Record<string, unknown>> = fc.oneof(
    fc.constant(sampled),
    fc.record(Object.fromEntries(props.map(([name, p]) => [name, validValue(doc, p)])), { requiredKeys: required }) as Gen<Record<string, unknown>>,
    ...(opts.validOverrides ? [opts.validOverrides] : []),
  );
  const asJson =
    (kind: string) =>
    (v: unknown): BodyCase => ({ kind, raw: json(v), type: 'application/json' });
  const withField = (base: Record<string, unknown>, name: string, value: unknown) => ({ ...base, [name]: value });

  const objectMutations: Gen<BodyCase>[] = [];
  if (required.length > 0) {
    objectMutations.push(
      fc.tuple(validObject, fc.constantFrom(...required)).map(([o, drop]) => {
        const { [drop]: _gone, ...rest } = o;
        return asJson('missing-required')(rest);
      }),
    );
  }
  if (props.length > 0) {
    objectMutations.push(
      fc
        .tuple(validObject, fc.constantFrom(...props))
        .chain(([o, [name, p]]) => invalidValue(doc, p).map((bad) => asJson('invalid-field')(withField(o, name, bad)))),
      fc.tuple(validObject, fc.constantFrom(...props.map(([n]) => n))).map(([o, name]) => asJson('null-field')(withField(o, name, null))),
    );
  }
  // Extra fields; __proto__ and constructor are spliced in as text (an object literal would set the prototype).
  objectMutations.push(
    fc
      .tuple(validObject, fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'channel_id', 'state', 'slug', 'stream_key', 'Title', 'title ', ''))
      .map(([o, key]) => {
        const inner = json(o).slice(1, -1);
        const extra = `${json(key)}:${key === '__proto__' || key === 'constructor' ? '{"polluted":true,"prototype":{"polluted":true}}' : '"x"'}`;
        return { kind: 'extra-field', raw: `{${extra}${inner ? `,${inner}` : ''}}`, type: 'application/json' };
      }),
    // the same field twice: JSON.parse keeps the last one
    fc
      .tuple(validObject, fc.constantFrom(...props.map(([n]) => n)))
      .map(([o, name]) => ({ kind: 'duplicate-field', raw: `{${json(name)}:1,${json(o).slice(1)}`, type: 'application/json' })),
  );

  // Sizes around the body limit: a long string field just under it, and over it.
  const firstString = props.find(([, p]) => deref(doc, p).type === 'string')?.[0] ?? 'title';
  const sized = (bytes: number, kind: string) =>
    validObject.map((o): BodyCase => {
      const base = json(withField(o, firstString, ''));
      return { kind, raw: json(withField(o, firstString, 'x'.repeat(Math.max(0, bytes - Buffer.byteLength(base))))), type: 'application/json' };
    });
  const sizes: Gen<BodyCase>[] = [
    sized(opts.limitBytes - 64, 'under-limit'),
    sized(opts.limitBytes + 1, 'over-limit'),
    sized(opts.limitBytes * 4, 'over-limit'),
  ];

  const notObjects: Gen<BodyCase> = fc
    .constantFrom('[]', '[{}]', '"text"', '42', 'null', 'true', '{}', '[null]')
    .map((raw) => ({ kind: 'not-object', raw, type: 'application/json' }));
  const malformed: Gen<BodyCase> = fc
    .oneof(
      fc.constantFrom(
        '',
        '{',
        '{"title":',
        '{"title":"a",}',
        "{'title':'a'}",
        'nul',
        '{"a":1}{"b":2}',
        '\u0000',
        '{"title":"\\ud800"}',
        '{"title":"\\u0000"}',
        ' '.repeat(10),
        '\ufeff{}',
        'NaN',
        '[1,2',
        `{"a":${'['.repeat(5000)}`,
      ),
      fc.string({ unit: 'binary', maxLength: 40 }),
    )
    .map((raw) => ({ kind: 'malformed-json', raw, type: 'application/json' }));
  const contentTypes: Gen<BodyCase> = fc
    .tuple(
      validObject,
      fc.constantFrom<string | undefined>(
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/merge-patch+json',
        'application/vnd.api+json',
        'APPLICATION/JSON',
        'application/json; charset=utf-8',
        'application/json;charset=UTF-8',
        '*/*',
        'json',
      ),
    )
    .map(([o, type]) => ({ kind: `content-type ${type ?? 'none'}`, raw: json(o), type }));
  const encodings: Gen<BodyCase> = fc
    .tuple(validObject, fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown', 'identity', 'gzip, gzip'))
    .map(([o, encoding]) => ({ kind: `content-encoding ${encoding}`, raw: json(o), type: 'application/json', encoding }));
  const none: Gen<BodyCase> = fc.constantFrom<BodyCase>(
    { kind: 'no-body' },
    { kind: 'no-body-json', type: 'application/json' },
    { kind: 'empty-json', raw: '', type: 'application/json' },
  );

  return fc.oneof(
    { weight: 8, arbitrary: validObject.map(asJson('valid')) },
    { weight: 8, arbitrary: fc.oneof(...objectMutations) },
    { weight: 2, arbitrary: fc.oneof(...sizes) },
    { weight: 2, arbitrary: notObjects },
    { weight: 2, arbitrary: malformed },
    { weight: 2, arbitrary: contentTypes },
    { weight: 1, arbitrary: encodings },
    { weight: 1, arbitrary: none },
  );
}

// ---------------------------------------------------------------------------------------------
// Query strings and path segments

/** A query-string value as sent: percent-encoded, or (`raw`) left as is. */
export interface QueryPart {
  name: string;
  value: string;
  raw?: boolean;
}

/** encodeURIComponent, after replacing lone surrogates (which it cannot encode) with U+FFFD. */
export const encode = (s: string): string => encodeURIComponent(s.replace(/[\ud800-\udfff]/gu, '\ufffd'));

export const renderQuery = (parts: QueryPart[]): string =>
  parts.length === 0 ? '' : `?${parts.map((p) => (p.raw ? `${p.name}=${p.value}` : `${encode(p.name)}=${encode(p.value)}`)).join('&')}`;

const asText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The query of one request: either only valid values (each documented query parameter absent or
 * valid, or one of `presets`, queries known to reach the handler), or a fuzzed one where each
 * parameter is absent, valid, invalid or repeated, with sometimes unknown parameters and raw
 * (badly encoded) ones.
 */
export function queryOf(doc: Json, parameters: Json[], real: Record<string, unknown[]> = {}, presets: QueryPart[][] = []): Gen<QueryPart[]> {
  const query = parameters.filter((p) => p.in === 'query');
  const valid: Gen<QueryPart[]> = fc
    .tuple(...query.map((p) => fc.option(validValue(doc, p.schema, real[p.name]), { freq: 2 })))
    .map((values) => values.flatMap((v, i) => (v === null ? [] : [{ name: query[i].name, value: asText(v) }])));
  return fc.oneof(
    { weight: 3, arbitrary: presets.length > 0 ? fc.oneof(valid, fc.constantFrom(...presets)) : valid },
    { weight: 2, arbitrary: fuzzedQuery(doc, query, real) },
  );
}

function fuzzedQuery(doc: Json, query: Json[], real: Record<string, unknown[]>): Gen<QueryPart[]> {
  const one = (p: Json): Gen<QueryPart[]> =>
    fc.oneof(
      { weight: 5, arbitrary: fc.constant<QueryPart[]>([]) },
      { weight: 5, arbitrary: validValue(doc, p.schema, real[p.name]).map((v) => [{ name: p.name, value: asText(v) }]) },
      { weight: 3, arbitrary: invalidValue(doc, p.schema).map((v) => [{ name: p.name, value: asText(v) }]) },
      {
        weight: 1,
        arbitrary: fc.tuple(validValue(doc, p.schema, real[p.name]), validValue(doc, p.schema, real[p.name])).map(([a, b]) => [
          { name: p.name, value: asText(a) },
          { name: p.name, value: asText(b) },
        ]),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('%ZZ', '%', '%C3%28', '%00', '%E2%80%AE', 'a+b', '%2B1', '1%20', '', '%5B%5D')
          .map((value) => [{ name: p.name, value, raw: true }]),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(`${p.name}[]`, `${p.name}[0]`, `${p.name}[a]`, p.name.toUpperCase(), ` ${p.name}`, `${p.name}.x`)
          .map((name) => [{ name, value: '1' }]),
      },
    );
  const unknown: Gen<QueryPart[]> = fc.oneof(
    { weight: 6, arbitrary: fc.constant<QueryPart[]>([]) },
    {
      weight: 1,
      arbitrary: fc
        .array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'foo', 'a[b]', '', 'sort', 'limit', 'offset'),
              fc.string({ maxLength: 10 }),
            ),
            nastyString,
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map((xs) => xs.map(([name, value]) => ({ name, value }))),
    },
    { weight: 1, arbitrary: fc.constantFrom('&&', '=', '==1', 'a', '%ZZ=%ZZ', '__proto__[x]=1', '&page').map((name) => [{ name, value: '', raw: true }]) },
  );
  return fc.tuple(fc.tuple(...query.map(one)), unknown, fc.boolean()).map(([parts, extra, shuffle]) => {
    const all = [...parts.flat(), ...extra];
    return shuffle ? all.reverse() : all;
  });
}

/**
 * One path segment as sent: mostly a real identifier of the test world (`real`), or a valid
 * value of the parameter's schema, or an odd one (encoded unicode, control characters, slashes,
 * dots, invalid percent-encoding, a very long value). Never empty: an empty segment names
 * another path.
 */
export function pathSegment(doc: Json, param: Json, real: Gen<string>): Gen<string> {
  // dots too, so that "." and ".." stay segments instead of being resolved by the client
  const seg = (s: string) => encode(s).replace(/\./g, '%2E');
  return fc
    .oneof(
      { weight: 8, arbitrary: real.map(seg) },
      { weight: 1, arbitrary: real.map((s) => seg(s.toUpperCase())) },
      { weight: 1, arbitrary: real.map((s) => seg(` ${s} `)) },
      { weight: 2, arbitrary: validValue(doc, param.schema).map((v) => seg(asText(v))) },
      { weight: 3, arbitrary: nastyString.map(seg) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '%ZZ',
          '%',
          '%C3%28',
          '%FF',
          '%E0%A4%A',
          '%00',
          '%2F',
          'a%2Fb',
          '%2E%2E',
          ';',
          'a;b=c',
          ':',
          '@',
          '!',
          '$',
          "'",
          '(',
          '*',
          '+',
          ',',
          '=',
          '~',
          '-',
          '_',
          'A%20B',
        ),
      },
      { weight: 1, arbitrary: fc.integer({ min: 150, max: 6000 }).map((n) => 'a'.repeat(n)) },
    )
    .filter((s) => s.length > 0);
}
