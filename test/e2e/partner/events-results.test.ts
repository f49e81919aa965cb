import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, TODAY, testClock, type World } from '../../helpers/world';

/**
 * /events, /events/{code}, /events/{code}/results and /results. Besides the test world, this file
 * creates "Today Open": sanctioned, international, in France, dated TODAY and live, so that the
 * `upcoming` boundary, the country and level filters and `is_live` have something to bite on.
 *
 *   sanctioned: Future Gala (TODAY+40, world, scheduled), Today Open (TODAY), Youth Cup (TODAY-20,
 *   no level), World Championships (TODAY-30, world), Old National (TODAY-400, national);
 *   not sanctioned: Backyard Show (TODAY-25, national) with a verified bout.
 */

const actor = { id: 'test' };
const URL_BASE = 'https://svc.test/api/v1/events/';

let t: TestApp;
let world: World;
let key: string;
let today: string;
let ev: Record<string, object>;

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  const s = t.c.services;
  key = (
    await s.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'events tests',
      rateLimitPerMinute: 100_000,
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    })
  ).token;
  today = (await s.events.create(actor, { name: 'Today Open', city: null, countrySlug: 'france', date: TODAY, level: 'international', status: 'live' })).code;
  await s.events.sanction(actor, today);
  const event = (code: string, name: string, city: string | null, country: string, date: string, level: string | null, multiplier: number, status: string) => ({
    code,
    name,
    city,
    country,
    date,
    level,
    multiplier,
    is_live: status === 'live',
    status,
    url: `${URL_BASE}${code}`,
  });
  ev = {
    future: event(world.events.future, 'Future Gala', 'Berlin', 'germany', '2026-07-25', 'world', 3, 'scheduled'),
    today: event(today, 'Today Open', null, 'france', TODAY, 'international', 1.5, 'live'),
    youth: event(world.events.minorBout, 'Youth Cup', 'Berlin', 'germany', '2026-05-26', null, 1, 'completed'),
    world: event(world.events.world, 'World Championships', 'Berlin', 'germany', '2026-05-16', 'world', 3, 'completed'),
    old: event(world.events.old, 'Old National', 'Berlin', 'germany', '2025-05-11', 'national', 1, 'completed'),
  };
});
afterAll(() => t?.close());

async function ok(path: string) {
  const res = await getPartner(t.app, path, key);
  expect([path, res.status]).toEqual([path, 200]);
  expect(res.body.as_of).toBe(TODAY);
  return res.body;
}
const codes = (body: { data: { code: string }[] }) => body.data.map((e) => e.code);

describe('/events', () => {
  it('lists only sanctioned events, date descending by default, with every field', async () => {
    const body = await ok('/events');
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 5, last_page: 1 });
    expect(body.data).toEqual([ev.future, ev.today, ev.youth, ev.world, ev.old]);
    expect(codes(body)).not.toContain(world.events.unsanctioned);
  });

  it('upcoming=1 gives events from today on, date ascending; upcoming=0 gives all', async () => {
    expect((await ok('/events?upcoming=1')).data).toEqual([ev.today, ev.future]);
    expect((await ok('/events?upcoming=1')).meta).toEqual({ page: 1, per_page: 25, total: 2, last_page: 1 });
    expect((await ok('/events?upcoming=0')).data).toEqual([ev.future, ev.today, ev.youth, ev.world, ev.old]);
  });

  it("filters by level and by the event's country", async () => {
    expect((await ok('/events?level=world')).data).toEqual([ev.future, ev.world]);
    // The unsanctioned Backyard Show is national too.
    expect((await ok('/events?level=national')).data).toEqual([ev.old]);
    expect((await ok('/events?level=international')).data).toEqual([ev.today]);
    expect((await ok('/events?level=worldcup')).data).toEqual([]);
    expect((await ok('/events?country=france')).data).toEqual([ev.today]);
    expect(codes(await ok('/events?country=germany'))).toEqual([world.events.future, world.events.minorBout, world.events.world, world.events.old]);
    expect((await ok('/events?country=japan')).data).toEqual([]);
    expect((await ok('/events?country=germany&level=world&upcoming=1')).data).toEqual([ev.future]);
  });

  it('pages with true meta', async () => {
    const p1 = await ok('/events?per_page=2');
    expect(p1.meta).toEqual({ page: 1, per_page: 2, total: 5, last_page: 3 });
    expect(p1.data).toEqual([ev.future, ev.today]);
    expect((await ok('/events?per_page=2&page=3')).data).toEqual([ev.old]);
    const past = await ok('/events?per_page=2&page=4');
    expect([past.meta, past.data]).toEqual([{ page: 4, per_page: 2, total: 5, last_page: 3 }, []]);
  });
});

