import type { StudioPrincipal } from '../../../src/domain/studio/studio-auth.service';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';
import { actor, deliveriesOf, expandAll, registerEndpoint, seedBasics, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * A payload shows what its own transaction committed (docs/decisions.md#outbox), however late a
 * worker expands it: here no worker runs until every change is made, the slowest case there is.
 * And every delivery is dated by its change, so changes expanded in one batch keep their order
 * and stay apart for recovery's `[since, until)`.
 */

let t: TestApp;
let tv: TvClient;
let channelId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { ...TV_ENV, ...WEBHOOK_ENV } });
  await seedBasics(t.c);
  channelId = (await buildTvWorld(t.c)).channelIds.pro;
  tv = new TvClient(t.app);
});
afterAll(() => t?.close());

interface Stored {
  event: string;
  payload: { id: string; event: string; created_at: string; data: Record<string, any> };
  delivered_at: Date;
}

/** Every event stored for an endpoint, with its delivery's created_at, in the delivery log's order (newest first). */
async function storedFor(endpointId: string): Promise<Stored[]> {
  const log = await deliveriesOf(t.c, endpointId);
  const rows = await t.c.orm.em
    .getConnection()
    .execute<{ id: string; payload: string }[]>(`select id, payload from webhook_event where id = any(?::text[])`, [
      `{${log.map((d) => d.event_id).join(',')}}`,
    ]);
  const payloads = new Map(rows.map((r) => [r.id, JSON.parse(r.payload)]));
  return log.map((d) => ({ event: d.event, payload: payloads.get(d.event_id), delivered_at: d.created_at }));
}

it('a broadcast that goes live and ends before any worker runs sends broadcast.live saying live', async () => {
  const owner: StudioPrincipal = { kind: 'studio', sessionId: 's', userId: 'u', email: 'owner@fight.tv', roles: new Map([[channelId, 'owner']]) };
  const { endpoint } = await t.c.services.channelWebhooks.create(owner, channelId, {
    url: 'http://127.0.0.1:9/broadcasts',
    events: ['broadcast.scheduled', 'broadcast.live', 'broadcast.ended', 'replay.ready'],
  });
  const created = (
    await tv.expectStatus(
      tv.post('/broadcasts', CK.rw, {
        title: 'Blink Night',
        source: 'mp4',
        source_url: 'https://cdn.fight.tv/blink.mp4',
        scheduled_at: '2031-03-01T19:00:00Z',
      }),
      201,
    )
  ).body.data;
  await tv.expectStatus(tv.post(`/broadcasts/${created.id}/go-live`, CK.rw), 200);
  expect((await tv.expectStatus(tv.post(`/broadcasts/${created.id}/end`, CK.rw), 200)).body.data.state).toBe('replay');

  await expandAll(t.c);
  const stored = await storedFor(endpoint.id);
  const byEvent = new Map(stored.map((s) => [s.event, s.payload.data.broadcast]));
  expect(byEvent.get('broadcast.scheduled')).toMatchObject({ state: 'scheduled', started_at: null });
  expect(byEvent.get('broadcast.live')).toMatchObject({ state: 'live', ended_at: null, replay_url: null });
  expect(byEvent.get('broadcast.ended')!.state).toBe('replay');
  // Newest first in the log: the order the changes happened in, though one batch expanded them all.
  expect(stored.map((s) => s.event)).toEqual(['replay.ready', 'broadcast.ended', 'broadcast.live', 'broadcast.scheduled'].filter((e) => byEvent.has(e)));
  // Each delivery is dated by its change, as its payload is.
  for (const s of stored) expect(s.delivered_at.toISOString()).toBe(new Date(s.payload.created_at).toISOString());
  // The builders' key order survives storage (a jsonb column would have sorted the keys by length).
  expect(Object.keys(stored[0].payload.data.broadcast).slice(0, 3)).toEqual(['id', 'slug', 'channel']);
});

it('a licence issued then suspended before any worker runs sends licence.issued saying active', async () => {
  const endpoint = await registerEndpoint(t.c, 'http://127.0.0.1:9/licences', ['licence.issued', 'licence.suspended']);
  const { slug } = await t.c.services.fighters.register(actor, {
    name: 'Quick Change',
    countrySlug: 'germany',
    divisionId: 'kickboxing-pro-f-60kg',
    dateOfBirth: '1995-04-01',
    email: 'quick@fighters.example',
    phone: '+00 2',
    address: 'somewhere',
  });
  await t.c.services.fighters.issueLicence(actor, slug);
  await t.c.services.fighters.suspendLicence(actor, slug);

  await expandAll(t.c);
  const stored = await storedFor(endpoint.id);
  expect(stored.map((s) => s.event)).toEqual(['licence.suspended', 'licence.issued']);
  expect(stored[1].payload.data).toMatchObject({ status: 'licensed', licence_status: 'active' });
  expect(stored[0].payload.data).toMatchObject({ status: 'suspended', licence_status: 'suspended' });
  expect(stored[0].delivered_at.getTime()).toBeGreaterThanOrEqual(stored[1].delivered_at.getTime());
});
