import request from 'supertest';
import { seedDemoIfEmpty } from '../../../src/demo/demo.seed';
import { eventColumns } from '../../../src/domain/catalog/fighter-summary.sql';
import { cardColumns } from '../../../src/domain/catalog/read-model/card.sql';
import { FEED_ORDER } from '../../../src/domain/catalog/read-model/read-model.sql';
import { pooledReadSql } from '../../../src/domain/catalog/read-model/read-sql';
import type { ReadContext } from '../../../src/domain/catalog/read-context';
import type { FeedRow, ResultFilters, ResultRow } from '../../../src/domain/catalog/results.queries';
import { addYears, systemClock, type Clock } from '../../../src/domain/clock';
import { meta } from '../../../src/http/query';
import { presentBout, presentResult } from '../../../src/domain/catalog/views';
import { thinAnchors } from '../../../src/rest/catalog.reader';
import { presentFighter, presentMinor } from '../../../src/rest/presenters';
import { getPartner } from '../../helpers/partner-client';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * The cold path (docs/adr/0013-cold-reads.md) answers what the two-statement path answered: a
 * profile read in one statement, many at once, is byte for byte the body built from the card
 * (bySlug) and the bouts (forFighter) read apart; a deep page of the feed started from an anchor
 * holds the rows an offset alone gives. Over the demo data.
 */
let t: TestApp;
let ctx: ReadContext;
let todays: ReadContext;
const KEY = 'pk_demo_bench';
/** The service's day: today unless a test moves it (minority and licence expiry are decided on it). */
let day: string | null = null;
const clock: Clock = { now: () => systemClock.now(), today: () => day ?? systemClock.today() };

beforeAll(async () => {
  t = await startTestApp({ clock });
  await seedDemoIfEmpty(t.c);
  ctx = await t.c.readContext.current();
  todays = ctx;
}, 120_000);
afterAll(() => t?.close());

/** The profile body as the two-statement path built it (on the day of `ctx`, today's unless given). */
async function twoStatementProfile(slug: string, ctx = todays): Promise<string> {
  const { fighters, results } = t.c.queries;
  const row = (await fighters.bySlug(ctx, slug))!;
  const standing = row.ranks ? { points: row.points, ranks: row.ranks } : undefined;
  if (row.f_minor) return JSON.stringify({ as_of: ctx.asOf, data: presentMinor(row) });
  const bouts = await results.forFighter(ctx, row.f_id, 20);
  const data = { ...presentFighter(row, row.record, standing), bouts: bouts.map((b) => presentBout(b, ctx.asOf, t.c.config.publicUrl)) };
  return JSON.stringify({ as_of: ctx.asOf, data });
}

/**
 * A page of the feed as it was read before result rows kept what a page shows (decision 6 of
 * docs/adr/0013-cold-reads.md): by offset, each row joined with its fighter's card, its event and
 * the opponent's own result row.
 */
async function joinedPage(day: ReadContext, filters: ResultFilters, page: number, perPage: number): Promise<ResultRow[]> {
  const values: unknown[] = [day.today];
  const where = ['r.adult_on <= $1::date'];
  const add = (clause: string, value: unknown) => {
    values.push(value);
    where.push(clause.replace('?', `$${values.length}`));
  };
  if (filters.since) add('r.event_date >= ?::date', filters.since);
  if (filters.country) add('r.fighter_country = ?', filters.country);
  if (filters.disc) add('r.discipline = ?', filters.disc);
  if (filters.event) add('r.event_code = ?', filters.event);
  values.push(perPage, (page - 1) * perPage);
  return pooledReadSql(t.c.orm).rows<ResultRow>(
    `select ${cardColumns()}, ${eventColumns()}, r.bout_id, r.bout_order, r.result, r.method, r.round, r.verified_at,
            r.opponent_name as opponent, coalesce(o.adult_on > $1::date, true) as opponent_minor
       from (select * from result_row r where ${where.join(' and ')} order by ${FEED_ORDER} limit $${values.length - 1} offset $${values.length}) r
       join fighter_card f on f.fighter_id = r.fighter_id
       left join result_row o on o.bout_id = r.bout_id and o.fighter_id <> r.fighter_id
       join event e on e.id = r.event_id
      order by ${FEED_ORDER}`,
    values,
  );
}