describe('/events/{code}', () => {
  it('answers a sanctioned event', async () => {
    expect((await ok(`/events/${world.events.world}`)).data).toEqual(ev.world);
    expect((await ok(`/events/${today}`)).data).toEqual(ev.today);
    expect((await ok(`/events/${world.events.minorBout}`)).data).toEqual(ev.youth);
  });

  it('is a 404 not_found for an unknown or unsanctioned code', async () => {
    for (const code of ['EV-1999-9999', world.events.unsanctioned, 'nothing']) {
      for (const path of [`/events/${code}`, `/events/${code}/results`]) {
        const res = await getPartner(t.app, path, key);
        expect([path, res.status, res.body.error]).toEqual([path, 404, 'not_found']);
      }
    }
  });
});

type Result = {
  event: { code: string };
  fighter: { slug: string; name: string };
  opponent: string;
  result: string;
  method: string | null;
  round: number | null;
  points: object;
};
const row = (r: Result) => [r.event.code, r.fighter.slug, r.opponent, r.result, r.method, r.round, r.points];
const P = (base: number, multiplier: number, time_value: number, total: number) => ({ base, multiplier, time_value, total });

describe('/events/{code}/results', () => {
  it('gives one result per fighter of each verified bout, in bout order, not the unverified bout', async () => {
    const body = await ok(`/events/${world.events.world}/results`);
    expect(body.event).toEqual(ev.world);
    expect(body.count).toBe(4);
    expect(body.data.map(row)).toEqual([
      [world.events.world, world.slugs.bela, 'Chiaki Sato', 'W', 'UD', 3, P(10, 3, 1, 30)],
      [world.events.world, world.slugs.chiaki, 'Béla Dupont', 'L', 'UD', 3, P(2, 3, 1, 6)],
      [world.events.world, world.slugs.anna, 'Dora Schmidt', 'D', 'UD', 3, P(5, 3, 1, 15)],
      [world.events.world, world.slugs.dora, 'Anna Müller', 'D', 'UD', 3, P(5, 3, 1, 15)],
    ]);
    expect(body.data[0].event).toEqual(ev.world);
    expect(body.data[0].fighter).toMatchObject({ slug: world.slugs.bela, name: 'Béla Dupont', country: { slug: 'france' }, status: 'licensed' });
  });

  it("leaves out the minor's result of a bout", async () => {
    const body = await ok(`/events/${world.events.minorBout}/results`);
    expect(body.count).toBe(1);
    expect(body.data.map(row)).toEqual([[world.events.minorBout, expect.any(String), '(withheld)', 'W', 'UD', 3, P(10, 1, 1, 10)]]);
    expect(body.data[0].fighter.name).toBe('Olga Adult');
  });

  it('is empty for an event with no verified bout', async () => {
    const body = await ok(`/events/${world.events.future}/results`);
    expect([body.event, body.count, body.data]).toEqual([ev.future, 0, []]);
  });

  it('values old bouts at half', async () => {
    const body = await ok(`/events/${world.events.old}/results`);
    expect(body.data.map(row)).toEqual([
      [world.events.old, world.slugs.anna, 'Béla Dupont', 'W', 'KO', 1, P(12, 1, 0.5, 6)],
      [world.events.old, world.slugs.bela, 'Anna Müller', 'L', 'KO', 1, P(2, 1, 0.5, 1)],
    ]);
  });
});

