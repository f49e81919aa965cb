import type { EntityManager } from '@mikro-orm/postgresql';
import { WITHHOLD_MINOR_OPPONENTS_SQL } from '../../../src/db/migrations/Migration20261126000000_withhold_minor_opponents';
import { seedDemoIfEmpty } from '../../../src/demo/demo.seed';
import { WITHHELD_OPPONENT } from '../../../src/domain/catalog/withheld-opponent';
import { WebhookPayloads } from '../../../src/webhooks/webhook-payloads';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { actor, expandAll, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * A crawl of the demo data (docs/decisions.md#minors): an adult's bout against a minor is served
 * with `opponent` withheld, the same in /results, event results, profile bouts and result.verified
 * payloads; no answer and no stored payload names a minor; the points stay what the bout earned.
 */

type Result = {
  event: { code: string };
  fighter?: { slug: string };
  opponent: string;
  result: string;
  method: string | null;
  points: { base: number; multiplier: number; time_value: number; total: number };
};

let t: TestApp;
const KEY = 'pk_demo_bench';
/** Minors' names that no adult shares (an adult of the same name is rightly named). */
let minorNames: string[] = [];
let minorBouts: { id: string; event_code: string; adult_slug: string | null }[] = [];
const texts: { path: string; text: string }[] = [];
const results: Result[] = [];
const eventResults: Result[] = [];
const profiles = new Map<string, { points: number | null; bouts: Result[] }>();

async function all<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await getPartner(t.app, `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`, KEY);
    expect(res.status).toBe(200);
    texts.push({ path, text: res.text });
    out.push(...(res.body.data as T[]));
    if (page >= res.body.meta.last_page) return out;
  }
}

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedDemoIfEmpty(t.c);
  const conn = t.c.orm.em.getConnection();
  const today = t.c.clock.today();
  minorNames = (
    await conn.execute<{ name: string }[]>(
      `select distinct f.name from fighter f join fighter_identity fi on fi.fighter_id = f.id
      where fi.date_of_birth > (?::date - interval '18 years')
        and not exists (select 1 from fighter a join fighter_identity ai on ai.fighter_id = a.id
                         where a.name = f.name and ai.date_of_birth <= (?::date - interval '18 years'))`,
      [today, today],
    )
  ).map((r) => r.name);
  minorBouts = await conn.execute(
    `select b.id, e.code as event_code,
            (select a.slug from fighter a join fighter_identity ai on ai.fighter_id = a.id
              where a.id in (b.fighter_a_id, b.fighter_b_id) and ai.date_of_birth <= (?::date - interval '18 years') limit 1) as adult_slug
       from bout b join event e on e.id = b.event_id and e.sanctioned_at is not null
      where b.verified_at is not null and exists (
        select 1 from fighter_identity mi where mi.fighter_id in (b.fighter_a_id, b.fighter_b_id) and mi.date_of_birth > (?::date - interval '18 years'))`,
    [today, today],
  );

  results.push(...(await all<Result>('/results')));
  const events = await all<{ code: string }>('/events');
  for (const e of events) {
    const res = await getPartner(t.app, `/events/${e.code}/results`, KEY);
    expect(res.status).toBe(200);
    texts.push({ path: `/events/${e.code}/results`, text: res.text });
    eventResults.push(...res.body.data);
  }
  // Every adult who fought a minor, and as many other adults again.
  const adults = [...new Set(minorBouts.map((b) => b.adult_slug).filter((s): s is string => !!s))];
  const others = (await all<{ slug: string }>('/fighters'))
    .map((f) => f.slug)
    .filter((s) => !adults.includes(s))
    .slice(0, adults.length);
  for (const slug of [...adults, ...others]) {
    const res = await getPartner(t.app, `/fighters/${slug}`, KEY);
    expect(res.status).toBe(200);
    texts.push({ path: `/fighters/${slug}`, text: res.text });
    profiles.set(slug, { points: res.body.data.points, bouts: res.body.data.bouts });
  }
}, 300_000);
afterAll(() => t?.close());

it("the demo has adults' bouts against minors, served with the opponent withheld", () => {
  expect(minorNames.length).toBeGreaterThan(10);
  expect(minorBouts.filter((b) => b.adult_slug).length).toBeGreaterThan(20);
  const withheld = results.filter((r) => r.opponent === WITHHELD_OPPONENT);
  // One adult side per adult-versus-minor bout, in /results and in event results alike.
  expect(withheld).toHaveLength(minorBouts.filter((b) => b.adult_slug).length);
  expect(eventResults.filter((r) => r.opponent === WITHHELD_OPPONENT)).toEqual(withheld);
  const profileWithheld = [...profiles.values()].flatMap((p) => p.bouts).filter((b) => b.opponent === WITHHELD_OPPONENT);
  expect(profileWithheld.length).toBeGreaterThan(0);
});

