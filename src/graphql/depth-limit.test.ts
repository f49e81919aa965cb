import { buildSchema, parse, validate } from 'graphql';
import { depthLimit } from './depth-limit';

const schema = buildSchema(`type Node { id: ID! child: Node } type Query { root: Node }`);
const nested = (n: number) => `{ root ${'{ child '.repeat(n)}{ id }${' }'.repeat(n)} }`;

describe('depthLimit', () => {
  it('accepts a query at the limit and refuses one level deeper, before execution', () => {
    expect(validate(schema, parse(nested(3)), [depthLimit(5)])).toEqual([]);
    const errors = validate(schema, parse(nested(4)), [depthLimit(5)]);
    expect(errors.map((e) => e.extensions.code)).toEqual(['query_too_deep']);
  });

  it('follows fragments and inline fragments', () => {
    const q = `{ root { ...a } } fragment a on Node { child { ... on Node { child { child { child { id } } } } } }`;
    expect(validate(schema, parse(q), [depthLimit(5)]).map((e) => e.message)).toEqual(['the query is 6 levels deep; at most 5 are allowed']);
  });
});
