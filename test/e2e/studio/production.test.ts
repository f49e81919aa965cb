import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let prod: TestApp;
let dev: TestApp;
beforeAll(async () => {
  prod = await startTestApp({ env: { NODE_ENV: 'production' } });
  dev = await startTestApp();
});
afterAll(async () => {
  await prod?.close();
  await dev?.close();
});

const INTROSPECTION = '{ __schema { queryType { name } } }';

describe('GraphQL introspection (docs/decisions.md#studio-limits)', () => {
  it('is off in production and on elsewhere', async () => {
    const off = await request(prod.app).post('/graphql').set('Content-Type', 'application/json').send({ query: INTROSPECTION });
    expect(off.body.errors?.[0]?.message).toMatch(/introspection/i);
    expect(off.body.data).toBeUndefined();
    const on = await request(dev.app).post('/graphql').set('Content-Type', 'application/json').send({ query: INTROSPECTION });
    expect(on.body.data.__schema.queryType.name).toBe('Query');
  });

  it('never returns a stack trace', async () => {
    const res = await request(prod.app).post('/graphql').set('Content-Type', 'application/json').send({ query: '{ nope }' });
    expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|at .*\.ts:\d+/i);
  });
});
