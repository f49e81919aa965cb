import type { ChangeTopic } from '../../ports/change-feed';
import type { Actor } from '../audit/audit.log';
import type { DomainError } from '../errors';
import type { Change, Transactional } from '../unit-of-work';
import { operator } from './channel-access';
import { Channel, ChannelMember, StudioUser } from './channel.entities';
import { verifyPassword } from './password';
import type { StudioUserRepository } from './studio-user.repository';
import { StudioUserService } from './studio-user.service';

/** StudioUserService's rules on an in-memory repository (no database). */
class FakeStudioUserRepository implements StudioUserRepository {
  readonly users: StudioUser[] = [];
  readonly channels: Channel[] = [];
  readonly members: ChannelMember[] = [];
  readonly audits: string[] = [];
  readonly announced: ChangeTopic[] = [];
  private added: (StudioUser | ChannelMember)[] = [];

  async userByEmail(email: string) {
    return this.users.find((u) => u.email === email) ?? null;
  }
  async channelBySlug(slug: string) {
    return this.channels.find((c) => c.slug === slug) ?? null;
  }
  async member(user: StudioUser, channel: Channel) {
    return this.members.find((m) => m.user === user && m.channel === channel) ?? null;
  }
  add(entity: StudioUser | ChannelMember) {
    this.added.push(entity);
  }
  audit(actor: Actor, action: string, subject: string | null, data?: Record<string, unknown>) {
    this.audits.push(`${actor.id} ${action} ${subject} ${JSON.stringify(data ?? {})}`);
  }
  async save() {
    for (const e of this.added) (e instanceof StudioUser ? this.users : this.members).push(e as never);
    this.added = [];
  }
  async changed(change: Change) {
    this.announced.push(...(change.topics ?? []));
  }
}

const alice = operator({ id: 'operator:alice' });
let repo: FakeStudioUserRepository;
let service: StudioUserService;
beforeEach(() => {
  repo = new FakeStudioUserRepository();
  repo.channels.push(Object.assign(new Channel(), { slug: 'demo-tv', name: 'Demo TV' }));
  const storage: Transactional<StudioUserRepository> = { run: (_tx, fn) => fn(repo), read: () => repo };
  service = new StudioUserService(storage);
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: DomainError) => `${e.code}: ${e.message}`,
  );

describe('studio users', () => {
  it('are created with a lower-case email and a scrypt hash, audited as the operator; an email is taken once', async () => {
    const u = await service.create(alice, { email: ' Crew@Demo.TV ', password: 'crew-password-1' });
    expect(u.email).toBe('crew@demo.tv');
    expect(await verifyPassword('crew-password-1', u.passwordHash)).toBe(true);
    expect(repo.audits).toEqual(['operator:alice studio-users.create crew@demo.tv {}']);
    expect(await refusal(service.create(alice, { email: 'crew@demo.tv', password: 'another-password' }))).toBe(
      'conflict: a studio user "crew@demo.tv" already exists',
    );
  });

  it('need a valid email and a password of 10 to 200 characters', async () => {
    expect(await refusal(service.create(alice, { email: 'not-an-email', password: 'crew-password-1' }))).toBe(
      'invalid_email: a valid email address is required',
    );
    expect(await refusal(service.create(alice, { email: 'crew@demo.tv', password: 'short' }))).toBe(
      'invalid_password: the password must have 10 to 200 characters',
    );
    expect(repo.users).toHaveLength(0);
  });
});

describe('role grants', () => {
  beforeEach(async () => {
    await service.create(alice, { email: 'crew@demo.tv', password: 'crew-password-1' });
  });

  it('give a role on a channel, announced to the sessions cache; a second grant replaces it', async () => {
    const m = await service.grant(alice, { email: 'CREW@demo.tv', channelSlug: 'demo-tv', role: 'editor' });
    expect(m).toMatchObject({ role: 'editor', user: repo.users[0], channel: repo.channels[0] });
    expect(repo.announced).toEqual(['studio_sessions']);
    const again = await service.grant(alice, { email: 'crew@demo.tv', channelSlug: 'demo-tv', role: 'manager' });
    expect(again).toBe(m);
    expect(repo.members.map((x) => x.role)).toEqual(['manager']);
    expect(repo.audits.slice(1)).toEqual([
      'operator:alice studio-users.grant crew@demo.tv {"channel":"demo-tv","role":"editor"}',
      'operator:alice studio-users.grant crew@demo.tv {"channel":"demo-tv","role":"manager"}',
    ]);
  });

  it('refuse an unknown role, user or channel', async () => {
    expect(await refusal(service.grant(alice, { email: 'crew@demo.tv', channelSlug: 'demo-tv', role: 'admin' }))).toBe(
      'invalid_role: role must be one of owner, manager, editor, viewer',
    );
    expect(await refusal(service.grant(alice, { email: 'nobody@demo.tv', channelSlug: 'demo-tv', role: 'viewer' }))).toBe(
      'not_found: studio user "nobody@demo.tv" not found',
    );
    expect(await refusal(service.grant(alice, { email: 'crew@demo.tv', channelSlug: 'nowhere-tv', role: 'viewer' }))).toBe(
      'not_found: channel "nowhere-tv" not found',
    );
    expect(repo.members).toHaveLength(0);
    expect(repo.announced).toEqual([]);
  });
});
