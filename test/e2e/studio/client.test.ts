import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, fetchExchange, gql } from '@urql/core';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let server: Server;
let url: string;

beforeAll(async () => {
  t = await startTestApp();
  await seedTvDemo(t.c);
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await t?.close();
});

const client = (token?: string) =>
  new Client({
    url,
    exchanges: [fetchExchange],
    preferGetMethod: false,
    fetchOptions: (): RequestInit => ({ headers: token ? { authorization: `Bearer ${token}` } : ({} as Record<string, string>) }),
  });

describe('a real GraphQL client (urql) over HTTP', () => {
  it('signs in, reads the dashboard and gets domain codes on errors', async () => {
    const login = await client()
      .mutation(gql`mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token expiresAt } }`, {
        email: 'owner@demo.tv',
        password: 'demo-owner-pass',
      })
      .toPromise();
    expect(login.error).toBeUndefined();
    const token = login.data.login.token as string;
    const viewer = await client(token).query(gql`query { viewer { email channels { slug role liveSlots { used total } } } }`, {}).toPromise();
    expect(viewer.data.viewer.email).toBe('owner@demo.tv');
    expect(viewer.data.viewer.channels).toEqual(expect.arrayContaining([{ slug: 'demo-tv', role: 'OWNER', liveSlots: { used: 1, total: 3 } }]));
    const refused = await client(token).mutation(gql`mutation { goLive(id: "00000000-0000-0000-0000-000000000000") { state } }`, {}).toPromise();
    expect(refused.error?.graphQLErrors[0].extensions.code).toBe('not_found');
  });
});
