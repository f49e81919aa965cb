import type { Clock } from '../clock';
import type { DomainEvent } from '../domain-events';
import type { DomainError } from '../errors';
import { hashToken } from '../partners/api-key.token';
import type { Role } from './channel.entities';
import type { StudioPrincipal } from '../studio/studio-auth.service';
import type { Change, Transactional } from '../unit-of-work';
import { Broadcast, type BroadcastState, type Source } from './broadcast.entities';
import type { BroadcastInput } from './broadcast.input';
import type { BroadcastRepository } from './broadcast.repository';
import { BroadcastService } from './broadcast.service';
import { operator, type Principal } from './channel-access';
import type { ChannelPrincipal } from './channel-key-authenticator';
import { Channel, type BillingState, type Plan } from './channel.entities';

/**
 * BroadcastService's rules without a database: an in-memory repository, a clock that stands
 * still and the published events kept in a list. The PostgreSQL side (locks under concurrency,
 * constraints) is tested end to end in test/e2e/tv.
 */

class FakeBroadcastRepository implements BroadcastRepository {
  readonly channels = new Map<string, Channel>();
  readonly broadcasts = new Map<string, Broadcast>();
  readonly events: DomainEvent[] = [];
  readonly locked: string[] = [];
  announcements = 0;
  saves = 0;
  private added: Broadcast[] = [];

  async channel(id: string, options: { lock?: boolean } = {}): Promise<Channel | null> {
    if (options.lock) this.locked.push(`channel ${id}`);
    return this.channels.get(id) ?? null;
  }

  async channelIdOf(broadcastId: string): Promise<string | null> {
    return this.broadcasts.get(broadcastId)?.channel.id ?? null;
  }

  async broadcast(id: string, options: { channelId?: string; lock?: boolean } = {}): Promise<Broadcast | null> {
    const b = this.broadcasts.get(id);
    if (!b || (options.channelId && b.channel.id !== options.channelId)) return null;
    if (options.lock) this.locked.push(`broadcast ${id}`);
    return b;
  }

  async countLive(channelId: string): Promise<number> {
    return [...this.broadcasts.values()].filter((b) => b.channel.id === channelId && b.state === 'live').length;
  }

  add(broadcast: Broadcast): void {
    this.added.push(broadcast);
  }

  async save(): Promise<void> {
    for (const b of this.added) this.broadcasts.set(b.id, b);
    this.added = [];
    this.saves++;
  }

  async changed(change: Change): Promise<void> {
    this.events.push(...(change.events ?? []));
    if (change.topics?.includes('tv')) this.announcements++;
  }
}

const NOW = new Date('2030-06-01T12:00:00Z');
const clock: Clock = { now: () => new Date(NOW), today: () => NOW.toISOString().slice(0, 10) };

let repo: FakeBroadcastRepository;
let service: BroadcastService;
beforeEach(() => {
  repo = new FakeBroadcastRepository();
  const storage: Transactional<BroadcastRepository> = { run: (_tx, fn) => fn(repo), read: () => repo };
  service = new BroadcastService(storage, clock);
});

let serial = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;

function aChannel(plan: Plan = 'pro', billingState: BillingState = 'active'): Channel {
  const channel = Object.assign(new Channel(), { id: uuid(), slug: `channel-${serial}`, name: `Channel ${serial}`, plan, billingState });
  repo.channels.set(channel.id, channel);
  return channel;
}

function aBroadcast(channel: Channel, state: BroadcastState = 'scheduled', source: Source = 'mp4'): Broadcast {
  const b = Object.assign(new Broadcast(), {
    id: uuid(),
    slug: `b-${serial}`,
    channel,
    title: 'Fight Night',
    source,
    state,
    sourceUrl: source === 'ingest' ? null : 'https://cdn.example/fight.mp4',
    scheduledAt: new Date('2030-07-01T19:00:00Z'),
    streamKeyHash: source === 'ingest' ? hashToken('sk_original') : null,
  });
  repo.broadcasts.set(b.id, b);
  return b;
}

