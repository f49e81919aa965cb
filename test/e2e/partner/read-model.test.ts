import type { EntityManager } from '@mikro-orm/postgresql';
import { rebuildReadModel } from '../../../src/domain/catalog/read-model/read-model.refresh';
import { addYears, fixedClock } from '../../../src/domain/clock';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, TODAY, type World } from '../../helpers/world';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  w = await buildWorld(t.c);
});
afterAll(() => t?.close());

const snapshot = async () => {
  const conn = t.c.orm.em.getConnection();
  return {
    cards: await conn.execute(`select *, record::text as record from fighter_card order by fighter_id`),
    results: await conn.execute(`select * from result_row order by bout_id, fighter_id`),
  };
};

/** The same app on the same database, living on another day: dates are decided at read time. */
async function onDay(day: string, fn: (app: TestApp) => Promise<void>): Promise<void> {
  const other = await startTestApp({ clock: fixedClock(`${day}T12:00:00Z`), sharing: t });
  try {
    await fn(other);
  } finally {
    await other.close();
  }
}

describe('the read model', () => {
  it('maintained change by change equals a full rebuild', async () => {
    const incremental = await snapshot();
    expect(incremental.cards.length).toBeGreaterThan(5);
    expect(incremental.results.length).toBeGreaterThan(5);
    await t.c.orm.em.fork().transactional((em) => rebuildReadModel(em as EntityManager));
    expect(await snapshot()).toEqual(incremental);
  });

  it("holds, for each run, the standing the publication stored: world points and ranks by scope in the fighter's own division", async () => {
    // The definition the cards computed in SQL before the publication stored standings itself.
    const fromEntries = await t.c.orm.em.getConnection().execute(`
      select e.run_id, e.fighter_id, max(e.points) filter (where e.scope = 'world') as points,
             json_object_agg(e.scope, e.rank order by case when e.scope = 'world' then 0 when e.scope = c.continent_slug then 1 else 2 end, e.scope)::jsonb::text as ranks,
             array_agg(e.scope order by case when e.scope = 'world' then 0 when e.scope = c.continent_slug then 1 else 2 end, e.scope)::text as keys
        from ranking_entry e join fighter f on f.id = e.fighter_id and f.division_id = e.division_id join country c on c.slug = f.country_slug
       group by e.run_id, e.fighter_id order by e.run_id, e.fighter_id`);
    const stored = await t.c.orm.em.getConnection().execute(`
      select run_id, fighter_id, points, ranks::jsonb::text as ranks,
             (select array_agg(k order by n) from json_object_keys(ranks) with ordinality as o(k, n))::text as keys
        from fighter_standing order by run_id, fighter_id`);
    expect(fromEntries.length).toBeGreaterThan(3);
    expect(new Set(fromEntries.map((r) => r.run_id)).size).toBeGreaterThan(1);
    expect(stored).toEqual(fromEntries);
  });

  it("deletes a run's entries and standings with the run", async () => {
    const rollback = new Error('rollback');
    await expect(
      t.c.orm.em.fork().transactional(async (em) => {
        const conn = em.getConnection();
        const ctx = em.getTransactionContext();
        const count = async () =>
          (
            await conn.execute<{ entries: number; standings: number }[]>(
              `select (select count(*) from ranking_entry where run_id = r.id)::int as entries, (select count(*) from fighter_standing where run_id = r.id)::int as standings
           from ranking_run r order by as_of desc limit 1`,
              [],
              'all',
              ctx,
            )
          )[0];
        const before = await count();
        expect(before.entries).toBeGreaterThan(0);
        expect(before.standings).toBeGreaterThan(0);
        const [run] = await conn.execute<{ id: string }[]>(
          `delete from ranking_run where as_of = (select max(as_of) from ranking_run) returning id`,
          [],
          'all',
          ctx,
        );
        expect(
          await conn.execute(
            `select (select count(*) from ranking_entry where run_id = ?)::int as entries, (select count(*) from fighter_standing where run_id = ?)::int as standings`,
            [run.id, run.id],
            'all',
            ctx,
          ),
        ).toEqual([{ entries: 0, standings: 0 }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  it('stores the day of majority as addYears decides it, Feb 29 birthdays included', async () => {
    const reg = (name: string, dob: string) =>
      t.c.services.fighters.register(
        { id: 'test' },
        {
          name,
          countrySlug: 'germany',
          divisionId: 'kickboxing-pro-f-60kg',
          dateOfBirth: dob,
          email: 'x@example.test',
          phone: '0',
          address: 'x',
        },
      );
    const leap = await reg('Leap Day', '2008-02-29');
    const plain = await reg('Plain Day', '2008-06-15');
    const rows = await t.c.orm.em
      .getConnection()
      .execute<{ fighter_id: string; adult_on: string }[]>(`select fighter_id, adult_on::text as adult_on from fighter_card where fighter_id in (?, ?)`, [
        leap.id,
        plain.id,
      ]);
    const adultOn = new Map(rows.map((r) => [r.fighter_id, r.adult_on]));
    expect(adultOn.get(leap.id)).toBe('2026-03-01');
    expect(addYears('2026-02-28', -18) < '2008-02-29').toBe(true);
    expect(addYears('2026-03-01', -18) >= '2008-02-29').toBe(true);
    expect(adultOn.get(plain.id)).toBe('2026-06-15');
  });

  it('turns a licence EXPIRED the day after its validity, with no write', async () => {
    expect((await getPartner(t.app, `/verify/${w.numbers.activeLicence}`, KEYS.full)).body.status).toBe('ACTIVE');
    await onDay('2027-01-10', async (later) => {
      expect((await getPartner(later.app, `/verify/${w.numbers.activeLicence}`, KEYS.full)).body.status).toBe('EXPIRED');
      expect((await getPartner(later.app, `/fighters/${w.slugs.anna}`, KEYS.full)).body.data.licence_status).toBe('expired');
    });
  });

  it("keeps a fighter's latest bouts on the card: an event's new status shows in the profile, and the card equals a rebuild", async () => {
    const before = (await getPartner(t.app, `/fighters/${w.slugs.anna}`, KEYS.full)).body.data.bouts;
    const world = before.find((b: { event: { code: string } }) => b.event.code === w.events.world);
    expect(world.event).toMatchObject({ status: 'completed', is_live: false });
    await t.c.services.events.setStatus({ id: 'test' }, w.events.world, 'live');
    const after = (await getPartner(t.app, `/fighters/${w.slugs.anna}`, KEYS.full)).body.data.bouts;
    expect(after.map((b: { event: { code: string } }) => b.event.code)).toEqual(before.map((b: { event: { code: string } }) => b.event.code));
    expect(after.find((b: { event: { code: string } }) => b.event.code === w.events.world).event).toMatchObject({ status: 'live', is_live: true });
    const incremental = await snapshot();
    await t.c.orm.em.fork().transactional((em) => rebuildReadModel(em as EntityManager));
    expect(await snapshot()).toEqual(incremental);
    await t.c.services.events.setStatus({ id: 'test' }, w.events.world, 'completed');
  });

  it("keeps what the feed shows of a card on the fighter's result rows: a suspension and a renamed country show in /results, and the rows equal a rebuild", async () => {
    const actor = { id: 'test' };
    const annaIn = async () =>
      (await getPartner(t.app, '/results?country=germany&per_page=100', KEYS.full)).body.data
        .filter((r: { fighter: { slug: string } }) => r.fighter.slug === w.slugs.anna)
        .map((r: { fighter: { licence_status: string; country: { name: string } } }) => [r.fighter.licence_status, r.fighter.country.name]);
    const before = await annaIn();
    expect(before.length).toBeGreaterThan(0);
    expect(new Set(before.map(String))).toEqual(new Set(['active,Germany']));
    await t.c.services.fighters.suspendLicence(actor, w.slugs.anna);
    try {
      expect(new Set((await annaIn()).map(String))).toEqual(new Set(['suspended,Germany']));
      await t.c.services.reference.upsert(actor, {
        continents: [],
        countries: [{ slug: 'germany', name: 'Deutschland', code: 'DE', continent: 'europe' }],
        divisions: [],
      });
      expect(new Set((await annaIn()).map(String))).toEqual(new Set(['suspended,Deutschland']));
      const incremental = await snapshot();
      await t.c.orm.em.fork().transactional((em) => rebuildReadModel(em as EntityManager));
      expect(await snapshot()).toEqual(incremental);
    } finally {
      await t.c.services.fighters.reinstateLicence(actor, w.slugs.anna);
      await t.c.services.reference.upsert(actor, {
        continents: [],
        countries: [{ slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' }],
        divisions: [],
      });
    }
    expect(await annaIn()).toEqual(before);
  });

  it("withholds a minor opponent in a profile's stored bouts until the opponent's 18th birthday, with no write", async () => {
    const minorOpp = (await getPartner(t.app, '/fighters?q=olga', KEYS.full)).body.data[0].slug;
    const opponents = async (app: TestApp) =>
      (await getPartner(app.app, `/fighters/${minorOpp}`, KEYS.full)).body.data.bouts.map((b: { opponent: string }) => b.opponent);
    expect(await opponents(t)).toEqual(['(withheld)']);
    await onDay(addYears(TODAY, 2), async (later) => {
      expect(await opponents(later)).toEqual(['Mia Jung']);
    });
  });

  it('lists a minor, with results, from the 18th birthday on, with no write', async () => {
    const birthday = addYears(TODAY, 2);
    expect((await getPartner(t.app, '/fighters?q=mia', KEYS.full)).body.meta.total).toBe(0);
    expect((await getPartner(t.app, `/results?event=${w.events.minorBout}`, KEYS.full)).body.meta.total).toBe(1);
    await onDay(birthday, async (later) => {
      expect((await getPartner(later.app, '/fighters?q=mia', KEYS.full)).body.meta.total).toBe(1);
      expect((await getPartner(later.app, `/results?event=${w.events.minorBout}`, KEYS.full)).body.meta.total).toBe(2);
    });
  });

  it("carries each result row's day of majority in the feed's indexes, so a filter set's count and anchors can read them alone", async () => {
    const indexes = await t.c.orm.em
      .getConnection()
      .execute<{ indexname: string; indexdef: string }[]>(
        `select indexname, indexdef from pg_indexes where tablename = 'result_row' and indexname in ('result_row_feed_index', 'result_row_country_index', 'result_row_discipline_index', 'result_row_event_index') order by indexname`,
      );
    expect(indexes.map((i) => i.indexname)).toEqual([
      'result_row_country_index',
      'result_row_discipline_index',
      'result_row_event_index',
      'result_row_feed_index',
    ]);
    for (const i of indexes) expect(i.indexdef).toMatch(/ INCLUDE \(adult_on\)$/);
  });
});
