import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import type { BroadcastInput } from '../domain/channels/broadcast.input';
import { operator } from '../domain/channels/channel-access';
import { DEMO_RECORDS } from './demo-records';

const actor: Actor = { id: 'demo-seed' };

export interface DemoChannelKey {
  token: string;
  description: string;
}

/** The documented channel keys of docs/decisions.md#demo, plus one per go-live refusal. */
export const DEMO_CHANNEL_KEYS: readonly DemoChannelKey[] = [
  { token: 'ck_demo_rw', description: 'channel demo-tv (pro, active, 1 of 3 live slots in use): read broadcasts:write' },
  { token: 'ck_demo_ro', description: 'channel demo-tv: read only (403 insufficient_scope on writes)' },
  { token: 'ck_demo_other', description: 'channel ringside-network (broadcaster, trialing): both scopes; demo-tv broadcasts are 404 to it' },
  { token: 'ck_demo_free', description: 'channel garage-fights (free, active): ingest go-live is 403 plan_forbids_source' },
  { token: 'ck_demo_pastdue', description: 'channel late-night-bouts (pro, past_due): go-live is 402 billing_inactive' },
];

export const DEMO_STUDIO_USERS = [
  { email: 'owner@demo.tv', password: 'demo-owner-pass', role: 'owner' },
  { email: 'manager@demo.tv', password: 'demo-manager-pass', role: 'manager' },
  { email: 'editor@demo.tv', password: 'demo-editor-pass', role: 'editor' },
  { email: 'viewer@demo.tv', password: 'demo-viewer-pass', role: 'viewer' },
] as const;

const HOUR = 3_600_000;

/**
 * Channels on every plan and billing state (one not approved), their keys, studio users, and
 * broadcasts in every state and visibility, created through the domain services.
 */