const keyOf = (channel: Channel, scopes: string[] = ['read', 'broadcasts:write']): ChannelPrincipal => ({
  kind: 'channel',
  keyId: uuid(),
  keyName: 'automation',
  keyPrefix: 'ck_test',
  channelId: channel.id,
  scopes,
});
const userWith = (role: Role, channel: Channel): StudioPrincipal => ({
  kind: 'studio',
  sessionId: uuid(),
  userId: uuid(),
  email: `${role}@example.com`,
  roles: new Map([[channel.id, role]]),
});
const op = operator({ id: 'test' });

const input = (fields: Partial<BroadcastInput> = {}): BroadcastInput => ({
  title: 'Berlin Open: finals',
  source: 'youtube',
  sourceUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  scheduledAt: new Date('2030-07-01T19:00:00Z'),
  ...fields,
});

/** The refusal's code and message, or 'ok'. */
async function refusal(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: DomainError) => `${e.code}: ${e.message}`,
  );
}
const codeOf = async (p: Promise<unknown>) => (await refusal(p)).split(':')[0];

describe('create', () => {
  it('applies the defaults, judges the values, and announces the new broadcast', async () => {
    const channel = aChannel();
    const { broadcast, streamKey } = await service.create(
      keyOf(channel),
      channel.id,
      input({ title: '  Berlin Open: finals ', tags: ['finals', 'berlin', 'finals'] }),
    );
    expect(broadcast).toMatchObject({
      channel,
      title: 'Berlin Open: finals',
      state: 'scheduled',
      visibility: 'public',
      language: 'en',
      discipline: null,
      tags: ['finals', 'berlin'],
    });
    expect(broadcast.slug).toMatch(/^berlin-open-finals-[0-9a-f]{8}$/);
    expect(streamKey).toBeUndefined();
    expect(repo.broadcasts.get(broadcast.id)).toBe(broadcast);
    expect(repo.events).toEqual([{ type: 'broadcast.scheduled', broadcastId: broadcast.id, channelId: channel.id }]);
    expect(repo.announcements).toBe(1);
  });

  it('refuses bad values with their codes, and saves nothing then', async () => {
    const channel = aChannel();
    const p = keyOf(channel);
    expect(await refusal(service.create(p, channel.id, input({ title: 'x'.repeat(141) })))).toMatch(/^invalid_title: "title" must be/);
    expect(await codeOf(service.create(p, channel.id, input({ title: 'Fight\u0000Night' })))).toBe('invalid_title');
    expect(await codeOf(service.create(p, channel.id, input({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) })))).toBe('invalid_tags');
    expect(await codeOf(service.create(p, channel.id, input({ tags: ['Main Card'] })))).toBe('invalid_tags');
    expect(await codeOf(service.create(p, channel.id, input({ language: 'EN' })))).toBe('invalid_language');
    expect(await codeOf(service.create(p, channel.id, input({ discipline: 'karate' as never })))).toBe('invalid_discipline');
    expect(await codeOf(service.create(p, channel.id, input({ visibility: 'private' as never })))).toBe('invalid_visibility');
    expect(await codeOf(service.create(p, channel.id, input({ scheduledAt: new Date(Number.NaN) })))).toBe('invalid_scheduled_at');
    expect(await refusal(service.create(p, channel.id, input({ sourceUrl: 'https://vimeo.com/123456789' })))).toMatch(/^invalid_source_url: .*for youtube/);
    expect(await refusal(service.create(p, channel.id, input({ sourceUrl: undefined })))).toBe('invalid_source_url: source_url is required for source youtube');
    expect(await codeOf(service.create(p, channel.id, input({ source: 'ingest' })))).toBe('invalid_source_url');
    // the first bad field in order answers
    expect(await codeOf(service.create(p, channel.id, input({ title: '', tags: ['BAD'] })))).toBe('invalid_title');
    expect([repo.broadcasts.size, repo.saves, repo.events, repo.announcements]).toEqual([0, 0, [], 0]);
  });

  it('gives an ingest broadcast a stream key, once, and no source URL', async () => {
    const channel = aChannel();
    const { broadcast, streamKey } = await service.create(keyOf(channel), channel.id, input({ source: 'ingest', sourceUrl: undefined }));
    expect(streamKey).toMatch(/^sk_/);
    expect(broadcast.streamKeyHash).toBe(hashToken(streamKey!));
    expect(broadcast.sourceUrl).toBeNull();
  });
});