describe('/results', () => {
  // Newest events first, then bout order; the Backyard Show (not sanctioned) and the unverified
  // bout never appear, nor the minor's side of the Youth Cup bout.
  const ALL = () => [
    [world.events.minorBout, expect.any(String), '(withheld)', 'W', 'UD', 3, P(10, 1, 1, 10)],
    [world.events.world, world.slugs.bela, 'Chiaki Sato', 'W', 'UD', 3, P(10, 3, 1, 30)],
    [world.events.world, world.slugs.chiaki, 'Béla Dupont', 'L', 'UD', 3, P(2, 3, 1, 6)],
    [world.events.world, world.slugs.anna, 'Dora Schmidt', 'D', 'UD', 3, P(5, 3, 1, 15)],
    [world.events.world, world.slugs.dora, 'Anna Müller', 'D', 'UD', 3, P(5, 3, 1, 15)],
    [world.events.old, world.slugs.anna, 'Béla Dupont', 'W', 'KO', 1, P(12, 1, 0.5, 6)],
    [world.events.old, world.slugs.bela, 'Anna Müller', 'L', 'KO', 1, P(2, 1, 0.5, 1)],
  ];

  it('lists verified results, newest events first then bout order', async () => {
    const body = await ok('/results');
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 7, last_page: 1 });
    expect(body.data.map(row)).toEqual(ALL());
    expect(body.data[0].fighter.name).toBe('Olga Adult');
    expect(body.data[0].event).toEqual(ev.youth);
    expect(body.data[6].event).toEqual(ev.old);
  });

  it("never shows a minor's result, nor a bout of an unsanctioned event", async () => {
    const body = await ok('/results?per_page=100');
    const fighters = body.data.map((r: Result) => r.fighter.slug);
    expect(fighters).not.toContain(world.slugs.minor);
    expect(body.data.map((r: Result) => r.event.code)).not.toContain(world.events.unsanctioned);
    expect(body.data.filter((r: Result) => r.opponent === 'Olga Adult')).toEqual([]);
  });

  it('since is an inclusive lower bound on the event date', async () => {
    expect((await ok('/results?since=2026-05-16')).data.map(row)).toEqual(ALL().slice(0, 5));
    expect((await ok('/results?since=2026-05-17')).data.map(row)).toEqual(ALL().slice(0, 1));
    expect((await ok('/results?since=2025-05-11')).meta.total).toBe(7);
    expect((await ok('/results?since=2025-05-12')).meta.total).toBe(5);
    expect((await ok(`/results?since=${TODAY}`)).data).toEqual([]);
  });

  it("country filters by the fighter's country, not the event's", async () => {
    expect((await ok('/results?country=germany')).data.map(row)).toEqual([ALL()[3], ALL()[4], ALL()[5]]);
    expect((await ok('/results?country=france')).data.map(row)).toEqual([ALL()[0], ALL()[1], ALL()[6]]);
    expect((await ok('/results?country=japan')).data.map(row)).toEqual([ALL()[2]]);
  });

  it("disc filters by the discipline of the fighter's division", async () => {
    expect((await ok('/results?disc=mma')).data.map(row)).toEqual([ALL()[0]]);
    expect((await ok('/results?disc=kickboxing')).meta.total).toBe(6);
    expect((await ok('/results?disc=boxing')).data).toEqual([]);
  });

  it('event filters by event code; an unknown or unsanctioned code gives an empty list', async () => {
    expect((await ok(`/results?event=${world.events.old}`)).data.map(row)).toEqual(ALL().slice(5));
    for (const code of ['EV-1999-9999', world.events.unsanctioned]) {
      const body = await ok(`/results?event=${code}`);
      expect([code, body.meta, body.data]).toEqual([code, { page: 1, per_page: 25, total: 0, last_page: 1 }, []]);
    }
    expect((await ok(`/results?event=${world.events.world}&country=germany&since=2026-01-01`)).data.map(row)).toEqual([ALL()[3], ALL()[4]]);
  });

  it('pages with true meta; a page past the end is empty', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const body = await ok(`/results?per_page=3&page=${page}`);
      expect(body.meta).toEqual({ page, per_page: 3, total: 7, last_page: 3 });
      pages.push(...body.data.map(row));
    }
    expect(pages).toEqual(ALL());
    const past = await ok('/results?per_page=3&page=4');
    expect([past.meta, past.data]).toEqual([{ page: 4, per_page: 3, total: 7, last_page: 3 }, []]);
  });
});
