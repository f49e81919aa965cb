import request from 'supertest';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
});
afterAll(() => t?.close());

it('serves the rankings of a division', async () => {
  const res = await request(t.app).get('/api/v1/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg').set('Authorization', `Bearer ${KEYS.full}`);
  console.log(JSON.stringify(res.body, null, 1).slice(0, 3000));
  expect(res.status).toBe(200);
});

it('serves everything', async () => {
  for (const path of ['/divisions', '/fighters', `/fighters/${world.slugs.anna}`, `/fighters/${world.slugs.minor}`, '/events', `/events/${world.events.world}/results`, '/results', `/verify/${world.numbers.activeFid}`, '/me']) {
    const res = await request(t.app).get(`/api/v1${path}`).set('X-API-Key', KEYS.full);
    console.log(path, res.status, JSON.stringify(res.body).slice(0, 600));
  }
});