describe('cold reads', () => {
  it('answers every sampled profile (adults with and without bouts, minors) as the two-statement path did, asked all at once', async () => {
    const conn = t.c.orm.em.getConnection();
    const sample = (await conn.execute<{ slug: string }[]>(`select slug from fighter_card order by md5(slug) limit 150`)).map((r) => r.slug);
    const minors = (await conn.execute<{ slug: string }[]>(`select slug from fighter_card where adult_on > current_date limit 10`)).map((r) => r.slug);
    const slugs = [...new Set([...sample, ...minors])];
    expect(minors.length).toBeGreaterThan(0);
    // all in flight together: they are read in shared statements
    const answers = await Promise.all(
      slugs.map((slug) =>
        request(t.app)
          .get(`/api/v1/fighters/${slug}`)
          .set('Authorization', `Bearer ${KEY}`)
          .set('Accept-Encoding', 'gzip')
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          }),
      ),
    );
    let withBouts = 0;
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(200);
      // sent gzip-encoded when 1 KiB or more; supertest decodes it, so this is the body as sent
      const text = (res.body as Buffer).toString('utf8');
      expect(text).toBe(await twoStatementProfile(slugs[i]));
      if ((JSON.parse(text) as { data: { bouts?: unknown[] } }).data.bouts?.length) withBouts++;
    }
    expect(withBouts).toBeGreaterThan(50);
    expect(answers.filter((res) => res.headers['content-encoding'] === 'gzip').length).toBeGreaterThan(50);
  });

  it('answers profiles byte for byte as the two-statement path did on other days too (minors, expired and suspended licences, withheld opponents)', async () => {
    const conn = t.c.orm.em.getConnection();
    const slugsOf = async (where: string) =>
      (await conn.execute<{ slug: string }[]>(`select slug from fighter_card where ${where} order by md5(slug) limit 25`)).map((r) => r.slug);
    const today = systemClock.today();
    const days = [-3, 2, 5].map((years) => addYears(today, years));
    const slugs = [
      ...new Set([
        ...(await slugsOf('true')),
        ...(await slugsOf(`licence_state = 'suspended'`)),
        ...(await slugsOf(`licence_state = 'active' and licence_valid_until is not null`)),
        ...(await slugsOf(`adult_on > '${days[0]}'`)),
        ...(await slugsOf(`bouts::text like '%"opponent_adult_on" : "2%'`)),
      ]),
    ];
    const seen = { minors: 0, expired: 0, suspended: 0, withheld: 0 };
    try {
      for (const on of days) {
        day = on;
        const dayCtx = await t.c.readContext.current();
        expect(dayCtx.today).toBe(on);
        const answers = await Promise.all(slugs.map((slug) => getPartner(t.app, `/fighters/${slug}`, KEY)));
        for (const [i, res] of answers.entries()) {
          expect(res.status).toBe(200);
          const expected = await twoStatementProfile(slugs[i], dayCtx);
          expect(JSON.stringify(res.body)).toBe(expected);
          expect(res.text).toBe(expected);
          const data = (JSON.parse(expected) as { data: { licence_status?: string; bouts?: { opponent: string }[] } }).data;
          if (!data.licence_status) seen.minors++;
          if (data.licence_status === 'expired') seen.expired++;
          if (data.licence_status === 'suspended') seen.suspended++;
          seen.withheld += (data.bouts ?? []).filter((b) => b.opponent === '(withheld)').length;
        }
      }
    } finally {
      day = null;
    }
    expect(seen.minors).toBeGreaterThan(0);
    expect(seen.expired).toBeGreaterThan(0);
    expect(seen.suspended).toBeGreaterThan(0);
    expect(seen.withheld).toBeGreaterThan(0);
  });

  it('answers an unknown slug 404 beside known ones asked at the same moment', async () => {
    const [known, unknown] = await Promise.all([
      getPartner(t.app, `/fighters/${(await t.c.orm.em.getConnection().execute<{ slug: string }[]>(`select slug from fighter_card limit 1`))[0].slug}`, KEY),
      getPartner(t.app, '/fighters/no-such-fighter-anywhere', KEY),
    ]);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('not_found');
  });

  it('reads the same rows from an anchor as by offset alone, for every filter, at and between anchors', async () => {
    const { results } = t.c.queries;
    for (const filters of [{}, { since: '2025-01-01' }, { disc: 'mma' }, { country: 'germany' }]) {
      const anchors = await results.anchors(ctx, filters, 7);
      expect(anchors.length).toBeGreaterThan(3);
      for (const [page, perPage] of [
        [2, 7],
        [3, 10],
        [5, 25],
        [9, 3],
        [40, 25],
        [11, 13],
      ]) {
        const offset = (page - 1) * perPage;
        const i = Math.min(Math.floor(offset / 7), anchors.length) - 1;
        if (i < 0) continue;
        const anchor = { key: anchors[i], offset: (i + 1) * 7 };
        const byOffset = await results.list(ctx, filters, { page, perPage });
        expect(await results.list(ctx, filters, { page, perPage }, anchor)).toEqual(byOffset);
      }
    }
  });

  it("thins a long feed's anchors to the anchors read further apart (a filter set keeps a bounded number)", async () => {
    const { results } = t.c.queries;
    for (const filters of [{}, { disc: 'mma' }]) {
      const every7 = await results.anchors(ctx, filters, 7);
      expect(every7.length).toBeGreaterThan(10);
      expect(thinAnchors(every7, 7, every7.length)).toEqual({ every: 7, keys: every7 });
      expect(thinAnchors(every7, 7, Math.ceil(every7.length / 2))).toEqual({ every: 14, keys: await results.anchors(ctx, filters, 14) });
      expect(thinAnchors(every7, 7, Math.ceil(every7.length / 3))).toEqual({ every: 21, keys: await results.anchors(ctx, filters, 21) });
    }
  });

  it('answers deep pages of the feed (from an anchor) with the rows an offset gives, on an anchor and between two', async () => {
    const { results } = t.c.queries;
    const total = await results.count(ctx, {});
    // 25 starts on an anchor; 40 and 70 start between two (the anchors are 25 rows apart); 100 is the largest page
    for (const perPage of [25, 40, 70, 100]) {
      const page = Math.floor(total / perPage) - 1; // deep: past the offset from which anchors are used
      expect(page * perPage).toBeGreaterThan(2_000);
      const res = await getPartner(t.app, `/results?page=${page}&per_page=${perPage}`, KEY);
      expect(res.status).toBe(200);
      const rows = await results.list(ctx, {}, { page, perPage });
      expect(res.body.data).toEqual(rows.map((r) => presentResult(r, ctx.asOf, t.c.config.publicUrl)));
      expect(res.body.data).toHaveLength(perPage);
    }
  });

  it('answers every sampled page of the feed, for every filter, byte for byte as the joined read did, on other days too (minors, expiry)', async () => {
    const { results } = t.c.queries;
    const bodies = (day: ReadContext, rows: FeedRow[], page: number, perPage: number, total: number) =>
      JSON.stringify({ as_of: day.asOf, meta: meta({ page, perPage }, total), data: rows.map((r) => presentResult(r, day.asOf, t.c.config.publicUrl)) });
    // The minor rule and licence expiry are decided on the day of the read: days on which other opponents are minors and other licences have expired.
    const days = [ctx, ...[-3, 2, 5].map((years) => ({ ...ctx, today: addYears(ctx.today, years), adultCutoff: addYears(ctx.today, years - 18) }))];
    let withheld = 0;
    let expired = 0;
    for (const day of days) {
      for (const filters of [{}, { since: '2025-01-01' }, { disc: 'mma' }, { country: 'germany' }, { event: 'EV-2026-0001' }] as ResultFilters[]) {
        const total = await results.count(day, filters);
        const anchors = await results.anchors(day, filters, 100);
        const pages = [
          [1, 25],
          [2, 100],
          [7, 13],
          [Math.ceil(total / 50), 25],
          [Math.ceil(total / 25), 25],
          [Math.ceil(total / 25) + 1, 25],
          [Math.ceil(total / 3 / 100), 100],
        ];
        const anchorOf = (offset: number) => {
          const i = Math.min(Math.floor(offset / 100), anchors.length) - 1;
          return i < 0 ? undefined : { key: anchors[i], offset: (i + 1) * 100 };
        };
        // Asked all at once: the anchored pages are read together (one statement for them all).
        const together = await Promise.all(pages.map(([page, perPage]) => results.list(day, filters, { page, perPage }, anchorOf((page - 1) * perPage))));
        for (const [j, [page, perPage]] of pages.entries()) {
          const expected = await joinedPage(day, filters, page, perPage);
          const offset = (page - 1) * perPage;
          // and one by one: by offset alone, from the nearest anchor, from the first anchor (a skip longer than anchors are apart)
          const alone = [
            await results.list(day, filters, { page, perPage }),
            await results.list(day, filters, { page, perPage }, anchorOf(offset)),
            ...(offset >= 100 && anchors.length ? [await results.list(day, filters, { page, perPage }, { key: anchors[0], offset: 100 })] : []),
          ];
          for (const rows of [together[j], ...alone]) {
            expect(bodies(day, rows, page, perPage, total)).toBe(bodies(day, expected, page, perPage, total));
          }
          withheld += expected.filter((r) => r.opponent_minor).length;
          expired += expected.filter((r) => r.f_licence_status === 'expired').length;
        }
      }
    }
    expect(withheld).toBeGreaterThan(0);
    expect(expired).toBeGreaterThan(0);
  });

  it("answers an event's results as the joined read did, its withheld opponents included", async () => {
    const conn = t.c.orm.em.getConnection();
    const [{ code }] = await conn.execute<{ code: string }[]>(
      `select r.event_code as code from result_row r where r.adult_on <= current_date and (r.opponent_adult_on is null or r.opponent_adult_on > current_date) limit 1`,
    );
    const res = await getPartner(t.app, `/events/${code}/results`, KEY);
    expect(res.status).toBe(200);
    const expected = await joinedPage(ctx, { event: code }, 1, 1000);
    expect(expected.some((r) => r.opponent_minor)).toBe(true);
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(expected.map((r) => presentResult(r, ctx.asOf, t.c.config.publicUrl))));
  });
});
