import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * docs/decisions.md#go-live: "Slot checks hold under concurrent go-lives." Simultaneous go-lives on one channel never
 * exceed its live slots, whichever database runs underneath (PostgreSQL or the embedded one).
 */

let t: TestApp;
let tv: TvClient;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
});
afterAll(() => t?.close());

const liveSlots = async () => (await tv.expectStatus(tv.get('/me', CK.ro), 200)).body.data.channel.live_slots;

it('6 simultaneous go-lives of 6 broadcasts on a pro channel (3 slots): exactly 3 go live, 3 get no_live_slot', async () => {
  for (let round = 0; round < 3; round++) {
    const bs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => tv.create(CK.rw, { title: `Race ${round}-${i}`, ...(i % 2 ? { source: 'ingest', source_url: undefined } : {}) })),
    );
    const answers = await Promise.all(bs.map((b) => tv.post(`/broadcasts/${b.id}/go-live`, CK.rw)));
    const outcome = answers.map((r) => `${r.status} ${r.body.error ?? r.body.data.state}`).sort();
    expect(outcome).toEqual(['200 live', '200 live', '200 live', '409 no_live_slot', '409 no_live_slot', '409 no_live_slot']);
    expect(await liveSlots()).toEqual({ used: 3, total: 3 });
    const live = (await tv.expectStatus(tv.get('/live?per_page=100'), 200)).body.data.filter(
      (b: { channel: { slug: string } }) => b.channel.slug === 'fight-tv',
    );
    expect(live).toHaveLength(3);
    // the refused ones are still scheduled and can go live once slots free up
    const refused = bs.filter((_, i) => answers[i].status === 409);
    const winners = bs.filter((_, i) => answers[i].status === 200);
    await Promise.all(winners.map((b) => tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200)));
    expect(await liveSlots()).toEqual({ used: 0, total: 3 });
    const second = await Promise.all(refused.map((b) => tv.post(`/broadcasts/${b.id}/go-live`, CK.rw)));
    expect(second.map((r) => r.status)).toEqual([200, 200, 200]);
    await Promise.all(refused.map((b) => tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200)));
  }
});

it('6 simultaneous go-lives of the same broadcast: one succeeds, the others are invalid_state, one slot is used', async () => {
  const b = await tv.create(CK.rw);
  const answers = await Promise.all(Array.from({ length: 6 }, () => tv.post(`/broadcasts/${b.id}/go-live`, CK.rw)));
  expect(answers.map((r) => `${r.status} ${r.body.error ?? r.body.data.state}`).sort()).toEqual(['200 live', ...Array(5).fill('409 invalid_state')]);
  expect(await liveSlots()).toEqual({ used: 1, total: 3 });
  // simultaneous ends: one ends it, the others find it no longer live
  const ends = await Promise.all(Array.from({ length: 4 }, () => tv.post(`/broadcasts/${b.id}/end`, CK.rw)));
  expect(ends.map((r) => `${r.status} ${r.body.error ?? r.body.data.state}`).sort()).toEqual(['200 replay', ...Array(3).fill('409 invalid_state')]);
  expect(await liveSlots()).toEqual({ used: 0, total: 3 });
});

it("one channel's race does not take another channel's slots", async () => {
  const mine = await Promise.all(Array.from({ length: 4 }, () => tv.create(CK.rw)));
  const theirs = await Promise.all(Array.from({ length: 4 }, () => tv.create(CK.other)));
  const answers = await Promise.all([...mine, ...theirs].map((b, i) => tv.post(`/broadcasts/${b.id}/go-live`, i < 4 ? CK.rw : CK.other)));
  expect(answers.slice(0, 4).filter((r) => r.status === 200)).toHaveLength(3);
  expect(answers.slice(4).map((r) => r.status)).toEqual([200, 200, 200, 200]); // broadcaster plan: 10 slots
  expect(await liveSlots()).toEqual({ used: 3, total: 3 });
  expect((await tv.expectStatus(tv.get('/me', CK.other), 200)).body.data.channel.live_slots).toEqual({ used: 4, total: 10 });
});
