import type { ChangeTopic } from '../../ports/change-feed';
import type { Actor } from '../audit/audit.log';
import type { Clock } from '../clock';
import type { DomainError } from '../errors';
import type { StudioPrincipal } from '../studio/studio-auth.service';
import type { Change, Transactional } from '../unit-of-work';
import { operator } from './channel-access';
import { Channel, ChannelApiKey, type Role } from './channel.entities';
import type { ChannelRepository } from './channel.repository';
import { ChannelService, MAX_ACTIVE_KEYS_PER_CHANNEL } from './channel.service';

/** ChannelService's key rules on an in-memory repository (no database). */
class FakeChannelRepository implements ChannelRepository {
  readonly channels: Channel[] = [];
  readonly keys: ChannelApiKey[] = [];
  readonly audits: string[] = [];
  readonly announced: ChangeTopic[] = [];
  readonly locked: string[] = [];
  private added: (Channel | ChannelApiKey)[] = [];

  async bySlug(slug: string) {
    return this.channels.find((c) => c.slug === slug) ?? null;
  }
  async byId(id: string, options: { lock?: boolean } = {}) {
    if (options.lock) this.locked.push(id);
    return this.channels.find((c) => c.id === id) ?? null;
  }
  async all() {
    return [...this.channels].sort((a, b) => a.slug.localeCompare(b.slug));
  }
  async countActiveKeys(channelId: string) {
    return this.keys.filter((k) => k.channel.id === channelId && !k.revokedAt).length;
  }
  async key(channelId: string, keyId: string) {
    return this.keys.find((k) => k.id === keyId && k.channel.id === channelId) ?? null;
  }
  add(entity: Channel | ChannelApiKey) {
    this.added.push(entity);
  }
  audit(actor: Actor, action: string, subject: string | null) {
    this.audits.push(`${actor.id} ${action} ${subject}`);
  }
  async save() {
    for (const e of this.added) (e instanceof Channel ? this.channels : this.keys).push(e as never);
    this.added = [];
  }
  async changed(change: Change) {
    this.announced.push(...(change.topics ?? []));
  }
}

const NOW = new Date('2030-06-01T12:00:00Z');
const clock: Clock = { now: () => new Date(NOW), today: () => '2030-06-01' };
let repo: FakeChannelRepository;
let service: ChannelService;
let channel: Channel;
beforeEach(async () => {
  repo = new FakeChannelRepository();
  const storage: Transactional<ChannelRepository> = { run: (_tx, fn) => fn(repo), read: () => repo };
  service = new ChannelService(storage, clock);
  channel = await service.create(operator({ id: 'operator:alice' }), { slug: 'demo-tv', name: 'Demo TV', plan: 'pro' });
});

const user = (role: Role, channelId = channel.id): StudioPrincipal => ({
  kind: 'studio',
  sessionId: 's',
  userId: `user-${role}`,
  email: `${role}@demo.tv`,
  roles: new Map([[channelId, role]]),
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: DomainError) => `${e.code}: ${e.message}`,
  );

describe('channel keys', () => {
  it('a manager creates one, shown once: audited as studio:<email>, made by the user, announced', async () => {
    const { key, token } = await service.createKey(user('manager'), {
      channelId: channel.id,
      name: ' automation ',
      scopes: ['read', 'read', 'broadcasts:write'],
    });
    expect(token).toMatch(/^ck_/);
    expect(key).toMatchObject({ channel, name: 'automation', scopes: ['read', 'broadcasts:write'], createdBy: 'user-manager' });
    expect(repo.locked).toEqual([channel.id]);
    expect(repo.audits).toEqual(['operator:alice channels.create demo-tv', `studio:manager@demo.tv channel-keys.create ${key.id}`]);
    expect(repo.announced).toEqual(['channel_keys']);
  });

  it(`at most ${MAX_ACTIVE_KEYS_PER_CHANNEL} active keys; a revoked one frees its place`, async () => {
    const op = operator({ id: 'demo-seed' });
    const keys = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS_PER_CHANNEL; i++)
      keys.push((await service.createKey(op, { channelId: channel.id, name: `k${i}`, scopes: ['read'] })).key);
    expect(await refusal(service.createKey(op, { channelId: channel.id, name: 'one more', scopes: ['read'] }))).toBe(
      `too_many_keys: the channel already has ${MAX_ACTIVE_KEYS_PER_CHANNEL} active keys, the most allowed is ${MAX_ACTIVE_KEYS_PER_CHANNEL}: revoke one first`,
    );
    expect((await service.revokeKey(op, channel.id, keys[0].id)).revokedAt).toEqual(NOW);
    expect(await refusal(service.createKey(op, { channelId: channel.id, name: 'one more', scopes: ['read'] }))).toBe('ok');
    expect(keys[1].createdBy).toBeNull();
  });

  it("editors and viewers may not; a user without a role there, or another channel's key, finds nothing", async () => {
    const { key } = await service.createKey(user('owner'), { channelId: channel.id, name: 'k', scopes: ['read'] });
    expect(await refusal(service.createKey(user('editor'), { channelId: channel.id, name: 'k', scopes: ['read'] }))).toBe(
      'forbidden: the editor role cannot manage keys on this channel',
    );
    expect(await refusal(service.revokeKey(user('viewer'), channel.id, key.id))).toBe('forbidden: the viewer role cannot manage keys on this channel');
    expect(await refusal(service.revokeKey(user('owner', 'another-channel'), channel.id, key.id))).toBe('not_found: channel not found');
    const other = await service.create(operator({ id: 'operator:alice' }), { slug: 'other-tv', name: 'Other TV' });
    expect(await refusal(service.revokeKey(operator({ id: 'operator:alice' }), other.id, key.id))).toBe('not_found: key not found');
    expect(key.revokedAt).toBeNull();
  });

  it('a channel key manages no keys, not even on its own channel', async () => {
    const principal = {
      kind: 'channel' as const,
      keyId: 'k',
      keyName: 'automation',
      keyPrefix: 'ck_x',
      channelId: channel.id,
      scopes: ['read', 'broadcasts:write'],
    };
    expect(await refusal(service.createKey(principal, { channelId: channel.id, name: 'k', scopes: ['read'] }))).toMatch(
      /^forbidden: a channel key cannot manage keys/,
    );
  });
});
