import { buildSchema, getIntrospectionQuery, GraphQLError, parse, specifiedRules, validate } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatError } from './error-codes';
import { QUERY_LIMITS, queryLimits, tokenLimitError, tooManyTokens } from './query-limits';

const toy = buildSchema(`type Node { id: ID! name: String child: Node children(first: Int): [Node!]! } type Query { root: Node roots(first: Int): [Node!]! }`);
const studio = buildSchema(readFileSync(join(__dirname, '../../schema/studio.graphql'), 'utf8'));
const dev = queryLimits('development').validationRules;
const prod = queryLimits('production').validationRules;
const errorsOf = (q: string, rules = dev, schema = toy) => validate(schema, parse(q), rules);
const codes = (q: string, rules = dev, schema = toy) => errorsOf(q, rules, schema).map((e) => e.extensions.code);
const nested = (n: number) => `{ root ${'{ child '.repeat(n)}{ id }${' }'.repeat(n)} }`;

/** `fragment F0 on Viewer { ...F1 ...F1 }` and so on: 2^levels paths, levels+1 fragments. */
const fanOut = (levels: number) =>
  `{ viewer { ...F0 } } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Viewer { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F${levels} on Viewer { email }`;
const aliases = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: channel(slug: "demo-tv") { broadcasts(first: 1) { edges { node { health { signal } } } } }`).join(' ')} }`;

describe('query limits (graphql-armor rules with the project codes)', () => {
  it('accepts a query at the depth limit and refuses one level deeper, saying the limit', () => {
    // root + child x n + id = n + 2 fields on the longest path
    expect(codes(nested(QUERY_LIMITS.depth - 2))).toEqual([]);
    const errors = errorsOf(nested(QUERY_LIMITS.depth - 1));
    expect(errors.map((e) => [e.extensions.code, e.message])).toEqual([
      ['query_too_deep', `the query is ${QUERY_LIMITS.depth + 1} levels deep; at most ${QUERY_LIMITS.depth} are allowed`],
    ]);
  });

  it('follows fragments and inline fragments for depth', () => {
    const q = `{ root { ...a } } fragment a on Node { child { ... on Node { child { child { child { child { child { child { child { child { id } } } } } } } } } } }`;
    expect(codes(q)).toEqual(['query_too_deep']);
  });

  it('prices paged selections by their page size', () => {
    expect(codes('{ roots(first: 10) { id name } }')).toEqual([]);
    expect(codes('{ roots(first: 100) { children(first: 100) { id name } } }')).toEqual(['query_too_costly']);
    expect(codes('{ roots(first: 100) { ...f } } fragment f on Node { children(first: 100) { id } }')).toEqual(['query_too_costly']);
  });

  it('names the estimated cost as a whole number, also when the figure of graphql-armor has decimals', () => {
    // priced through a fragment (depth factor 1.5): armor reports a fractional figure such as "found 21898.5."
    const q = '{ roots(first: 100) { ...f } } fragment f on Node { children(first: 13) { id name } }';
    const [message] = errorsOf(q).map((e) => e.message);
    expect(message).toMatch(/^the query costs an estimated \d+; at most 20000 is allowed/);
  });

  it('bounds aliases and directives', () => {
    const alias = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: root { id }`).join(' ')} }`;
    expect(codes(alias(QUERY_LIMITS.aliases))).toEqual([]);
    expect(errorsOf(alias(QUERY_LIMITS.aliases + 1)).map((e) => e.message)).toEqual([
      `the query uses ${QUERY_LIMITS.aliases + 1} aliases; at most ${QUERY_LIMITS.aliases} are allowed`,
    ]);
    const directives = (n: number) => `{ root { ${Array.from({ length: n }, (_, i) => `id @include(if: ${i >= 0})`).join(' ')} } }`;
    expect(codes(directives(QUERY_LIMITS.directives))).toEqual([]);
    expect(codes(directives(QUERY_LIMITS.directives + 1))).toEqual(['too_many_directives']);
  });

  it('refuses the fragment fan-out at any size, whatever the number of paths (each fragment is priced once)', () => {
    for (const levels of [20, 60, 200]) {
      const found = codes(fanOut(levels), dev, studio);
      // Spreads on one object add no depth (viewer.email is 2 deep): the cost is what refuses it.
      expect(found).toEqual(['query_too_costly']);
      // graphql-js's own rules (overlapping fields, fragment cycles ...) accept it: the limits are what refuse it.
      expect(validate(studio, parse(fanOut(levels)), specifiedRules)).toEqual([]);
    }
  });

  it('stops a 3,200-alias document in the parser, at the token limit', () => {
    expect(() => parse(aliases(3_200), queryLimits('development').parseOptions)).toThrow(`${QUERY_LIMITS.tokens} tokens`);
    expect(tooManyTokens(aliases(3_200))).toBe(true);
    expect(tooManyTokens(aliases(QUERY_LIMITS.aliases + 1))).toBe(false);
    expect(codes(aliases(QUERY_LIMITS.aliases + 1), dev, studio)).toEqual(['too_many_aliases']);
  });

  it('lets the standard introspection query through outside production only', () => {
    const introspection = getIntrospectionQuery();
    expect(() => parse(introspection, queryLimits('development').parseOptions)).not.toThrow();
    expect(codes(introspection, dev, studio)).toEqual([]);
    expect(codes(introspection, prod, studio)).toContain('query_too_deep');
  });

  it('formats the refusals with the project codes and no internals', () => {
    const [depth] = errorsOf(nested(QUERY_LIMITS.depth));
    // Apollo wraps validation errors (code GRAPHQL_VALIDATION_FAILED) around the rule's own error.
    const wrapped = new GraphQLError(depth.message, { originalError: depth, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect(formatError({ message: depth.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, wrapped)).toEqual({
      message: depth.message,
      extensions: { code: 'query_too_deep' },
    });
    let syntax: GraphQLError | undefined;
    try {
      parse(aliases(100), queryLimits('development').parseOptions);
    } catch (e) {
      syntax = e as GraphQLError;
    }
    expect(tokenLimitError(syntax!.message)).toEqual({
      code: 'too_many_tokens',
      message: `the document has more than ${QUERY_LIMITS.tokens} tokens; at most ${QUERY_LIMITS.tokens} are allowed (send one smaller operation)`,
    });
    expect(
      formatError({ message: syntax!.message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }, new GraphQLError('x', { originalError: syntax })),
    ).toMatchObject({ extensions: { code: 'too_many_tokens' } });
  });
});