describe('go-live', () => {
  it("takes a scheduled broadcast live under a lock on its channel, at the clock's time", async () => {
    const channel = aChannel();
    const b = aBroadcast(channel);
    const live = await service.goLive(keyOf(channel), b.id);
    expect(live).toMatchObject({ state: 'live', startedAt: NOW });
    expect(repo.locked).toEqual([`channel ${channel.id}`]);
    expect(repo.events).toEqual([{ type: 'broadcast.live', broadcastId: b.id, channelId: channel.id }]);
  });

  it('is refused when every live slot of the plan is in use (free 1, pro 3)', async () => {
    const free = aChannel('free');
    aBroadcast(free, 'live');
    expect(await refusal(service.goLive(keyOf(free), aBroadcast(free).id))).toBe('no_live_slot: all 1 live slots of the free plan are in use');
    const pro = aChannel('pro');
    const waiting = [aBroadcast(pro), aBroadcast(pro), aBroadcast(pro), aBroadcast(pro)];
    for (const b of waiting.slice(0, 3)) await service.goLive(keyOf(pro), b.id);
    expect(await codeOf(service.goLive(keyOf(pro), waiting[3].id))).toBe('no_live_slot');
    expect(waiting[3].state).toBe('scheduled');
    // another channel's live broadcasts take none of this one's slots
    const other = aChannel('free');
    expect((await service.goLive(keyOf(other), aBroadcast(other).id)).state).toBe('live');
  });

  it('is refused while billing is past due or canceled (trialing is fine)', async () => {
    for (const billing of ['past_due', 'canceled'] as const) {
      const channel = aChannel('pro', billing);
      expect(await refusal(service.goLive(keyOf(channel), aBroadcast(channel).id))).toBe(
        `billing_inactive: the channel's billing is ${billing}: settle it to go live`,
      );
    }
    const trialing = aChannel('pro', 'trialing');
    expect((await service.goLive(keyOf(trialing), aBroadcast(trialing).id)).state).toBe('live');
  });

  it('is refused for an ingest broadcast on the free plan (an external one may go live)', async () => {
    const free = aChannel('free');
    expect(await codeOf(service.goLive(keyOf(free), aBroadcast(free, 'scheduled', 'ingest').id))).toBe('plan_forbids_source');
    expect((await service.goLive(keyOf(free), aBroadcast(free, 'scheduled', 'hls').id)).state).toBe('live');
  });

  it('needs a scheduled broadcast', async () => {
    const channel = aChannel();
    for (const state of ['live', 'ended', 'replay'] as const) {
      expect(await refusal(service.goLive(keyOf(channel), aBroadcast(channel, state).id))).toBe(
        `invalid_state: only a scheduled broadcast can go live; this one is ${state}`,
      );
    }
    expect(repo.events).toEqual([]);
  });
});

