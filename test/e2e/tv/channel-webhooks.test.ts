import { randomBytes } from 'node:crypto';
import { WebhookEndpoint } from '../../../src/webhooks/webhook.entities';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { ingest, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK, type TvWorld } from '../../helpers/tv-world';
import { WebhookReceiver, type Received } from '../../helpers/webhook-receiver';
import { EVENT_ID, header, ISO_WITH_OFFSET, runWorker, sleep, UUID, waitUntil, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * Channel webhooks (docs/decisions.md#broadcast-states): each transition of a broadcast reaches
 * the channel's own endpoints, signed like partner webhooks, with `data.broadcast` the broadcast
 * as the channel's key sees it (never a stream key), and nothing of another channel's broadcasts.
 */

const EVENTS = ['broadcast.scheduled', 'broadcast.live', 'broadcast.ended', 'replay.ready'];

let t: TestApp;
let tv: TvClient;
let world: TvWorld;
let worker: Awaited<ReturnType<typeof runWorker>>;
const fight = new WebhookReceiver();
const fightReplays = new WebhookReceiver();
const rival = new WebhookReceiver();

async function registerChannelEndpoint(channelId: string, url: string, events: string[]): Promise<string> {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const em = t.c.orm.em.fork();
  em.persist(Object.assign(new WebhookEndpoint(), { channelId, url, events, secret }));
  await em.flush();
  return secret;
}

beforeAll(async () => {
  t = await startTestApp({ env: { ...TV_ENV, ...WEBHOOK_ENV } });
  world = await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  fight.secrets = [await registerChannelEndpoint(world.channelIds.pro, await fight.start(), EVENTS)];
  fightReplays.secrets = [await registerChannelEndpoint(world.channelIds.pro, await fightReplays.start(), ['replay.ready'])];
  rival.secrets = [await registerChannelEndpoint(world.channelIds.other, await rival.start(), EVENTS)];
  worker = await runWorker(t.c, t.db);
});
afterAll(async () => {
  await worker?.close();
  await Promise.all([fight.stop(), fightReplays.stop(), rival.stop()]);
  await t?.close();
});

const of = (r: WebhookReceiver, id: string, event?: string) =>
  r.received.filter((x) => (x.json.data.broadcast as { id: string }).id === id && (!event || x.json.event === event));
async function arrival(r: WebhookReceiver, id: string, event: string): Promise<Received> {
  const [x] = await waitUntil(`${event} of ${id}`, () => (of(r, id, event).length ? of(r, id, event) : null));
  return x;
}

/** What every channel delivery carries. */
function expectWellFormed(x: Received, channelSlug: string) {
  expect(x.validSignature).toBe(true);
  expect(header(x, 'X-SVC-Event')).toBe(x.json.event);
  expect(header(x, 'X-SVC-Delivery')).toMatch(UUID);
  expect(header(x, 'X-SVC-Attempt')).toBe('1');
  expect(header(x, 'X-SVC-Timestamp')).toMatch(/^\d+$/);
  expect(Math.abs(Number(header(x, 'X-SVC-Timestamp')) - Date.now() / 1000)).toBeLessThan(300);
  expect(x.json.id).toMatch(EVENT_ID);
  expect(x.json.created_at).toMatch(ISO_WITH_OFFSET);
  expect(Object.keys(x.json.data)).toEqual(['broadcast']);
  expect((x.json.data.broadcast as { channel: unknown }).channel).toEqual({ slug: channelSlug, name: channelSlug === 'fight-tv' ? 'Fight TV' : 'Rival TV' });
}

it('an external broadcast: scheduled, live, ended and replay.ready, each with the broadcast as it then was', async () => {
  const b = await tv.create(CK.rw, { title: 'Hooked Night', tags: ['hooks'] });
  const scheduled = await arrival(fight, b.id, 'broadcast.scheduled');
  expectWellFormed(scheduled, 'fight-tv');
  // the payload is the broadcast exactly as the channel's key sees it
  expect(scheduled.json.data.broadcast).toEqual(b);

  await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Hooked Night: main card' }), 200);
  const live = (await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200)).body.data;
  const liveHook = await arrival(fight, b.id, 'broadcast.live');
  expectWellFormed(liveHook, 'fight-tv');
  expect(liveHook.json.data.broadcast).toEqual(live);

  const ended = (await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200)).body.data;
  const endedHook = await arrival(fight, b.id, 'broadcast.ended');
  const replayHook = await arrival(fight, b.id, 'replay.ready');
  for (const x of [endedHook, replayHook]) {
    expectWellFormed(x, 'fight-tv');
    expect(x.json.data.broadcast).toMatchObject({ id: b.id, ended_at: ended.ended_at, title: 'Hooked Night: main card' });
  }
  expect(replayHook.json.data.broadcast).toMatchObject({ state: 'replay', replay_url: b.source_url });
  // one delivery per transition, each its own event id
  await sleep(300);
  expect(
    of(fight, b.id)
      .map((x) => x.json.event)
      .sort(),
  ).toEqual([...EVENTS].sort());
  expect(new Set(of(fight, b.id).map((x) => x.json.id)).size).toBe(4);
  // the replay-only endpoint got the replay only
  const replays = await waitUntil('replay at the replay-only endpoint', () => (of(fightReplays, b.id).length ? of(fightReplays, b.id) : null));
  expect(replays.map((x) => x.json.event)).toEqual(['replay.ready']);
  expect(replays[0].validSignature).toBe(true);
});

