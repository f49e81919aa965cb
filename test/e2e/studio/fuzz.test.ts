import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * Bounded, seeded fuzzing of /graphql: operations generated from schema/studio.graphql (fields,
 * sub-selections, arguments with valid, odd and wrongly typed values, inline or as variables),
 * with and without a session. Whatever comes in, the answer is a 2xx/4xx JSON body whose errors
 * each carry a message and a code, never an internal error.
 */
const schema: GraphQLSchema = buildSchema(readFileSync(join(__dirname, '../../../schema/studio.graphql'), 'utf8'));
const known = { broadcast: '', key: '' };

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STUDIO_SESSION_PER_MINUTE: '1000000' } });
  await seedTvDemo(t.c);
  token = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
  const conn = t.c.orm.em.getConnection();
  known.broadcast = (await conn.execute(`select id from broadcast limit 1`))[0].id;
  known.key = (await conn.execute(`select id from channel_api_key limit 1`))[0].id;
});
afterAll(() => t?.close());

type Value = { literal: string; json: unknown };
const v = (literal: string, json: unknown): Value => ({ literal, json });
const str = (s: string) => v(JSON.stringify(s), s);

const strings = fc.oneof(
  fc.constantFrom(
    'demo-tv',
    'ringside-network',
    'garage-fights',
    'nope',
    '',
    ' ',
    'owner@demo.tv',
    'demo-owner-pass',
    'https://hooks.example/x',
    'http://127.0.0.1/x',
    'broadcast.live',
    'ping',
    '2030-01-01T10:00:00Z',
    'not-a-date',
    '0000-00-00',
    '0000-01-01T00:00:00Z',
    '0000-12-31T23:59:59+00:00',
    '-000001-01-01T00:00:00Z',
    '+010000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    'x'.repeat(5_000),
    '\u0000\u202e',
    "' or 1=1 --",
  ),
  fc.string({ maxLength: 40 }),
);
const ids = fc.oneof(fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000', ''), fc.uuid(), fc.constantFrom('known-broadcast', 'known-key'));
const ints = fc.oneof(fc.constantFrom(0, 1, -1, 20, 100, 101, 2_147_483_647, -2_147_483_648), fc.integer({ min: -1000, max: 1000 }));

/** A value of `type`, or (when `wrong`) of another kind: a wrong type is the server's to refuse cleanly. */
function valueOf(type: GraphQLInputType, depth = 0): fc.Arbitrary<Value> {
  const wrong = fc.oneof(
    ints.map((n) => v(String(n), n)),
    strings.map(str),
    fc.constant(v('null', null)),
    fc.constant(v('true', true)),
    fc.constant(v('[1, "a"]', [1, 'a'])),
  );
  const right = (): fc.Arbitrary<Value> => {
    if (isNonNullType(type)) return valueOf(type.ofType, depth);
    if (isListType(type))
      return fc.array(valueOf(type.ofType, depth + 1), { maxLength: 4 }).map((xs) =>
        v(
          `[${xs.map((x) => x.literal).join(', ')}]`,
          xs.map((x) => x.json),
        ),
      );
    if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((e) => e.name), 'bogus_value').map((name) => v(name, name));
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      return fc.tuple(...fields.map((f) => fc.option(valueOf(f.type, depth + 1), { freq: 4 }))).map((vals) => {
        const set = fields.map((f, i) => [f.name, vals[i]] as const).filter(([, x]) => x !== null) as [string, Value][];
        return v(`{ ${set.map(([k, x]) => `${k}: ${x.literal}`).join(', ')} }`, Object.fromEntries(set.map(([k, x]) => [k, x.json])));
      });
    }
    if (isScalarType(type)) {
      if (type.name === 'Int') return ints.map((n) => v(String(n), n));
      if (type.name === 'Boolean') return fc.boolean().map((b) => v(String(b), b));
      if (type.name === 'ID') return ids.map((s) => str(s === 'known-broadcast' ? known.broadcast : s === 'known-key' ? known.key : s));
      return strings.map(str);
    }
    return wrong;
  };
  return depth > 3 ? wrong : fc.oneof({ weight: 5, arbitrary: right() }, { weight: 1, arbitrary: wrong });
}

interface Op {
  text: string;
  variables: Record<string, unknown>;
}
interface Arg {
  name: string;
  type: string;
  value: Value;
  asVariable: boolean;
}
interface Node {
  name: string;
  args: Arg[];
  children: Node[] | null;
}
type Vars = { defs: string[]; values: Record<string, unknown> };

function argsOf(args: readonly GraphQLArgument[]): fc.Arbitrary<Arg[]> {
  if (args.length === 0) return fc.constant([]);
  return fc
    .tuple(...args.map((a) => fc.tuple(fc.option(valueOf(a.type), { freq: 8 }), fc.boolean())))
    .map((picked) =>
      picked.flatMap(([value, asVariable], i) => (value === null ? [] : [{ name: args[i].name, type: args[i].type.toString(), value, asVariable }])),
    );
}

function selectionOf(type: GraphQLObjectType, depth: number): fc.Arbitrary<Node[]> {
  const fields = Object.values(type.getFields());
  return fc.subarray(fields, { minLength: 1, maxLength: Math.min(4, fields.length) }).chain((chosen) => fc.tuple(...chosen.map((f) => fieldOf(f, depth))));
}