describe('ending and replays', () => {
  it('an external broadcast becomes a replay of its source at once', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel, 'live', 'mp4');
    const ended = await service.end(keyOf(channel), b.id);
    expect(ended).toMatchObject({ state: 'replay', endedAt: NOW, replayUrl: 'https://cdn.example/fight.mp4' });
    expect(repo.events.map((e) => e.type)).toEqual(['broadcast.ended', 'replay.ready']);
    expect(repo.locked).toEqual([`broadcast ${b.id}`]);
  });

  it('an ingest broadcast stays ended until its recording is ready', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel, 'live', 'ingest');
    expect(await service.end(keyOf(channel), b.id)).toMatchObject({ state: 'ended', replayUrl: null });
    expect(repo.events.map((e) => e.type)).toEqual(['broadcast.ended']);
    expect(await service.recordingReady(b.id, 'https://cdn.example/rec.m3u8')).toMatchObject({ state: 'replay', replayUrl: 'https://cdn.example/rec.m3u8' });
    expect(repo.events.map((e) => e.type)).toEqual(['broadcast.ended', 'replay.ready']);
    expect(await codeOf(service.recordingReady(b.id, 'https://cdn.example/again.m3u8'))).toBe('invalid_state');
  });

  it('only a live broadcast ends', async () => {
    const channel = aChannel();
    for (const state of ['scheduled', 'ended', 'replay'] as const) {
      expect(await refusal(service.end(keyOf(channel), aBroadcast(channel, state).id))).toBe(
        `invalid_state: only a live broadcast can end; this one is ${state}`,
      );
    }
  });
});

describe('what each state may change', () => {
  it('while scheduled, any field', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel);
    const at = new Date('2030-08-01T18:00:00Z');
    const { broadcast } = await service.update(keyOf(channel), b.id, {
      title: 'New',
      source: 'hls',
      sourceUrl: 'https://cdn.example/live.m3u8',
      scheduledAt: at,
      visibility: 'ppv',
      discipline: 'mma',
      language: 'de',
      tags: ['x'],
    });
    expect(broadcast).toMatchObject({
      title: 'New',
      source: 'hls',
      sourceUrl: 'https://cdn.example/live.m3u8',
      scheduledAt: at,
      visibility: 'ppv',
      discipline: 'mma',
      language: 'de',
      tags: ['x'],
    });
    expect(repo.announcements).toBe(1);
  });

  it('once live or later, not the source, its URL nor the time; the rest still', async () => {
    const channel = aChannel();
    for (const state of ['live', 'ended', 'replay'] as const) {
      const b = aBroadcast(channel, state);
      expect(await refusal(service.update(keyOf(channel), b.id, { title: 'Kept?', sourceUrl: 'https://cdn.example/other.mp4', scheduledAt: new Date() }))).toBe(
        `invalid_state: a ${state} broadcast cannot change source_url, scheduled_at`,
      );
      expect(b.title).toBe('Fight Night');
      const { broadcast } = await service.update(keyOf(channel), b.id, {
        title: 'Renamed',
        visibility: 'unlisted',
        discipline: null,
        language: 'fr',
        tags: ['replay'],
      });
      expect(broadcast).toMatchObject({ title: 'Renamed', visibility: 'unlisted', discipline: null, language: 'fr', tags: ['replay'], state });
    }
  });

  it('an empty change is refused', async () => {
    const channel = aChannel();
    expect(await refusal(service.update(keyOf(channel), aBroadcast(channel).id, {}))).toBe('invalid_body: give at least one field to change');
  });
});

describe('stream keys', () => {
  it('only an ingest broadcast has one; rotating replaces it', async () => {
    const channel = aChannel();
    expect(await refusal(service.rotateStreamKey(keyOf(channel), aBroadcast(channel, 'scheduled', 'youtube').id))).toBe(
      'invalid_state: only an ingest broadcast has a stream key',
    );
    const ingest = aBroadcast(channel, 'live', 'ingest');
    const { streamKey } = await service.rotateStreamKey(keyOf(channel), ingest.id);
    expect(streamKey).toMatch(/^sk_/);
    expect(ingest.streamKeyHash).toBe(hashToken(streamKey!));
    expect(ingest.streamKeyHash).not.toBe(hashToken('sk_original'));
  });

  it('switching to ingest gives a key (and drops the URL); switching away takes it back', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel, 'scheduled', 'mp4');
    const toIngest = await service.update(keyOf(channel), b.id, { source: 'ingest' });
    expect(toIngest.streamKey).toMatch(/^sk_/);
    expect(b).toMatchObject({ source: 'ingest', sourceUrl: null, streamKeyHash: hashToken(toIngest.streamKey!) });
    expect(await codeOf(service.update(keyOf(channel), b.id, { sourceUrl: 'https://cdn.example/live.m3u8' }))).toBe('invalid_source_url');
    const away = await service.update(keyOf(channel), b.id, { source: 'hls', sourceUrl: 'https://cdn.example/live.m3u8' });
    expect(away.streamKey).toBeUndefined();
    expect(b).toMatchObject({ source: 'hls', streamKeyHash: null });
  });
});