export async function seedTvDemo(c: Container): Promise<void> {
  const ch = c.services.channels;
  const seeder = operator(actor);
  const channels = [
    {
      slug: 'demo-tv',
      name: 'Demo TV',
      plan: 'pro',
      billing: 'active',
      approve: true,
      keys: [
        ['ck_demo_rw', 'automation', ['read', 'broadcasts:write']],
        ['ck_demo_ro', 'dashboard', ['read']],
      ],
    },
    {
      slug: 'ringside-network',
      name: 'Ringside Network',
      plan: 'broadcaster',
      billing: 'trialing',
      approve: true,
      keys: [['ck_demo_other', 'automation', ['read', 'broadcasts:write']]],
    },
    {
      slug: 'garage-fights',
      name: 'Garage Fights',
      plan: 'free',
      billing: 'active',
      approve: true,
      keys: [['ck_demo_free', 'automation', ['read', 'broadcasts:write']]],
    },
    {
      slug: 'late-night-bouts',
      name: 'Late Night Bouts',
      plan: 'pro',
      billing: 'past_due',
      approve: true,
      keys: [['ck_demo_pastdue', 'automation', ['read', 'broadcasts:write']]],
    },
    { slug: 'closed-corner', name: 'Closed Corner', plan: 'free', billing: 'canceled', approve: true, keys: [] },
    { slug: 'pending-arena', name: 'Pending Arena', plan: 'broadcaster', billing: 'active', approve: false, keys: [] },
  ] as const;
  const ids: Record<string, string> = {};
  for (const spec of channels) {
    const channel = await ch.create(seeder, { slug: spec.slug, name: spec.name, plan: spec.plan, billing: spec.billing });
    if (spec.approve) await ch.approve(seeder, spec.slug);
    for (const [token, name, scopes] of spec.keys) await ch.createKey(seeder, { channelId: channel.id, name, scopes: [...scopes], fixedToken: token });
    ids[spec.slug] = channel.id;
  }
  for (const u of DEMO_STUDIO_USERS) {
    await c.services.studioUsers.create(seeder, u);
    await c.services.studioUsers.grant(seeder, { email: u.email, channelSlug: 'demo-tv', role: u.role });
  }
  await c.services.studioUsers.grant(seeder, { email: 'owner@demo.tv', channelSlug: 'ringside-network', role: 'viewer' });

  const now = c.clock.now().getTime();
  const at = (hours: number) => new Date(now + hours * HOUR);
  const b = c.services.broadcasts;
  const make = (channel: string, input: BroadcastInput, fixed?: { id?: string; slug?: string }) =>
    b.create(seeder, ids[channel], { language: 'en', discipline: 'kickboxing', ...input }, undefined, fixed);
  const live = async (channel: string, input: BroadcastInput) => await b.goLive(seeder, (await make(channel, input)).broadcast.id);
  const ended = async (channel: string, input: BroadcastInput) => b.end(seeder, (await live(channel, input)).id);

  // demo-tv: one live (1 of 3 slots), every visibility scheduled, a replay, an ingest awaiting its recording.
  await live('demo-tv', { title: 'Demo TV Fight Night: Live Main Card', source: 'ingest', scheduledAt: at(-1), tags: ['main-card', 'live'] });
  await make(
    'demo-tv',
    {
      title: 'Saturday Prelims',
      source: 'youtube',
      sourceUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      scheduledAt: at(26),
      tags: ['prelims'],
    },
    { slug: DEMO_RECORDS.broadcastSlug },
  );
  await make('demo-tv', {
    title: 'Members Only: Open Workout',
    source: 'hls',
    sourceUrl: 'https://stream.demo.tv/workout/index.m3u8',
    scheduledAt: at(50),
    visibility: 'followers',
  });
  // The documents' examples (demo-records.ts): the public page by slug above, the channel's operations by id here.
  await make(
    'demo-tv',
    { title: 'Title Fight (Pay-per-view)', source: 'ingest', scheduledAt: at(74), visibility: 'ppv', discipline: 'mma' },
    { id: DEMO_RECORDS.broadcastId },
  );
  await make('demo-tv', {
    title: 'Press Conference (unlisted)',
    source: 'vimeo',
    sourceUrl: 'https://vimeo.com/76979871',
    scheduledAt: at(20),
    visibility: 'unlisted',
  });
  await ended('demo-tv', {
    title: 'Last Week: Championship Replay',
    source: 'mp4',
    sourceUrl: 'https://cdn.demo.tv/replays/championship.mp4',
    scheduledAt: at(-170),
    discipline: 'muay-thai',
  });
  await ended('demo-tv', { title: 'Yesterday: Amateur Open (recording pending)', source: 'ingest', scheduledAt: at(-20), discipline: 'boxing' });
  // Other channels: their own schedules, so lists are not one channel's.
  await live('ringside-network', {
    title: 'Ringside Live: Boxing from London',
    source: 'hls',
    sourceUrl: 'https://live.ringside.example/london/master.m3u8',
    scheduledAt: at(-2),
    discipline: 'boxing',
  });
  await make('ringside-network', {
    title: 'Ringside Weekly Preview',
    source: 'youtube',
    sourceUrl: 'https://www.youtube.com/watch?v=abcdefghijk',
    scheduledAt: at(30),
  });
  await ended('ringside-network', {
    title: 'Ringside Classics: 1990s Knockouts',
    source: 'mp4',
    sourceUrl: 'https://cdn.ringside.example/classics.mp4',
    scheduledAt: at(-48),
  });
  await make('garage-fights', { title: 'Garage Fights: Sparring Night', source: 'ingest', scheduledAt: at(5), discipline: 'mma' });
  await make('garage-fights', { title: 'Garage Fights Highlights', source: 'mp4', sourceUrl: 'https://cdn.garage.example/highlights.mp4', scheduledAt: at(3) });
  await make('late-night-bouts', {
    title: 'Late Night Bouts #12',
    source: 'hls',
    sourceUrl: 'https://live.latenight.example/12/index.m3u8',
    scheduledAt: at(8),
  });
  await make('pending-arena', { title: 'Pending Arena Opening Night', source: 'youtube', sourceUrl: 'https://youtu.be/abcdefghijk', scheduledAt: at(12) });
}
