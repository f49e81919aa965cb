import { startTestApp, type TestApp } from '../../helpers/test-app';
import { getPartner } from '../../helpers/partner-client';
import { buildWorld, KEYS, testClock, type World } from '../../helpers/world';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
});
afterAll(() => t?.close());

it('answers every endpoint with a body that matches the OpenAPI document', async () => {
  const paths = [
    '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg',
    '/divisions',
    '/fighters',
    `/fighters/${world.slugs.anna}`,
    `/fighters/${world.slugs.minor}`,
    '/events',
    `/events/${world.events.world}`,
    `/events/${world.events.world}/results`,
    '/results',
    `/verify/${world.numbers.activeFid}`,
    '/me',
  ];
  for (const path of paths) {
    const res = await getPartner(t.app, path, KEYS.full);
    expect([path, res.status]).toEqual([path, 200]);
  }
});
