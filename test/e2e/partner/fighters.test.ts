import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, TODAY, testClock, type World } from '../../helpers/world';

/**
 * /fighters and /fighters/{slug}. Besides the test world, this file registers a namesake of Anna
 * Müller (without nickname, so ordering by name must fall back to the slug), "Élodie Blanc" and
 * "Łucja Zając" (sorted as "elodie" and "lucja", not after every plain name), "Rita 100%" nicknamed
 * "The_Best" (LIKE wildcards in names must match literally) and gives Sara (suspended) 22 verified
 * wins over Paula (applicant), so that a profile has more than 20 bouts. None of these ranks.
 */

const actor = { id: 'test' };
const RECORD = (r: Partial<Record<'W' | 'L' | 'D' | 'NC' | 'KO', number>>) => ({ W: 0, L: 0, D: 0, NC: 0, KO: 0, ...r });
const GERMANY = { slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' };
const KB60 = { discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '60kg', label: 'Kickboxing, Pro, Women, 60 kg' };
const MMA = { discipline: 'mma', category: 'am', gender: 'f', weight_class: '57kg', label: 'MMA, Am, Women, 57 kg' };

let t: TestApp;
let world: World;
let key: string;
let namesake: string;
let rita: string;
let elodie: string;
let lucja: string;
let olga: string;
/** Every adult, in the order the list must give them: by name, then slug. */
let ALL: string[];

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  const s = t.c.services;
  key = (
    await s.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'fighters tests',
      rateLimitPerMinute: 100_000,
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    })
  ).token;
  const contact = { email: 'x@example.invalid', phone: '0', address: 'x' };
  namesake = (
    await s.fighters.register(actor, {
      name: 'Anna Müller',
      countrySlug: 'germany',
      divisionId: 'kickboxing-pro-f-60kg',
      dateOfBirth: '1998-04-04',
      ...contact,
    })
  ).slug;
  elodie = (
    await s.fighters.register(actor, {
      name: 'Élodie Blanc',
      countrySlug: 'france',
      divisionId: 'kickboxing-pro-f-60kg',
      dateOfBirth: '1996-06-06',
      ...contact,
    })
  ).slug;
  lucja = (
    await s.fighters.register(actor, {
      name: 'Łucja Zając',
      countrySlug: 'germany',
      divisionId: 'kickboxing-pro-f-60kg',
      dateOfBirth: '1995-05-05',
      ...contact,
    })
  ).slug;
  rita = (
    await s.fighters.register(actor, {
      name: 'Rita 100%',
      nickname: 'The_Best',
      countrySlug: 'japan',
      divisionId: 'mma-am-f-57kg',
      dateOfBirth: '1997-07-07',
      ...contact,
    })
  ).slug;
  // 22 bouts, newest events last-recorded: 8 at the Old National, 7 at the World
  // Championships, 7 at the Youth Cup.
  const plan: [string, number][] = [
    [world.events.old, 8],
    [world.events.world, 7],
    [world.events.minorBout, 7],
  ];
  for (const [event, n] of plan) {
    for (let i = 0; i < n; i++) {
      const b = await s.results.record(actor, {
        eventCode: event,
        winnerSlug: world.slugs.suspended,
        loserSlug: world.slugs.applicant,
        method: i === 0 ? 'TKO' : 'UD',
        round: 2,
      });
      await s.results.verify(actor, b.id);
    }
  }
  [{ slug: olga }] = await t.c.orm.em.getConnection().execute(`select slug from fighter where name = 'Olga Adult'`);
  ALL = [
    world.slugs.anna,
    namesake,
    world.slugs.bela,
    world.slugs.chiaki,
    world.slugs.dora,
    elodie,
    world.slugs.emil,
    lucja,
    olga,
    world.slugs.applicant,
    rita,
    world.slugs.suspended,
  ];
});
afterAll(() => t?.close());

async function list(query: string) {
  const res = await getPartner(t.app, `/fighters?${query}`, key);
  expect([query, res.status]).toEqual([query, 200]);
  return res.body;
}
const slugs = (body: { data: { slug: string }[] }) => body.data.map((f) => f.slug);

