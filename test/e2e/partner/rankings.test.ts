import { addDays } from '../../../src/domain/clock';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, TODAY, testClock, type World } from '../../helpers/world';

/**
 * /rankings and /divisions against the test world. Every number below is worked out by hand from
 * the world's bouts (test/helpers/world.ts) and the docs/decisions.md#points rules, at as_of = TODAY (2026-06-15):
 *
 *   Old National (TODAY-400 = 2025-05-11, national x1, 12+ months old: time value 0.5)
 *     Anna beats Béla by KO: Anna 12 x 1 x 0.5 = 6, Béla 2 x 1 x 0.5 = 1
 *   World Championships (TODAY-30, world x3, time value 1)
 *     Béla beats Chiaki: Béla 30, Chiaki 6;  Anna draws Dora: 15 each
 *     Dora beats Chiaki, never verified: nothing
 *   Youth Cup (TODAY-20, no level x1): Olga beats the minor Mia: Olga 10, Mia unranked
 *   Backyard Show (TODAY-25, not sanctioned): Chiaki beats Anna: nothing
 *
 *   Kickboxing Pro Women 60 kg: Béla 31, Anna 21, Dora 15, Chiaki 6.
 *   The previous run (TODAY-35) saw only the Old National (time value 0.5, exactly 12 months):
 *   Anna 6 (1st), Béla 1 (2nd); the World Championships and the Youth Cup came after it.
 */

const actor = { id: 'test' };
const KB60 = 'disc=kickboxing&cat=pro&g=f&wc=60kg';
const RECORD = (r: Partial<Record<'W' | 'L' | 'D' | 'NC' | 'KO', number>>) => ({ W: 0, L: 0, D: 0, NC: 0, KO: 0, ...r });

let t: TestApp;
let world: World;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
  // Its own generous limit, so that the number of requests in this file never meets a 429.
  key = (
    await t.c.services.partners.issueKey(actor, {
      partnerSlug: 'acme-media',
      name: 'rankings tests',
      rateLimitPerMinute: 100_000,
      scopes: ['rankings.read', 'fighters.read', 'events.read', 'results.read'],
    })
  ).token;
});
afterAll(() => t?.close());

async function ranking(query: string) {
  const res = await getPartner(t.app, `/rankings?${query}`, key);
  expect([query, res.status]).toEqual([query, 200]);
  return res.body;
}

/** [rank, movement, points, slug] per row: the part of a table a partner reads first. */
const table = (body: { data: { rank: number; movement: number | null; points: number; fighter: { slug: string } }[] }) =>
  body.data.map((r) => [r.rank, r.movement, r.points, r.fighter.slug]);

describe('division parameters', () => {
  it('the four parameters name one division and answer its world table', async () => {
    const body = await ranking(KB60);
    expect(body.as_of).toBe(TODAY);
    expect(body.division).toEqual({ discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '60kg', label: 'Kickboxing, Pro, Women, 60 kg' });
    expect(body.scope).toBe('world');
    expect(body.count).toBe(4);
    expect(table(body)).toEqual([
      [1, 1, 31, world.slugs.bela],
      [2, -1, 21, world.slugs.anna],
      [3, null, 15, world.slugs.dora],
      [4, null, 6, world.slugs.chiaki],
    ]);
  });

  it('fewer parameters work when they still name exactly one division', async () => {
    const full = await ranking(KB60);
    // Only the 60 kg division has that weight class, whatever the other parameters.
    expect(await ranking('wc=60kg')).toEqual(full);
    expect(await ranking('g=f&wc=60kg')).toEqual(full);
    // MMA has one division in this world.
    const mma = await ranking('disc=mma');
    expect(mma.division).toMatchObject({ discipline: 'mma', category: 'am', gender: 'f', weight_class: '57kg' });
    expect(await ranking('cat=am')).toEqual(mma);
    // 63-5kg names Emil's division: a real division with nobody ranked yet.
    const emil = await ranking('wc=63-5kg');
    expect(emil.division).toEqual({ discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '63-5kg', label: 'Kickboxing, Pro, Women, 63.5 kg' });
    expect([emil.count, emil.data]).toEqual([0, []]);
  });

  it('parameters that name several divisions are a 422 saying what is missing', async () => {
    const res = await getPartner(t.app, '/rankings?disc=kickboxing', key);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('invalid_division');
    expect(res.body.message).toMatch(/\bwc\b/);

    const none = await getPartner(t.app, '/rankings', key);
    expect(none.status).toBe(422);
    expect(none.body.error).toBe('invalid_division');
    // disc, cat and wc tell the three divisions apart; g does not (all are women's divisions).
    expect(none.body.message).toMatch(/\bdisc\b/);
    expect(none.body.message).toMatch(/\bwc\b/);
  });

  it('parameters that name no division are a 422 invalid_division', async () => {
    for (const query of ['disc=boxing', 'g=m', 'disc=mma&wc=60kg', 'wc=99kg']) {
      const res = await getPartner(t.app, `/rankings?${query}`, key);
      expect([query, res.status, res.body.error]).toEqual([query, 422, 'invalid_division']);
    }
  });
});