it('no result, event result or profile names a minor', () => {
  expect(texts.length).toBeGreaterThan(200);
  const named = texts.flatMap(({ path, text }) => minorNames.filter((n) => text.includes(JSON.stringify(n))).map((n) => `${path}: ${n}`));
  expect(named).toEqual([]);
});

it("points stay explainable: a withheld bout earns what its result says, and a profile's points are the sum of its results", () => {
  for (const r of results.filter((x) => x.opponent === WITHHELD_OPPONENT)) {
    const base = { W: ['KO', 'TKO'].includes((r.method ?? '').toUpperCase()) ? 12 : 10, D: 5, L: 2, NC: 0 }[r.result]!;
    expect(r.points.base).toBe(base);
    expect(r.points.total).toBeCloseTo(Math.round(base * r.points.multiplier * r.points.time_value * 100) / 100, 2);
  }
  const sums = new Map<string, number>();
  for (const r of results) sums.set(r.fighter!.slug, (sums.get(r.fighter!.slug) ?? 0) + r.points.total);
  const checked = [...new Set(minorBouts.map((b) => b.adult_slug))].filter((s): s is string => !!s && profiles.get(s)?.points != null);
  expect(checked.length).toBeGreaterThan(0);
  for (const slug of checked) expect([slug, Math.round(sums.get(slug)! * 100) / 100]).toEqual([slug, profiles.get(slug)!.points]);
});

it('result.verified payloads of every adult-versus-minor bout withhold the opponent', async () => {
  const builder = new WebhookPayloads(t.c.clock, 'https://svc.test', 'rtmp://ingest.test/live');
  const payloads = await t.c.orm.em.fork().transactional((em) =>
    builder.build(
      em as EntityManager,
      minorBouts.map((b) => ({ type: 'result.verified' as const, boutId: b.id })),
    ),
  );
  expect(payloads).toHaveLength(minorBouts.filter((b) => b.adult_slug).length);
  for (const p of payloads) expect((p.data as { opponent?: string }).opponent).toBe(WITHHELD_OPPONENT);
  const text = JSON.stringify(payloads);
  expect(minorNames.filter((n) => text.includes(JSON.stringify(n)))).toEqual([]);
});

it('a bout recorded and verified now is stored withheld, and the migration withholds payloads stored before the rule', async () => {
  const bout = minorBouts.find((b) => b.adult_slug)!;
  const conn = t.c.orm.em.getConnection();
  const [{ code }] = await conn.execute<{ code: string }[]>(
    `select code from event where sanctioned_at is not null and date <= ?::date order by date desc limit 1`,
    [t.c.clock.today()],
  );
  const [minor] = await conn.execute<{ slug: string; name: string }[]>(
    `select f.slug, f.name from fighter f join fighter_identity fi on fi.fighter_id = f.id join bout b on f.id in (b.fighter_a_id, b.fighter_b_id)
      where b.id = ? and f.slug <> ?`,
    [bout.id, bout.adult_slug],
  );
  await t.c.services.webhooks.register(actor, { partnerSlug: 'demo-media', url: 'http://127.0.0.1:9/minors', events: ['result.verified'] });
  const recorded = await t.c.services.results.record(actor, { eventCode: code, winnerSlug: bout.adult_slug!, loserSlug: minor.slug, method: 'UD', round: 3 });
  await t.c.services.results.verify(actor, recorded.id);
  await expandAll(t.c); // payloads are built after the commit, by the workers' fan-out
  const stored = await conn.execute<{ id: string; payload: string }[]>(`select id, payload from webhook_event where type = 'result.verified'`);
  expect(stored.length).toBeGreaterThan(0);
  for (const s of stored) expect(s.payload).not.toContain(JSON.stringify(minor.name));

  // A payload written before the rule: the name as the old builder stored it.
  const old = { ...JSON.parse(stored[0].payload), id: 'evt_OLD' };
  old.data.opponent = minor.name;
  old.data.event.code = code;
  old.data.fighter.slug = bout.adult_slug;
  const oldText = JSON.stringify(old);
  await conn.execute(`insert into webhook_event (id, type, payload, created_at) values ('evt_OLD', 'result.verified', ?, now())`, [oldText]);
  await conn.execute(WITHHOLD_MINOR_OPPONENTS_SQL);
  const [after] = await conn.execute<{ payload: string }[]>(`select payload from webhook_event where id = 'evt_OLD'`);
  expect(after.payload).toBe(oldText.replace(`"opponent":${JSON.stringify(minor.name)}`, `"opponent":"${WITHHELD_OPPONENT}"`));
  expect(after.payload).not.toContain(minor.name);
});