describe('/fighters', () => {
  it('lists every adult by name then slug, 25 a page by default, never the minor', async () => {
    expect(namesake).toBe(`${world.slugs.anna}-2`);
    expect([elodie, lucja]).toEqual(['elodie-blanc', 'lucja-zajac']);
    const body = await list('');
    expect(body.as_of).toBe(TODAY);
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 12, last_page: 1 });
    // The two Anna Müllers share a name: the slug decides, whatever their nicknames.
    expect(slugs(body)).toEqual(ALL);
    expect(slugs(body)).not.toContain(world.slugs.minor);
    expect(JSON.stringify(body)).not.toContain('Mia Jung');
  });

  it('pages with true meta, and a page past the end is a 200 with empty data', async () => {
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const body = await list(`per_page=3&page=${page}`);
      expect(body.meta).toEqual({ page, per_page: 3, total: 12, last_page: 4 });
      pages.push(...slugs(body));
    }
    expect(pages).toEqual(ALL);
    const past = await list('per_page=3&page=5');
    expect(past.meta).toEqual({ page: 5, per_page: 3, total: 12, last_page: 4 });
    expect(past.data).toEqual([]);
    expect((await list('page=2')).data).toEqual([]);
  });

  it('q searches name and nickname, case- and accent-insensitively', async () => {
    expect(slugs(await list('q=muller'))).toEqual([world.slugs.anna, namesake]);
    expect(slugs(await list(`q=${encodeURIComponent('MÜLLER')}`))).toEqual([world.slugs.anna, namesake]);
    expect(slugs(await list('q=HAMMER'))).toEqual([world.slugs.anna]);
    expect(slugs(await list('q=the%20hammer'))).toEqual([world.slugs.anna]);
    expect(slugs(await list('q=bela'))).toEqual([world.slugs.bela]);
    expect(slugs(await list(`q=${encodeURIComponent('BÉLA')}`))).toEqual([world.slugs.bela]);
    expect(slugs(await list('q=schmi'))).toEqual([world.slugs.dora]);
    expect(slugs(await list(`q=${encodeURIComponent('ÉLODIE')}`))).toEqual([elodie]);
    expect(slugs(await list('q=lodie%20b'))).toEqual([elodie]);
    expect(slugs(await list(`q=${encodeURIComponent('łucja')}`))).toEqual([lucja]);
    expect(slugs(await list('q=ZAJAC'))).toEqual([lucja]);
    expect(slugs(await list('q=nobody-here'))).toEqual([]);
    // The minor is found by no search.
    expect(slugs(await list('q=mia%20jung'))).toEqual([]);
  });

  it('q matches % and _ literally', async () => {
    expect(slugs(await list('q=100%25'))).toEqual([rita]);
    expect(slugs(await list('q=0%25'))).toEqual([rita]);
    expect(slugs(await list('q=e_b'))).toEqual([rita]);
    // As wildcards these would match every fighter, or every name with a letter between.
    expect(slugs(await list('q=%25%25'))).toEqual([]);
    expect(slugs(await list('q=__'))).toEqual([]);
    expect(slugs(await list('q=a_n'))).toEqual([]);
    expect(slugs(await list('q=a%25r'))).toEqual([]);
  });

  it('filters by country, discipline and status, alone and together', async () => {
    expect(slugs(await list('country=germany'))).toEqual([world.slugs.anna, namesake, world.slugs.dora, world.slugs.emil, lucja]);
    expect(slugs(await list('country=france'))).toEqual([world.slugs.bela, elodie, olga, world.slugs.suspended]);
    expect(slugs(await list('country=japan'))).toEqual([world.slugs.chiaki, world.slugs.applicant, rita]);
    expect(slugs(await list('disc=mma'))).toEqual([olga, rita]);
    expect(slugs(await list('disc=kickboxing')).length).toBe(10);
    expect(slugs(await list('disc=boxing'))).toEqual([]);
    expect(slugs(await list('status=licensed'))).toEqual([world.slugs.anna, world.slugs.bela, world.slugs.chiaki, world.slugs.dora, world.slugs.emil, olga]);
    expect(slugs(await list('status=suspended'))).toEqual([world.slugs.suspended]);
    expect(slugs(await list('status=applicant'))).toEqual([namesake, elodie, lucja, world.slugs.applicant, rita]);
    expect(slugs(await list('country=germany&status=licensed'))).toEqual([world.slugs.anna, world.slugs.dora, world.slugs.emil]);
    expect(slugs(await list('country=germany&disc=mma'))).toEqual([]);
    const body = await list('country=france&per_page=2');
    expect(body.meta).toEqual({ page: 1, per_page: 2, total: 4, last_page: 2 });
  });

  it('each item carries its points, record and ranks', async () => {
    const body = await list('per_page=100');
    const by = Object.fromEntries(body.data.map((f: { slug: string }) => [f.slug, f]));
    expect(by[world.slugs.anna]).toEqual({
      slug: world.slugs.anna,
      name: 'Anna Müller',
      nickname: 'The Hammer',
      country: GERMANY,
      division: KB60,
      status: 'licensed',
      ranking_published: true,
      licence_status: 'active',
      fighter_code: world.numbers.activeFid,
      points: 21,
      // The loss at the unsanctioned Backyard Show does not count.
      record: RECORD({ W: 1, D: 1, KO: 1 }),
      ranks: { world: 2, europe: 2, germany: 1 },
    });
    const pick = (slug: string) => [by[slug].points, by[slug].record, by[slug].ranks];
    expect(pick(world.slugs.bela)).toEqual([31, RECORD({ W: 1, L: 1 }), { world: 1, europe: 1, france: 1 }]);
    // Neither the unverified win over Chiaki nor Chiaki's unsanctioned win is counted.
    expect(pick(world.slugs.chiaki)).toEqual([6, RECORD({ L: 1 }), { world: 4, asia: 1, japan: 1 }]);
    expect(pick(world.slugs.dora)).toEqual([15, RECORD({ D: 1 }), { world: 3, europe: 3, germany: 2 }]);
    expect(pick(olga)).toEqual([10, RECORD({ W: 1 }), { world: 1, europe: 1, france: 1 }]);
    expect(pick(world.slugs.emil)).toEqual([null, RECORD({}), null]);
    // Sara's 22 wins are verified but she is suspended: a record, no points, no ranks.
    expect(pick(world.slugs.suspended)).toEqual([null, RECORD({ W: 22, KO: 3 }), null]);
    expect(pick(world.slugs.applicant)).toEqual([null, RECORD({ L: 22 }), null]);
    expect(by[world.slugs.applicant]).toMatchObject({ status: 'applicant', licence_status: 'pending', fighter_code: null });
    expect(by[world.slugs.suspended]).toMatchObject({ status: 'suspended', licence_status: 'suspended' });
    expect(by[namesake]).toMatchObject({ nickname: null, status: 'applicant', licence_status: 'none', fighter_code: null });
  });
});

