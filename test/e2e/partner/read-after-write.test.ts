import { LocalChangeFeed } from '../../../src/db/change-feed';
import { addDays } from '../../../src/domain/clock';
import { admin, adminJson } from '../../helpers/cli';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, TODAY, type World } from '../../helpers/world';

/**
 * Every write of the operator's workflow is visible in the next read: on the writing instance,
 * whose bodies are cached (a minute) until its own change bumps the catalog version; on a second
 * instance on the same database that caches nothing (the read model is written in the change's
 * transaction); and on a second caching instance once it hears the change, which needs a feed
 * that LISTENs (with the in-process feed alone it never hears another instance's writes).
 */
let a: TestApp;
let plain: TestApp;
let cached: TestApp;
let w: World;
// Caching instances as a single instance runs them: bodies kept, and the rate limiter in memory, so
// repeated reads are answered at once from kept answers (test/e2e/partner/kept-answers.test.ts).
const CACHED = { AUTH_CACHE_TTL_MS: '60000', REDIS_URL: undefined };
const hearsOtherInstances = () => !(cached.c.changes instanceof LocalChangeFeed);

beforeAll(async () => {
  a = await startTestApp({ clock: testClock, env: CACHED });
  w = await buildWorld(a.c);
  plain = await startTestApp({ clock: testClock, sharing: a });
  cached = await startTestApp({ clock: testClock, sharing: a, env: CACHED });
});
afterAll(async () => {
  await cached?.close();
  await plain?.close();
  await a?.close();
});

const get = async (t: TestApp, path: string) => (await getPartner(t.app, path, KEYS.full)).body;

/** Reads `path` everywhere before the write (filling caches), then expects `check` to hold after it everywhere. */
async function visibleEverywhere(path: string, write: () => Promise<unknown>, check: (body: any) => void): Promise<void> {
  const seen = cached.c.changes.version('catalog');
  for (const t of [a, plain, cached]) await get(t, path);
  await write();
  check(await get(a, path));
  check(await get(plain, path));
  if (hearsOtherInstances()) {
    // Its answer must hold once it has heard the change. A write may notify more than once (a
    // late notification of an earlier write can move the version too), so the first move of the
    // version is not proof that this write's notification arrived: wait for the answer itself.
    for (let i = 0; i < 100 && cached.c.changes.version('catalog') === seen; i++) await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; ; i++) {
      const body = await get(cached, path);
      try {
        check(body);
        break;
      } catch (err) {
        if (i >= 100) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}

describe('read after write', () => {
  it("results:verify shows the result in the feed and in the winner's profile", async () => {
    const recorded = await adminJson(a.c, 'results:record', '--event', w.events.world, '--winner', w.slugs.chiaki, '--loser', w.slugs.dora, '--method', 'TKO');
    let before = 0;
    await visibleEverywhere(
      `/fighters/${w.slugs.chiaki}`,
      async () => {
        before = (await get(plain, `/results?event=${w.events.world}`)).meta.total;
        await adminJson(a.c, 'results:verify', recorded.result.id);
      },
      (body) => {
        expect(body.data.record).toMatchObject({ W: 1, KO: 1 });
        expect(body.data.bouts.some((b: any) => b.opponent === 'Dora Schmidt' && b.method === 'TKO')).toBe(true);
      },
    );
    const feed = await get(a, `/results?event=${w.events.world}`);
    expect(feed.meta.total).toBe(before + 2);
  });

  it('rankings:publish moves as_of, points and ranks', async () => {
    const next = addDays(TODAY, 1);
    await visibleEverywhere(
      `/fighters/${w.slugs.chiaki}`,
      () => adminJson(a.c, 'rankings:publish', '--as-of', next),
      (body) => {
        expect(body.as_of).toBe(next);
        expect(body.data.ranks).toEqual(expect.objectContaining({ world: expect.any(Number) }));
        expect(body.data.points).toBeGreaterThan(6);
      },
    );
    const rankings = await get(a, '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg');
    expect(rankings.as_of).toBe(next);
  });

  it('licences:suspend answers SUSPENDED for the licence and shows it in the profile', async () => {
    await visibleEverywhere(
      `/verify/${w.numbers.activeLicence}`,
      () => adminJson(a.c, 'licences:suspend', w.slugs.anna),
      (body) => {
        expect(body.status).toBe('SUSPENDED');
        expect(body.valid).toBe(false);
      },
    );
    expect((await get(plain, `/fighters/${w.slugs.anna}`)).data).toMatchObject({ status: 'suspended', licence_status: 'suspended' });
  });

  it('licences:reinstate shows in the fighter summaries of a cached /rankings body', async () => {
    const path = '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg';
    const annaIn = (body: any) => body.data.find((r: any) => r.fighter.slug === w.slugs.anna)?.fighter;
    expect(annaIn(await get(a, path))).toMatchObject({ licence_status: 'suspended' });
    await visibleEverywhere(
      path,
      () => adminJson(a.c, 'licences:reinstate', w.slugs.anna),
      (body) => {
        expect(annaIn(body)).toMatchObject({ status: 'licensed', licence_status: 'active' });
      },
    );
  });

  it('events:sanction brings the event and its verified results into the feed', async () => {
    const code = w.events.unsanctioned;
    await visibleEverywhere(
      `/results?event=${code}`,
      () => adminJson(a.c, 'events:sanction', code),
      (body) => {
        expect(body.meta.total).toBe(2);
        expect(body.data.map((r: any) => r.fighter.slug).sort()).toEqual([w.slugs.anna, w.slugs.chiaki].sort());
      },
    );
    expect((await get(plain, `/events/${code}`)).data.code).toBe(code);
  });

  it('fighters:register lists the new fighter in a search', async () => {
    await visibleEverywhere(
      '/fighters?q=zoltan',
      async () => {
        const out = await admin(
          a.c,
          'fighters:register',
          '--name',
          'Zoltán Kiss',
          '--country',
          'france',
          '--division',
          'kickboxing-pro-f-60kg',
          '--dob',
          '1990-04-04',
          '--email',
          'z@example.test',
          '--phone',
          '+00',
          '--address',
          'x',
        );
        expect(out.code).toBe(0);
      },
      (body) => {
        expect(body.meta.total).toBe(1);
        expect(body.data[0]).toMatchObject({ name: 'Zoltán Kiss', licence_status: 'none', status: 'applicant', points: null, ranks: null });
      },
    );
  });
});