describe('scopes', () => {
  it('scope defaults to world', async () => {
    const implicit = await ranking(KB60);
    const explicit = await ranking(`${KB60}&scope=world`);
    expect(explicit).toEqual(implicit);
    expect(implicit.scope).toBe('world');
  });

  it('a continent re-ranks within the continent, with movement from the previous run in that scope', async () => {
    const europe = await ranking(`${KB60}&scope=europe`);
    expect(europe.scope).toBe('europe');
    expect(europe.count).toBe(3);
    expect(table(europe)).toEqual([
      [1, 1, 31, world.slugs.bela],
      [2, -1, 21, world.slugs.anna],
      [3, null, 15, world.slugs.dora],
    ]);
    // Chiaki is 4th in the world and 1st in Asia.
    const asia = await ranking(`${KB60}&scope=asia`);
    expect(table(asia)).toEqual([[1, null, 6, world.slugs.chiaki]]);
  });

  it('a country re-ranks within the country: Anna, 2nd in the world, is 1st in Germany', async () => {
    const germany = await ranking(`${KB60}&scope=germany`);
    expect(germany.scope).toBe('germany');
    // Anna was 1st in Germany in the previous run too: movement 0, not the world's -1.
    expect(table(germany)).toEqual([
      [1, 0, 21, world.slugs.anna],
      [2, null, 15, world.slugs.dora],
    ]);
    expect(table(await ranking(`${KB60}&scope=france`))).toEqual([[1, 0, 31, world.slugs.bela]]);
    // Paula (applicant) is Japanese too and not ranked.
    expect(table(await ranking(`${KB60}&scope=japan`))).toEqual([[1, null, 6, world.slugs.chiaki]]);
  });

  it('a scope with nobody ranked is a 200 with count 0', async () => {
    for (const query of [`${KB60}&scope=oceania`, `${KB60}&scope=africa`, 'disc=mma&scope=asia', 'disc=mma&scope=germany', 'wc=63-5kg&scope=germany']) {
      const body = await ranking(query);
      expect([query, body.count, body.data]).toEqual([query, 0, []]);
    }
  });

  it('an unknown scope is a 422 invalid_scope', async () => {
    const res = await getPartner(t.app, `/rankings?${KB60}&scope=atlantis`, key);
    expect([res.status, res.body.error]).toEqual([422, 'invalid_scope']);
  });
});

