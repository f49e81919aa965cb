import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock } from '../../helpers/world';

/**
 * Slug-valued filters accept only values that exist: a `country` that names no known country is a
 * 422 invalid_country on /fighters, /events and /results (as an unknown scope is on /rankings),
 * never a 200 with an empty list that looks like "no data".
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  await buildWorld(t.c);
});
afterAll(() => t?.close());

const get = (path: string) => getPartner(t.app, path, KEYS.full);

describe('country filters', () => {
  it.each(['/fighters', '/events', '/results'])('%s: an unknown country is 422 invalid_country naming the parameter', async (path) => {
    for (const country of ['narnia', 'europe', 'world', 'germanyy']) {
      const res = await get(`${path}?country=${country}`);
      expect([country, res.status, res.body.error]).toEqual([country, 422, 'invalid_country']);
      expect(res.body.message).toContain('"country"');
      expect(res.body.message).toContain(country);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    // malformed values were refused before and still are
    for (const country of ['GERMANY', 'ger%20many', '-x']) {
      const res = await get(`${path}?country=${country}`);
      expect([country, res.status, res.body.error]).toEqual([country, 422, 'invalid_country']);
    }
  });

  it.each(['/fighters', '/events', '/results'])('%s: a known country is a 200, even with nothing to list', async (path) => {
    for (const country of ['germany', 'france', 'japan']) {
      expect([country, (await get(`${path}?country=${country}`)).status]).toEqual([country, 200]);
    }
  });

  it('a country added later is accepted', async () => {
    expect((await get('/fighters?country=kenya')).status).toBe(422);
    await t.c.services.reference.upsert(
      { id: 'test' },
      {
        continents: [{ slug: 'africa', name: 'Africa' }],
        countries: [{ slug: 'kenya', name: 'Kenya', code: 'KE', continent: 'africa' }],
        divisions: [],
      },
    );
    const res = await get('/fighters?country=kenya');
    expect([res.status, res.body.data]).toEqual([200, []]);
  });

  it('the other filters with a known set of values refuse unknown ones too', async () => {
    expect((await get('/fighters?disc=karate')).body.error).toBe('invalid_disc');
    expect((await get('/results?disc=karate')).body.error).toBe('invalid_disc');
    expect((await get('/fighters?status=retired')).body.error).toBe('invalid_status');
    expect((await get('/events?level=regional')).body.error).toBe('invalid_level');
    expect((await get('/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg&scope=narnia')).body.error).toBe('invalid_scope');
  });

  it('order of checks: a missing key is 401 before the country is looked at', async () => {
    const res = await getPartner(t.app, '/fighters?country=narnia', null);
    expect([res.status, res.body.error]).toEqual([401, 'unauthenticated']);
  });
});
