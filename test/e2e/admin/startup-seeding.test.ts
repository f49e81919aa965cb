import request from 'supertest';
import { createHttpHandler } from '../../../src/app';
import { demoSeedStatus, markDemoSeedCompleted, markDemoSeedStarted, wipePartialDemo } from '../../../src/demo/demo.marker';
import { sql } from '../../../src/domain/unit-of-work';
import { StartupState } from '../../../src/startup/startup-state';
import { startTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('while the demo data is being seeded (the server listens first)', () => {
  const state = new StartupState(true);
  let app: ReturnType<typeof createHttpHandler>;
  beforeAll(() => {
    app = createHttpHandler(t.c, { startup: state });
    state.progress({ phase: 'events', done: 120, total: 400 });
  });

  it('/healthz answers 200 and says how far the seed is', async () => {
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', seeding: { phase: 'events', done: 120, total: 400 } });
  });

  it('/readyz answers 503 not_ready naming the seed', async () => {
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'not_ready', message: 'seeding the demo data: events 120/400' });
    expect(res.headers['retry-after']).toBe('5');
  });

  it.each([
    ['partner API', '/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg'],
    ['partner API, slow path', '/api/v1/fighters?q=mu'],
    ['TV API', '/api/tv/live'],
    ['studio GraphQL', '/graphql'],
  ])('the %s answers 503 not_ready with Retry-After, serving no half data', async (_name, path) => {
    const res = await request(app).get(path).set('authorization', 'Bearer pk_demo_full');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.error).toBe('not_ready');
    expect(res.body.message).toContain('seeding the demo data: events 120/400');
  });

  it('once the seed is done: /healthz without seeding, /readyz 200, the APIs served', async () => {
    state.markReady();
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(app).get('/readyz')).status).toBe(200);
    expect((await request(app).get('/api/v1/rankings')).status).toBe(401);
  });
});

describe('the demo seed marker', () => {
  it('an empty database is seeded; one with data and no marker is left alone', async () => {
    const em = t.c.orm.em.fork();
    expect(await demoSeedStatus(em)).toBe('empty');
    await t.c.services.partners.create({ id: 'test' }, { slug: 'someone', name: 'Someone' });
    expect(await demoSeedStatus(em)).toBe('foreign');
  });

  it("a seed killed part-way is recognised ('started') and wiped before the next one", async () => {
    const em = t.c.orm.em.fork();
    await markDemoSeedStarted(em);
    expect(await demoSeedStatus(em)).toBe('started');
    await em.transactional((tx) => wipePartialDemo(tx));
    const left = await sql<{ n: number }[]>(em, `select (select count(*) from partner)::int + (select count(*) from audit_entry)::int as n`);
    expect(left[0].n).toBe(0);
    expect(await demoSeedStatus(em)).toBe('started');
    await markDemoSeedCompleted(em);
    expect(await demoSeedStatus(em)).toBe('completed');
  });
});
