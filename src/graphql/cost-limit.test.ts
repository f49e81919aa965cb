import { buildSchema, parse, validate } from 'graphql';
import { costLimit } from './cost-limit';

const schema = buildSchema(`
  type Item { id: ID! tags: [String!]! children(first: Int): [Item!]! }
  type Query { items(first: Int): [Item!]! item: Item }
`);
const codes = (q: string, max: number) => validate(schema, parse(q), [costLimit(max)]).map((e) => e.extensions.code);

describe('costLimit', () => {
  it('prices paged selections by their page size', () => {
    // items (1) + 10 x (id 1 + tags 1) = 21
    expect(codes('{ items(first: 10) { id tags } }', 21)).toEqual([]);
    expect(codes('{ items(first: 10) { id tags } }', 20)).toEqual(['query_too_costly']);
  });

  it('multiplies nested pages and prices a variable page at the maximum', () => {
    // items 1 + 100 x (children 1 + 100 x id 1) = 10101
    expect(codes('query($n: Int) { items(first: $n) { children(first: 100) { id } } }', 10_000)).toEqual(['query_too_costly']);
    expect(codes('{ items(first: 5) { children(first: 5) { id } } }', 100)).toEqual([]);
  });

  it('follows fragments', () => {
    expect(codes('{ items(first: 50) { ...f } } fragment f on Item { id tags }', 100)).toEqual(['query_too_costly']);
  });
});
