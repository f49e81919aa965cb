import request from 'supertest';
import { seedDemoIfEmpty } from '../../../src/demo/demo.seed';
import type { ReadContext } from '../../../src/domain/catalog/read-context';
import { presentBout, presentResult } from '../../../src/domain/catalog/views';
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
const KEY = 'pk_demo_bench';

beforeAll(async () => {
  t = await startTestApp();
  await seedDemoIfEmpty(t.c);
  ctx = await t.c.readContext.current();
}, 120_000);
afterAll(() => t?.close());

/** The profile body as the two-statement path built it. */
async function twoStatementProfile(slug: string): Promise<string> {
  const { fighters, results } = t.c.queries;
  const row = (await fighters.bySlug(ctx, slug))!;
  const standing = row.ranks ? { points: row.points, ranks: row.ranks } : undefined;
  if (row.f_minor) return JSON.stringify({ as_of: ctx.asOf, data: presentMinor(row) });
  const bouts = await results.forFighter(ctx, row.f_id, 20);
  const data = { ...presentFighter(row, row.record, standing), bouts: bouts.map((b) => presentBout(b, ctx.asOf, t.c.config.publicUrl)) };
  return JSON.stringify({ as_of: ctx.asOf, data });
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

  it('answers a deep page of the feed (from an anchor) with the rows an offset gives', async () => {
    const { results } = t.c.queries;
    const total = await results.count(ctx, {});
    const page = Math.floor(total / 25) - 1; // deep: past the offset from which anchors are used
    expect(page * 25).toBeGreaterThan(2_000);
    const res = await getPartner(t.app, `/results?page=${page}&per_page=25`, KEY);
    expect(res.status).toBe(200);
    const rows = await results.list(ctx, {}, { page, perPage: 25 });
    expect(res.body.data).toEqual(rows.map((r) => presentResult(r, ctx.asOf, t.c.config.publicUrl)));
    expect(res.body.data).toHaveLength(25);
  });
});
