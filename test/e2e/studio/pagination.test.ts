import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * The broadcasts connection pages like Relay says (docs/studio-graphql.md#paging): forward with
 * first/after and backward with last/before, the four PageInfo fields true to the list.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STUDIO_SESSION_PER_MINUTE: '100000' } });
  await seedTvDemo(t.c);
  token = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
  // Five more broadcasts, two of them on the same minute (the id breaks the tie).
  for (const [i, at] of ['2032-01-01T10:00:00Z', '2032-01-02T10:00:00Z', '2032-01-02T10:00:00Z', '2032-01-03T10:00:00Z', '2032-01-04T10:00:00Z'].entries()) {
    const made = await gql(
      `mutation($t: String!, $at: String!) { createBroadcast(channel: "demo-tv", input: { title: $t, source: MP4, sourceUrl: "https://cdn.demo.tv/p.mp4", scheduledAt: $at }) { id } }`,
      { t: `Paging ${i}`, at },
    );
    expect(made.body.errors).toBeUndefined();
  }
});
afterAll(() => t?.close());

const gql = (query: string, variables: Record<string, unknown> = {}) =>
  request(t.app).post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${token}`).send({ query, variables });

interface Page {
  ids: string[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  cursors: string[];
}

async function page(args: { first?: number; after?: string; last?: number; before?: string; state?: string }): Promise<Page> {
  const res = await gql(
    `query($first: Int, $after: String, $last: Int, $before: String, $state: BroadcastState) {
    channel(slug: "demo-tv") { broadcasts(first: $first, after: $after, last: $last, before: $before, state: $state) {
      edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
    args,
  );
  expect(res.body.errors).toBeUndefined();
  const c = res.body.data.channel.broadcasts;
  return { ids: c.edges.map((e: { node: { id: string } }) => e.node.id), cursors: c.edges.map((e: { cursor: string }) => e.cursor), pageInfo: c.pageInfo };
}

describe('the broadcasts connection (Relay paging)', () => {
  it('pages forward with first/after: hasPreviousPage false on the first page only, hasNextPage false on the last only', async () => {
    const all = await page({ first: 100 });
    expect(all.ids.length).toBeGreaterThanOrEqual(10);
    expect(all.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: all.cursors[0], endCursor: all.cursors[all.cursors.length - 1] });
    const seen: string[] = [];
    let after: string | undefined;
    for (let n = 0; ; n++) {
      const p = await page({ first: 3, after });
      seen.push(...p.ids);
      expect(p.pageInfo.hasPreviousPage).toBe(n > 0);
      expect(p.pageInfo.startCursor).toBe(p.cursors[0]);
      expect(p.pageInfo.endCursor).toBe(p.cursors[p.cursors.length - 1]);
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor!;
    }
    expect(seen).toEqual(all.ids);
  });

  it('pages backward with last/before: the same list from the end, hasNextPage false on the last page only', async () => {
    const all = await page({ first: 100 });
    const seen: string[] = [];
    let before: string | undefined;
    for (let n = 0; ; n++) {
      const p = await page({ last: 4, before });
      expect(p.ids.length).toBeLessThanOrEqual(4);
      seen.unshift(...p.ids);
      expect(p.pageInfo.hasNextPage).toBe(n > 0);
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor!;
    }
    expect(seen).toEqual(all.ids);
  });

  it('bounds a window with after and before, follows the state filter, and answers an empty page past the end', async () => {
    const all = await page({ first: 100 });
    const window = await page({ first: 100, after: all.cursors[1], before: all.cursors[6] });
    expect(window.ids).toEqual(all.ids.slice(2, 6));
    expect(window.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const end = await page({ first: 5, after: all.cursors[all.cursors.length - 1] });
    expect(end).toMatchObject({ ids: [], pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null } });
    const scheduled = await page({ first: 100, state: 'SCHEDULED' });
    const tail = await page({ last: 2, state: 'SCHEDULED' });
    expect(tail.ids).toEqual(scheduled.ids.slice(-2));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: scheduled.ids.length > 2 });
  });

  it('refuses first with last, sizes out of 1..100 and foreign cursors with invalid_* codes', async () => {
    const code = async (args: Record<string, unknown>) =>
      (
        await gql(
          `query($first: Int, $last: Int, $after: String, $before: String) {
      channel(slug: "demo-tv") { broadcasts(first: $first, last: $last, after: $after, before: $before) { edges { cursor } } } }`,
          args,
        )
      ).body.errors?.[0]?.extensions?.code;
    expect(await code({ first: 2, last: 2 })).toBe('invalid_last');
    expect(await code({ last: 0 })).toBe('invalid_last');
    expect(await code({ last: 101 })).toBe('invalid_last');
    expect(await code({ first: 0 })).toBe('invalid_first');
    expect(await code({ before: 'bm90LWEtY3Vyc29y' })).toBe('invalid_before');
    expect(await code({ after: 'bm90LWEtY3Vyc29y' })).toBe('invalid_after');
  });
});
