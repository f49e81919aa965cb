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
    cards: await conn.execute(`select *, record::text as record, ranks::text as ranks from fighter_card order by fighter_id`),
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

  it('stores the day of majority as addYears decides it, Feb 29 birthdays included', async () => {
    const reg = (name: string, dob: string) => t.c.services.fighters.register({ id: 'test' }, {
      name, countrySlug: 'germany', divisionId: 'kickboxing-pro-f-60kg', dateOfBirth: dob, email: 'x@example.test', phone: '0', address: 'x',
    });
    const leap = await reg('Leap Day', '2008-02-29');
    const plain = await reg('Plain Day', '2008-06-15');
    const rows = await t.c.orm.em.getConnection().execute<{ fighter_id: string; adult_on: string }[]>(
      `select fighter_id, adult_on::text as adult_on from fighter_card where fighter_id in (?, ?)`, [leap.id, plain.id]);
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

  it('lists a minor, with results, from the 18th birthday on, with no write', async () => {
    const birthday = addYears(TODAY, 2);
    expect((await getPartner(t.app, '/fighters?q=mia', KEYS.full)).body.meta.total).toBe(0);
    expect((await getPartner(t.app, `/results?event=${w.events.minorBout}`, KEYS.full)).body.meta.total).toBe(1);
    await onDay(birthday, async (later) => {
      expect((await getPartner(later.app, '/fighters?q=mia', KEYS.full)).body.meta.total).toBe(1);
      expect((await getPartner(later.app, `/results?event=${w.events.minorBout}`, KEYS.full)).body.meta.total).toBe(2);
    });
  });
});