describe('access (one rule for every door)', () => {
  const everyOperation = (p: Principal, id: string, channelId: string): Record<string, () => Promise<unknown>> => ({
    get: () => service.get(p, id),
    update: () => service.update(p, id, { title: 'Taken over' }),
    goLive: () => service.goLive(p, id),
    end: () => service.end(p, id),
    rotateStreamKey: () => service.rotateStreamKey(p, id),
    create: () => service.create(p, channelId, input()),
  });

  /** Each operation's outcome, one after the other. */
  async function outcomes(p: Principal, id: string, channelId: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [name, run] of Object.entries(everyOperation(p, id, channelId))) out[name] = await refusal(run());
    return out;
  }

  it("another channel's broadcast is not found to its key and to a user without a role there, like a missing one", async () => {
    const mine = aChannel();
    const theirs = aChannel();
    const b = aBroadcast(theirs, 'scheduled', 'ingest');
    const notFound = 'not_found: broadcast not found';
    for (const p of [keyOf(mine), userWith('owner', mine)]) {
      expect(await outcomes(p, b.id, theirs.id)).toEqual({
        get: notFound,
        update: notFound,
        goLive: notFound,
        end: notFound,
        rotateStreamKey: notFound,
        // creating on another channel: that channel is not found
        create: 'not_found: channel not found',
      });
      expect(await refusal(service.get(p, uuid()))).toBe(notFound);
    }
    expect(await refusal(service.get(keyOf(theirs), 'not-a-uuid'))).toBe(notFound);
    expect(b).toMatchObject({ state: 'scheduled', title: 'Fight Night' });
    expect(repo.locked).toEqual([]);
  });

  it('a viewer reads but may not write; an editor writes', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel, 'scheduled', 'ingest');
    const forbidden = 'forbidden: the viewer role cannot manage broadcasts on this channel';
    expect(await outcomes(userWith('viewer', channel), b.id, channel.id)).toEqual({
      get: 'ok',
      update: forbidden,
      goLive: forbidden,
      end: forbidden,
      rotateStreamKey: forbidden,
      create: forbidden,
    });
    expect(b.title).toBe('Fight Night');
    expect((await service.update(userWith('editor', channel), b.id, { title: 'By the editor' })).broadcast.title).toBe('By the editor');
  });

  it('a read-only key may not write (insufficient_scope), a write-only key may write; the operator may do anything', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel);
    expect(await refusal(service.goLive(keyOf(channel, ['read']), b.id))).toBe(
      'insufficient_scope: this endpoint needs the "broadcasts:write" scope; the key has: read',
    );
    expect(await codeOf(service.get(keyOf(channel, ['broadcasts:write']), b.id))).toBe('insufficient_scope');
    expect((await service.update(keyOf(channel, ['broadcasts:write']), b.id, { title: 'Written' })).broadcast.title).toBe('Written');
    expect((await service.goLive(op, b.id)).state).toBe('live');
  });

  it('who may act comes first: a refused caller learns nothing from its input', async () => {
    const channel = aChannel();
    const b = aBroadcast(channel);
    expect(await codeOf(service.update(userWith('viewer', channel), b.id, { title: '' }))).toBe('forbidden');
    expect(await codeOf(service.create(userWith('viewer', channel), channel.id, input({ title: '' })))).toBe('forbidden');
    expect(await codeOf(service.update(keyOf(aChannel()), b.id, { title: '' }))).toBe('not_found');
  });
});
