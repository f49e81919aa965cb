import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedTvDemo } from '../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * A typed client as an integrator makes one (docs/studio-graphql.md, "Typed clients"): GraphQL
 * Code Generator on schema/studio.graphql with the operations the docs show, extracted from the
 * page, so the docs' examples are what is checked. The client preset (defaults) and the
 * typescript-operations plugin (alone, and beside the typescript plugin's schema types) must
 * generate code that tsc compiles; a small program built on the client preset's typed documents
 * then runs against a real server.
 */

const root = join(__dirname, '../..');
const doc = readFileSync(join(root, 'docs/studio-graphql.md'), 'utf8');

/** Every operation on the docs page: the graphql blocks, and the queries the curl lines send. */
function operationsOfTheDocs(): string[] {
  const blocks = (lang: string) => [...doc.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]);
  const curlQueries = blocks('sh').flatMap((b) => [...b.matchAll(/-d '(\{.*?\})'/g)].map((m) => (JSON.parse(m[1]) as { query: string }).query));
  return [...blocks('graphql'), ...curlQueries];
}

const PROGRAM = `
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  SignInDocument, DashboardDocument, ScheduleBroadcastDocument, BroadcastsPageDocument, CreateEndpointDocument, DeliveryLogDocument, SignOutDocument,
  type BroadcastState, type Plan,
} from './gql/graphql';

async function call<R, V>(url: string, document: TypedDocumentNode<R, V>, variables: V, token?: string): Promise<R> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = 'Bearer ' + token;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query: print(document), variables }) });
  const body = (await res.json()) as { data?: R; errors?: { extensions: { code: string } }[] };
  if (body.errors) throw new Error(body.errors.map((e) => e.extensions.code).join(', '));
  return body.data as R;
}

export async function tour(url: string, receiver: string) {
  const { login } = await call(url, SignInDocument, { email: 'owner@demo.tv', password: 'demo-owner-pass' });
  const token = login.token;
  const dashboard = await call(url, DashboardDocument, { slug: 'demo-tv' }, token);
  const plan: Plan = dashboard.channel.plan;
  const made = await call(url, ScheduleBroadcastDocument, {
    channel: 'demo-tv', input: { title: 'Typed Night', source: 'INGEST', scheduledAt: '2031-06-15T20:00:00+02:00', discipline: 'MUAY_THAI' },
  }, token);
  const state: BroadcastState = made.createBroadcast.state;
  const tail = await call(url, BroadcastsPageDocument, { slug: 'demo-tv', last: 2 }, token);
  const endpoint = await call(url, CreateEndpointDocument, { channel: 'demo-tv', url: receiver, events: ['BROADCAST_LIVE', 'PING'] }, token);
  const log = await call(url, DeliveryLogDocument, { slug: 'demo-tv' }, token);
  await call(url, SignOutDocument, {}, token);
  return {
    plan, state, discipline: made.createBroadcast.discipline, streamKey: made.createBroadcast.ingest?.streamKey ?? null,
    tail: { edges: tail.channel.broadcasts.edges.length, ...tail.channel.broadcasts.pageInfo },
    events: endpoint.createWebhookEndpoint.endpoint.events,
    listed: log.channel.webhookEndpoints.some((e) => e.id === endpoint.createWebhookEndpoint.endpoint.id),
  };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'commonjs',
    moduleResolution: 'node10',
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
    rootDir: '.',
  },
  include: ['gql/**/*.ts', 'ops-only.ts', 'schema-types.ts', 'operations.ts', 'program.ts'],
};

/** The codegen configuration (codegen's defaults; the three set-ups the docs name). */
const CODEGEN = {
  schema: join(root, 'schema/studio.graphql'),
  documents: ['ops/*.graphql'],
  generates: {
    'gql/': { preset: 'client' },
    'ops-only.ts': { plugins: ['typescript-operations'] },
    'schema-types.ts': { plugins: ['typescript'] },
    'operations.ts': { plugins: ['typescript-operations'], config: { importSchemaTypesFrom: 'schema-types.ts' } },
  },
};

let dir: string;
let t: TestApp;
let server: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-codegen-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'ops'));
  operationsOfTheDocs().forEach((op, i) => {
    writeFileSync(join(dir, 'ops', `docs-${i}.graphql`), op);
  });
  writeFileSync(join(dir, 'codegen.json'), JSON.stringify(CODEGEN));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(dir, 'program.ts'), PROGRAM);
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_PRIVATE: '1' } });
  await seedTvDemo(t.c);
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });

describe("a typed client generated from the studio schema and the docs' operations", () => {
  it('finds the operations the docs show', () => {
    const names = operationsOfTheDocs().flatMap((op) => [...op.matchAll(/^\s*(?:query|mutation) (\w+)/gm)].map((m) => m[1]));
    expect(names).toEqual(
      expect.arrayContaining(['SignIn', 'Dashboard', 'CreateCiKey', 'ScheduleBroadcast', 'BroadcastsPage', 'CreateEndpoint', 'DeliveryLog', 'SignOut']),
    );
  });

  it('generates with the client preset and typescript-operations, and tsc compiles the code and a program using it', () => {
    const gen = run([join(root, 'node_modules/@graphql-codegen/cli/cjs/bin.js'), '--config', 'codegen.json']);
    expect({ status: gen.status, out: gen.status === 0 ? '' : `${gen.stdout}${gen.stderr}` }).toEqual({ status: 0, out: '' });
    const tsc = run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
    expect({ status: tsc.status, out: tsc.stdout.trim() }).toEqual({ status: 0, out: '' });
  }, 120_000);

  it("the program runs the docs' operations against the server: enums in UPPER_CASE both ways, Relay paging", async () => {
    const { tour } = require(join(dir, 'out/program.js')) as { tour: (url: string, receiver: string) => Promise<Record<string, unknown>> };
    const { port } = server.address() as AddressInfo;
    const result = await tour(`http://127.0.0.1:${port}/graphql`, 'http://127.0.0.1:9/hooks');
    expect(result).toEqual({
      plan: 'PRO',
      state: 'SCHEDULED',
      discipline: 'MUAY_THAI',
      streamKey: expect.stringMatching(/^sk_/),
      tail: { edges: 2, hasNextPage: false, hasPreviousPage: true, startCursor: expect.any(String), endCursor: expect.any(String) },
      events: ['BROADCAST_LIVE', 'PING'],
      listed: true,
    });
  });
});