it('an ingest broadcast: ended on end, replay.ready only when the recording is ready; never the stream key', async () => {
  const created = await tv.expectStatus(tv.post('/broadcasts', CK.rw, { title: 'Hooked Ingest', source: 'ingest', scheduled_at: '2030-09-09T19:00:00Z' }), 201);
  const b = created.body.data;
  const key: string = b.ingest.stream_key;
  const scheduled = await arrival(fight, b.id, 'broadcast.scheduled');
  expect(scheduled.json.data.broadcast).toMatchObject({ id: b.id, state: 'scheduled', source: 'ingest', ingest: { server_url: b.ingest.server_url } });
  expect((scheduled.json.data.broadcast as { ingest: object }).ingest).toEqual({ server_url: b.ingest.server_url });

  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.rw), 200);
  await ingest(t.app, 'on-publish', { name: key }).expect(200);
  expect((await arrival(fight, b.id, 'broadcast.live')).json.data.broadcast).toMatchObject({ state: 'live' });
  const rotated = await tv.expectStatus(tv.post(`/broadcasts/${b.id}/rotate-stream-key`, CK.rw), 200);
  const newKey: string = rotated.body.data.ingest.stream_key;
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 200);
  expect((await arrival(fight, b.id, 'broadcast.ended')).json.data.broadcast).toMatchObject({ state: 'ended', replay_url: null });
  await sleep(400);
  expect(of(fight, b.id, 'replay.ready')).toHaveLength(0);
  expect(of(fightReplays, b.id)).toHaveLength(0);

  await ingest(t.app, 'recording-ready', { name: newKey, replay_url: 'https://cdn.example/replays/hooked.m3u8' }).expect(200);
  const ready = await arrival(fight, b.id, 'replay.ready');
  expectWellFormed(ready, 'fight-tv');
  expect(ready.json.data.broadcast).toMatchObject({ state: 'replay', replay_url: 'https://cdn.example/replays/hooked.m3u8' });
  await arrival(fightReplays, b.id, 'replay.ready');

  for (const x of [...fight.received, ...fightReplays.received]) {
    expect(x.body).not.toContain(key);
    expect(x.body).not.toContain(newKey);
    expect(x.body).not.toContain('stream_key');
  }
});

it('refused transitions and edits emit nothing', async () => {
  const b = await tv.create(CK.rw);
  await arrival(fight, b.id, 'broadcast.scheduled');
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/end`, CK.rw), 409, 'invalid_state');
  await tv.expectStatus(tv.patch(`/broadcasts/${b.id}`, CK.rw, { title: 'Edited' }), 200);
  await tv.expectStatus(tv.post(`/broadcasts/${b.id}/go-live`, CK.other), 404);
  await tv.expectStatus(tv.post('/broadcasts', CK.rw, { title: '' }), 422);
  await sleep(400);
  expect(of(fight, b.id).map((x) => x.json.event)).toEqual(['broadcast.scheduled']);
});

it("a channel's endpoint hears nothing of another channel's broadcasts, and vice versa", async () => {
  const theirs = await tv.create(CK.other, { title: 'Rival Night' });
  await tv.expectStatus(tv.post(`/broadcasts/${theirs.id}/go-live`, CK.other), 200);
  await tv.expectStatus(tv.post(`/broadcasts/${theirs.id}/end`, CK.other), 200);
  for (const event of EVENTS) expectWellFormed(await arrival(rival, theirs.id, event), 'rival-tv');
  await sleep(400);
  const fightIds = new Set((await tv.expectStatus(tv.get('/me', CK.ro), 200)).body.data.broadcasts.map((x: { id: string }) => x.id));
  expect(fight.received.length).toBeGreaterThan(0);
  for (const x of [...fight.received, ...fightReplays.received]) {
    const broadcast = x.json.data.broadcast as { id: string; channel: { slug: string } };
    expect(broadcast.channel.slug).toBe('fight-tv');
    expect(fightIds.has(broadcast.id)).toBe(true);
  }
  expect(rival.received.length).toBe(4);
  expect(rival.received.every((x) => (x.json.data.broadcast as { id: string }).id === theirs.id)).toBe(true);
});