function fieldOf(f: GraphQLField<unknown, unknown>, depth: number): fc.Arbitrary<Node> {
  const named = getNamedType(f.type);
  const typename: Node[] = [{ name: '__typename', args: [], children: null }];
  const sub: fc.Arbitrary<Node[] | null> = isObjectType(named) ? (depth >= 4 ? fc.constant(typename) : selectionOf(named, depth + 1)) : fc.constant(null);
  return fc.tuple(argsOf(f.args), sub).map(([args, children]) => ({ name: f.name, args, children }));
}

function render(node: Node, vars: Vars): string {
  const args = node.args.map((a) => {
    if (!a.asVariable) return `${a.name}: ${a.value.literal}`;
    const name = `v${vars.defs.length}`;
    vars.defs.push(`$${name}: ${a.type}`);
    vars.values[name] = a.value.json;
    return `${a.name}: $${name}`;
  });
  const children = node.children ? ` { ${node.children.map((c) => render(c, vars)).join(' ')} }` : '';
  return `${node.name}${args.length ? `(${args.join(', ')})` : ''}${children}`;
}

function operation(excluded: ReadonlySet<string>): fc.Arbitrary<Op> {
  const roots = [schema.getQueryType()!, schema.getMutationType()!];
  return fc.constantFrom(...roots).chain((root) => {
    const kind = root === schema.getMutationType() ? 'mutation' : 'query';
    return fc
      .constantFrom(...Object.values(root.getFields()).filter((f) => !excluded.has(f.name)))
      .chain((f) => fieldOf(f, 1))
      .map((node) => {
        const vars: Vars = { defs: [], values: {} };
        const body = render(node, vars);
        return { text: `${kind}${vars.defs.length ? `(${vars.defs.join(', ')})` : ''} { ${body} }`, variables: vars.values };
      });
  });
}

async function check(op: Op, session?: string): Promise<void> {
  let req = request(t.app).post('/graphql').set('Content-Type', 'application/json');
  if (session) req = req.set('Authorization', `Bearer ${session}`);
  const res = await req.send({ query: op.text, variables: op.variables });
  const where = `${res.status} ${op.text} ${JSON.stringify(op.variables).slice(0, 300)} -> ${JSON.stringify(res.body).slice(0, 500)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  if (!/json/.test(String(res.headers['content-type']))) throw new Error(`not JSON: ${where}`);
  for (const e of res.body.errors ?? []) {
    if (typeof e.message !== 'string' || !e.message) throw new Error(`error without a message: ${where}`);
    const code = e.extensions?.code;
    if (typeof code !== 'string' || !code) throw new Error(`error without a code: ${where}`);
    if (code === 'INTERNAL_SERVER_ERROR' || code === 'internal') throw new Error(`internal error: ${where}`);
  }
}

describe('GraphQL fuzzing (seeded, bounded)', () => {
  it('answers 300 generated operations with a session without a 5xx or an internal error', async () => {
    // login and logout would end the fuzzing session (the live-session cap, sign-out); they run anonymously below.
    await fc.assert(
      fc.asyncProperty(operation(new Set(['login', 'logout'])), (op) => check(op, token)),
      { seed: 20_240_601, numRuns: 300, endOnFailure: true },
    );
  }, 120_000);

  it('refuses generated operations whose variables nest too deep (11 to 5,000 levels) with a 400 variables_too_deep, before any other work', async () => {
    // As text: a client's JSON.stringify (and the server's) overflows the stack near 5,000 levels, which is the attack.
    const nested = (depth: number, leaf: string, asArray: boolean): string =>
      asArray ? '['.repeat(depth) + leaf + ']'.repeat(depth) : '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
    await fc.assert(
      fc.asyncProperty(operation(new Set(['login', 'logout'])), fc.integer({ min: 11, max: 5_000 }), fc.boolean(), async (op, depth, asArray) => {
        const variables = JSON.stringify(op.variables).replace(
          /}$/,
          `${Object.keys(op.variables).length ? ',' : ''}"deep":${nested(depth - 1, '"x"', asArray)}}`,
        );
        const res = await request(t.app)
          .post('/graphql')
          .set('Content-Type', 'application/json')
          .set('Authorization', `Bearer ${token}`)
          .send(`{"query":${JSON.stringify(op.text)},"variables":${variables}}`);
        expect([res.status, res.body.errors?.[0]?.extensions?.code]).toEqual([400, 'variables_too_deep']);
      }),
      { seed: 16, numRuns: 40, endOnFailure: true },
    );
    // As JSON text on a GET too, and too many values at a shallow depth.
    const get = await request(t.app)
      .get('/graphql')
      .query({ query: '{ __typename }', variables: nested(500, '1', false) })
      .set('Authorization', `Bearer ${token}`)
      .set('apollo-require-preflight', '1');
    expect([get.status, get.body.errors?.[0]?.extensions?.code]).toEqual([400, 'variables_too_deep']);
    const wide = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${token}`)
      .send({ query: '{ __typename }', variables: { many: Array.from({ length: 10_001 }, (_, i) => i) } });
    expect([wide.status, wide.body.errors?.[0]?.extensions?.code]).toEqual([400, 'variables_too_large']);
    const fine = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${token}`)
      .send({ query: '{ __typename }', variables: { ok: JSON.parse(nested(9, '1', true)) } });
    expect(fine.status).toBe(200);
  }, 120_000);

  it('answers 25 generated operations without a session (under the anonymous rate limit)', async () => {
    await fc.assert(
      fc.asyncProperty(operation(new Set()), (op) => check(op)),
      { seed: 7, numRuns: 25, endOnFailure: true },
    );
  }, 60_000);
});
