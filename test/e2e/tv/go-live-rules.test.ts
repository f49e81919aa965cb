import { operator } from '../../../src/domain/channels/channel-access';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * Go-live and the other transitions refused (docs/decisions.md#broadcast-edit, docs/decisions.md#go-live): billing, plan, live slots and the
 * state each operation needs. A refusal changes nothing.
 */

let t: TestApp;
let tv: TvClient;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
});
afterAll(() => t?.close());

const stateOf = async (key: string, id: string) =>
  (await tv.expectStatus(tv.get('/me', key), 200)).body.data.broadcasts.find((b: { id: string }) => b.id === id)?.state;

describe('billing', () => {
  it('a past-due channel may schedule but not go live: 402 billing_inactive', async () => {
    const b = await tv.create(CK.pastDue);
    const res = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.pastDue), 402, 'billing_inactive');
    expect(res.body.message).toMatch(/past_due/);
    expect(await stateOf(CK.pastDue, b.id)).toBe('scheduled');
  });

  it('a canceled channel cannot go live either; a trialing one can', async () => {
    await t.c.services.channels.setBilling(operator({ id: 'test' }), 'garage-tv', 'canceled');
    const b = await tv.create(CK.free);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.free), 402, 'billing_inactive');
    await t.c.services.channels.setBilling(operator({ id: 'test' }), 'garage-tv', 'active');
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.free), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.free), 200);

    const trial = await tv.create(CK.other); // rival-tv is trialing
    await tv.expectStatus(tv.post(`/broadcasts/${trial.id}/go-live`, CK.other), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${trial.id}/end`, CK.other), 200);
  });
});

describe('plan', () => {
  it('an ingest broadcast on the free plan: 403 plan_forbids_source at go-live', async () => {
    const b = await tv.create(CK.free, { source: 'ingest', source_url: undefined });
    const res = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.free), 403, 'plan_forbids_source');
    expect(res.body.message).toMatch(/pro|broadcaster/);
    expect(await stateOf(CK.free, b.id)).toBe('scheduled');
    // external sources are fine on the free plan
    const ext = await tv.create(CK.free);
    await tv.expectStatus(tv.post(`/broadcasts/${ext.id}/go-live`, CK.free), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${ext.id}/end`, CK.free), 200);
  });
});

describe('live slots', () => {
  it('the pro plan has 3: the 4th go-live is 409 no_live_slot, and ending one frees a slot', async () => {
    const bs = [];
    for (let i = 0; i < 4; i++) bs.push(await tv.create(CK.rw));
    for (const b of bs.slice(0, 3)) await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    const res = await tv.expectStatus(tv.post(`/broadcasts/${bs[3].id}/go-live`, CK.rw), 409, 'no_live_slot');
    expect(res.body.message).toMatch(/3/);
    expect(await stateOf(CK.rw, bs[3].id)).toBe('scheduled');
    expect((await tv.expectStatus(tv.get('/me', CK.ro), 200)).body.data.channel.live_slots).toEqual({ used: 3, total: 3 });

    // another channel's live broadcasts do not use this channel's slots
    const rival = await tv.create(CK.other);
    await tv.expectStatus(tv.post(`/broadcasts/${rival.id}/go-live`, CK.other), 200);

    await tv.expectStatus(tv.post(`/broadcasts/${bs[0].id}/end`, CK.rw), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${bs[3].id}/go-live`, CK.rw), 200);
    for (const b of bs.slice(1)) await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${rival.id}/end`, CK.other), 200);
  });

  it('the free plan has 1', async () => {
    const [a, b] = [await tv.create(CK.free), await tv.create(CK.free)];
    await tv.expectStatus(tv.post(`/broadcasts/${a.id}/go-live`, CK.free), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.free), 409, 'no_live_slot');
    expect((await tv.expectStatus(tv.get('/me', CK.free), 200)).body.data.channel.live_slots).toEqual({ used: 1, total: 1 });
    await tv.expectStatus(tv.post(`/broadcasts/${a.id}/end`, CK.free), 200);
  });
});

describe('the state each operation needs: 409 invalid_state', () => {
  it('go-live twice', async () => {
    const b = await tv.create(CK.rw);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 409, 'invalid_state');
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
  });

  it('end a scheduled broadcast', async () => {
    const b = await tv.create(CK.rw);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 409, 'invalid_state');
    expect(await stateOf(CK.rw, b.id)).toBe('scheduled');
  });

  it('PATCH the source of a live broadcast', async () => {
    const b = await tv.create(CK.rw);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source: 'hls', source_url: 'https://cdn.example/live.m3u8' }), 409, 'invalid_state');
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { source: 'ingest' }), 409, 'invalid_state');
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
  });

  it('PATCH scheduled_at of an ended broadcast', async () => {
    const b = await tv.create(CK.rw, { source: 'ingest', source_url: undefined });
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    expect(await stateOf(CK.rw, b.id)).toBe('ended');
    await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { scheduled_at: '2031-01-01T00:00:00Z' }), 409, 'invalid_state');
  });

  it('rotate the stream key of a non-ingest broadcast', async () => {
    const b = await tv.create(CK.rw, aBroadcast({ source: 'hls', source_url: 'https://cdn.example/a.m3u8' }));
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/rotate-stream-key`, CK.rw), 409, 'invalid_state');
  });

  it('the state is checked before billing and plan (a live broadcast of a channel that fell past due can still end)', async () => {
    const b = await tv.create(CK.rw);
    await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
    await t.c.services.channels.setBilling(operator({ id: 'test' }), 'fight-tv', 'past_due');
    try {
      await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 409, 'invalid_state');
      await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
    } finally {
      await t.c.services.channels.setBilling(operator({ id: 'test' }), 'fight-tv', 'active');
    }
  });
});