describe('rows', () => {
  it('carry the exact points, the record of counted bouts and the fighter summary', async () => {
    const body = await ranking(KB60);
    const bySlug = Object.fromEntries(body.data.map((r: { fighter: { slug: string } }) => [r.fighter.slug, r]));
    // Anna's loss at the unsanctioned Backyard Show is not in her record.
    expect(bySlug[world.slugs.anna].record).toEqual(RECORD({ W: 1, D: 1, KO: 1 }));
    expect(bySlug[world.slugs.bela].record).toEqual(RECORD({ W: 1, L: 1 }));
    // Dora's unverified win over Chiaki counts for neither.
    expect(bySlug[world.slugs.dora].record).toEqual(RECORD({ D: 1 }));
    expect(bySlug[world.slugs.chiaki].record).toEqual(RECORD({ L: 1 }));
    expect(bySlug[world.slugs.anna].fighter).toEqual({
      slug: world.slugs.anna,
      name: 'Anna Müller',
      nickname: 'The Hammer',
      country: { slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' },
      division: { discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '60kg', label: 'Kickboxing, Pro, Women, 60 kg' },
      status: 'licensed',
      ranking_published: true,
      licence_status: 'active',
      fighter_code: world.numbers.activeFid,
    });
  });

  it('minors are never ranked: the MMA table holds only the adult who beat the minor', async () => {
    const body = await ranking('disc=mma&cat=am&g=f&wc=57kg');
    expect(table(body)).toEqual([[1, null, 10, expect.any(String)]]);
    expect(body.data[0].fighter.name).toBe('Olga Adult');
    expect(body.data[0].record).toEqual(RECORD({ W: 1 }));
    expect(JSON.stringify(body)).not.toContain('Mia Jung');
  });

  it('no table in any scope lists the minor, the applicant or the suspended fighter', async () => {
    const excluded = [world.slugs.minor, world.slugs.applicant, world.slugs.suspended, world.slugs.emil];
    for (const division of [KB60, 'wc=63-5kg', 'disc=mma']) {
      for (const scope of ['world', 'europe', 'asia', 'germany', 'france', 'japan']) {
        const body = await ranking(`${division}&scope=${scope}`);
        const slugs = body.data.map((r: { fighter: { slug: string } }) => r.fighter.slug);
        expect(slugs.filter((s: string) => excluded.includes(s))).toEqual([]);
      }
    }
  });
});

describe('/divisions', () => {
  it('lists the divisions with ranked fighters, ordered, with their world leader', async () => {
    const res = await getPartner(t.app, '/divisions', key);
    expect(res.status).toBe(200);
    expect(res.body.as_of).toBe(TODAY);
    expect(res.body.count).toBe(2);
    // 63.5 kg has no ranked fighter and is left out; kickboxing before mma.
    expect(
      res.body.data.map((d: { label: string; ranked: number; query: object; leader: { points: number; fighter: { slug: string } } }) => [
        d.label,
        d.ranked,
        d.query,
        d.leader.points,
        d.leader.fighter.slug,
      ]),
    ).toEqual([
      ['Kickboxing, Pro, Women, 60 kg', 4, { disc: 'kickboxing', cat: 'pro', g: 'f', wc: '60kg' }, 31, world.slugs.bela],
      ['MMA, Am, Women, 57 kg', 1, { disc: 'mma', cat: 'am', g: 'f', wc: '57kg' }, 10, expect.any(String)],
    ]);
    expect(res.body.data[0]).toMatchObject({ discipline: 'kickboxing', category: 'pro', gender: 'f', weight_class: '60kg' });
  });

  it('each query can be followed to /rankings, whose rank-1 row is the leader', async () => {
    const res = await getPartner(t.app, '/divisions', key);
    for (const d of res.body.data) {
      const body = await ranking(new URLSearchParams(d.query).toString());
      expect(body.division).toEqual({ discipline: d.discipline, category: d.category, gender: d.gender, weight_class: d.weight_class, label: d.label });
      expect(body.count).toBe(d.ranked);
      expect(body.data[0].rank).toBe(1);
      expect(body.data[0].fighter).toEqual(d.leader.fighter);
      expect(body.data[0].points).toBe(d.leader.points);
    }
  });
});

describe('a later run', () => {
  // Runs last: it publishes a new run, which every read serves from then on.
  const NEXT = addDays(TODAY, 1);

  beforeAll(async () => {
    const s = t.c.services;
    const reg = async (name: string, country: string, extra: object = {}) => {
      const f = await s.fighters.register(actor, {
        name,
        countrySlug: country,
        divisionId: 'kickboxing-pro-f-63-5kg',
        dateOfBirth: '1990-01-01',
        email: 'x@example.invalid',
        phone: '0',
        address: 'x',
        ...extra,
      });
      await s.fighters.issueLicence(actor, f.slug, { issuedOn: '2026-01-01', validUntil: '2027-01-01' });
      return f.slug;
    };
    // Registered after Emil, so a tie listed by creation order would put Emil first.
    const ava = await reg('Ava Kern', 'france');
    const zoe = await reg('Zoe Ray', 'japan');
    const lia = await reg('Lia Berg', 'germany', { rankingPublished: false });
    const bout = async (event: string, winner: string, loser: string, draw = false) => {
      const b = await s.results.record(actor, { eventCode: event, winnerSlug: winner, loserSlug: loser, draw, method: 'UD', round: 3 });
      await s.results.verify(actor, b.id);
    };
    // 63.5 kg: Emil and Ava draw at the World Championships (15 each, a tie); Zoe beats Lia at
    // the Youth Cup (Zoe 10; Lia 2 but her ranking is not published).
    await bout(world.events.world, world.slugs.emil, ava, true);
    await bout(world.events.minorBout, zoe, lia);
    // The suspended fighter beats the applicant at the World Championships: 30 and 6 points
    // that must rank neither.
    await bout(world.events.world, world.slugs.suspended, world.slugs.applicant);
    await s.rankings.publish(actor, NEXT);
  });

  it('serves the latest run: as_of moves, and movement compares with the run before it', async () => {
    const body = await ranking(KB60);
    expect(body.as_of).toBe(NEXT);
    // Same points and ranks as at TODAY (no bout changed age class in a day): movement 0 for all,
    // Dora and Chiaki included, who were new entries one run ago.
    expect(table(body)).toEqual([
      [1, 0, 31, world.slugs.bela],
      [2, 0, 21, world.slugs.anna],
      [3, 0, 15, world.slugs.dora],
      [4, 0, 6, world.slugs.chiaki],
    ]);
  });

  it('ties share a rank and are listed by name; unpublished rankings stay out', async () => {
    const body = await ranking('wc=63-5kg');
    expect(
      body.data.map((r: { rank: number; movement: number | null; points: number; fighter: { name: string } }) => [
        r.rank,
        r.movement,
        r.points,
        r.fighter.name,
      ]),
    ).toEqual([
      [1, null, 15, 'Ava Kern'],
      [1, null, 15, 'Emil Weber'],
      [3, null, 10, 'Zoe Ray'],
    ]);
    expect(body.data[0].record).toEqual(RECORD({ D: 1 }));
    expect(table(await ranking('wc=63-5kg&scope=europe')).map((r) => r.slice(0, 3))).toEqual([
      [1, null, 15],
      [1, null, 15],
    ]);
    expect(table(await ranking('wc=63-5kg&scope=germany'))).toEqual([[1, null, 15, world.slugs.emil]]);
  });

  it('suspended fighters and applicants are not ranked, whatever their points', async () => {
    const body = await ranking(KB60);
    const slugs = body.data.map((r: { fighter: { slug: string } }) => r.fighter.slug);
    expect(slugs).not.toContain(world.slugs.suspended);
    expect(slugs).not.toContain(world.slugs.applicant);
    expect(body.count).toBe(4);
  });

  it('/divisions now lists the 63.5 kg division, led by the first of the tied fighters by name', async () => {
    const res = await getPartner(t.app, '/divisions', key);
    expect(res.body.as_of).toBe(NEXT);
    expect(
      res.body.data.map((d: { weight_class: string; ranked: number; leader: { points: number; fighter: { name: string } } }) => [
        d.weight_class,
        d.ranked,
        d.leader.points,
        d.leader.fighter.name,
      ]),
    ).toEqual([
      ['60kg', 4, 31, 'Béla Dupont'],
      ['63-5kg', 3, 15, 'Ava Kern'],
      ['57kg', 1, 10, 'Olga Adult'],
    ]);
  });
});