describe('/fighters/{slug}', () => {
  async function profile(slug: string) {
    const res = await getPartner(t.app, `/fighters/${slug}`, key);
    expect([slug, res.status]).toEqual([slug, 200]);
    expect(res.body.as_of).toBe(TODAY);
    return res.body.data;
  }

  it('gives the full profile with record, ranks, points and verified bouts newest first', async () => {
    const anna = await profile(world.slugs.anna);
    expect(anna).toMatchObject({
      slug: world.slugs.anna,
      name: 'Anna Müller',
      nickname: 'The Hammer',
      country: GERMANY,
      division: KB60,
      status: 'licensed',
      ranking_published: true,
      licence_status: 'active',
      fighter_code: world.numbers.activeFid,
      points: 21,
      record: RECORD({ W: 1, D: 1, KO: 1 }),
      ranks: { world: 2, europe: 2, germany: 1 },
    });
    const worldEvent = {
      code: world.events.world,
      name: 'World Championships',
      city: 'Berlin',
      country: 'germany',
      date: '2026-05-16',
      level: 'world',
      multiplier: 3,
      is_live: false,
      status: 'completed',
      url: `https://svc.test/api/v1/events/${world.events.world}`,
    };
    const oldEvent = {
      code: world.events.old,
      name: 'Old National',
      city: 'Berlin',
      country: 'germany',
      date: '2025-05-11',
      level: 'national',
      multiplier: 1,
      is_live: false,
      status: 'completed',
      url: `https://svc.test/api/v1/events/${world.events.old}`,
    };
    // No bout of the unsanctioned Backyard Show; no `fighter` inside a profile's bouts.
    expect(anna.bouts).toEqual([
      { event: worldEvent, opponent: 'Dora Schmidt', result: 'D', method: 'UD', round: 3, points: { base: 5, multiplier: 3, time_value: 1, total: 15 } },
      { event: oldEvent, opponent: 'Béla Dupont', result: 'W', method: 'KO', round: 1, points: { base: 12, multiplier: 1, time_value: 0.5, total: 6 } },
    ]);
  });

  it('shows each side of a bout from its own fighter, and no unverified or unsanctioned bout', async () => {
    const row = (b: { event: { code: string }; opponent: string; result: string; points: object }) => [b.event.code, b.opponent, b.result, b.points];
    expect((await profile(world.slugs.bela)).bouts.map(row)).toEqual([
      [world.events.world, 'Chiaki Sato', 'W', { base: 10, multiplier: 3, time_value: 1, total: 30 }],
      [world.events.old, 'Anna Müller', 'L', { base: 2, multiplier: 1, time_value: 0.5, total: 1 }],
    ]);
    expect((await profile(world.slugs.chiaki)).bouts.map(row)).toEqual([
      [world.events.world, 'Béla Dupont', 'L', { base: 2, multiplier: 3, time_value: 1, total: 6 }],
    ]);
    expect((await profile(world.slugs.dora)).bouts.map(row)).toEqual([
      [world.events.world, 'Anna Müller', 'D', { base: 5, multiplier: 3, time_value: 1, total: 15 }],
    ]);
    const emil = await profile(world.slugs.emil);
    expect([emil.bouts, emil.points, emil.ranks, emil.record]).toEqual([[], null, null, RECORD({})]);
  });

  it('keeps only the last 20 bouts, newest event first, while the record counts them all', async () => {
    const sara = await profile(world.slugs.suspended);
    expect(sara.record).toEqual(RECORD({ W: 22, KO: 3 }));
    expect(sara.bouts).toHaveLength(20);
    const codes = sara.bouts.map((b: { event: { code: string } }) => b.event.code);
    // The 2 dropped are from the oldest event.
    expect(codes).toEqual([...Array(7).fill(world.events.minorBout), ...Array(7).fill(world.events.world), ...Array(6).fill(world.events.old)]);
    const dates = sara.bouts.map((b: { event: { date: string } }) => b.event.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(sara.bouts[0]).toEqual({
      event: expect.objectContaining({ code: world.events.minorBout, level: null, multiplier: 1 }),
      opponent: 'Paula Neu',
      result: 'W',
      method: 'TKO',
      round: 2,
      points: { base: 12, multiplier: 1, time_value: 1, total: 12 },
    });
    expect(sara.bouts[7].points).toEqual({ base: 12, multiplier: 3, time_value: 1, total: 36 });
    expect(sara.bouts[8].points).toEqual({ base: 10, multiplier: 3, time_value: 1, total: 30 });
    expect(sara.bouts[19].points).toEqual({ base: 10, multiplier: 1, time_value: 0.5, total: 5 });
    for (const b of sara.bouts) expect(Object.keys(b).sort()).toEqual(['event', 'method', 'opponent', 'points', 'result', 'round']);
  });

  it("a minor's profile has exactly name, country and division", async () => {
    const mia = await profile(world.slugs.minor);
    expect(mia).toEqual({ name: 'Mia Jung', country: GERMANY, division: MMA });
  });

  it("the adult opponent shows the bout against the minor with the minor withheld; the minor's own result appears nowhere", async () => {
    const o = await profile(olga);
    expect(o.bouts).toEqual([
      {
        event: expect.objectContaining({ code: world.events.minorBout, name: 'Youth Cup', level: null, multiplier: 1 }),
        opponent: '(withheld)',
        result: 'W',
        method: 'UD',
        round: 3,
        points: { base: 10, multiplier: 1, time_value: 1, total: 10 },
      },
    ]);
    const everything = JSON.stringify([(await list('per_page=100')).data, ...(await Promise.all(ALL.map((slug) => profile(slug))))]);
    // Olga's bout never names Mia (docs/decisions.md#minors); nothing is ever shown from Mia's side.
    expect(everything).not.toContain('Mia Jung');
    expect(everything).not.toContain('"opponent":"Olga Adult"');
    expect(everything).not.toContain(world.slugs.minor);
  });

  it('an unknown slug is a 404 not_found', async () => {
    for (const slug of ['no-such-fighter', 'anna-muller-3', 'ANNA-MULLER']) {
      const res = await getPartner(t.app, `/fighters/${slug}`, key);
      expect([slug, res.status, res.body.error]).toEqual([slug, 404, 'not_found']);
    }
  });

  it('works with the documented full-scope key too', async () => {
    const res = await getPartner(t.app, `/fighters/${world.slugs.anna}`, KEYS.full);
    expect(res.status).toBe(200);
    expect(res.body.data.slug).toBe(world.slugs.anna);
  });
});
