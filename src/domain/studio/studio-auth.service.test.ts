import type { Role } from '../channels/channel.entities';
import { hashPassword } from '../channels/password';
import type { Clock } from '../clock';
import type { DomainError } from '../errors';
import type { Change, Transactional } from '../unit-of-work';
import { MAX_LIVE_SESSIONS, SESSION_HOURS, StudioAuthService } from './studio-auth.service';
import type { SessionRecord, StudioSessionRepository } from './studio-session.repository';

/** StudioAuthService's rules on an in-memory repository (no database); the row lock under concurrency is tested end to end. */
class FakeStudioSessionRepository implements StudioSessionRepository {
  readonly users = new Map<string, { id: string; email: string; passwordHash: string; roles: [string, Role][] }>();
  readonly sessions: { id: string; userId: string; tokenHash: string; expiresAt: Date; endedAt: Date | null }[] = [];
  readonly locked: string[] = [];
  announcements = 0;

  async userByEmail(email: string) {
    return [...this.users.values()].find((u) => u.email === email) ?? null;
  }
  async lockUser(userId: string) {
    this.locked.push(userId);
  }
  async addSession(userId: string, tokenHash: string, expiresAt: Date) {
    this.sessions.push({ id: `s${this.sessions.length + 1}`, userId, tokenHash, expiresAt, endedAt: null });
  }
  async liveSessions(userId: string, now: Date) {
    return this.sessions
      .filter((s) => s.userId === userId && !s.endedAt && s.expiresAt > now)
      .map((s) => s.id)
      .reverse();
  }
  async endSessions(ids: string[], at: Date) {
    for (const s of this.sessions) if (ids.includes(s.id)) s.endedAt = at;
  }
  async endSession(sessionId: string) {
    for (const s of this.sessions) if (s.id === sessionId && !s.endedAt) s.endedAt = new Date();
  }
  async sessionByTokenHash(hash: string): Promise<SessionRecord | null> {
    const s = this.sessions.find((x) => x.tokenHash === hash);
    if (!s) return null;
    const u = [...this.users.values()].find((x) => x.id === s.userId)!;
    return { id: s.id, userId: u.id, email: u.email, expiresAt: s.expiresAt, endedAt: s.endedAt, roles: u.roles };
  }
  async changed(change: Change) {
    if (change.topics?.includes('studio_sessions')) this.announcements++;
  }
}

let now: Date;
const clock: Clock = { now: () => new Date(now), today: () => now.toISOString().slice(0, 10) };
let repo: FakeStudioSessionRepository;
let auth: StudioAuthService;
beforeAll(async () => {
  repo = new FakeStudioSessionRepository();
  repo.users.set('u1', { id: 'u1', email: 'owner@demo.tv', passwordHash: await hashPassword('owner-password'), roles: [['channel-1', 'owner']] });
});
beforeEach(() => {
  now = new Date('2030-06-01T12:00:00Z');
  repo.sessions.length = 0;
  repo.locked.length = 0;
  repo.announcements = 0;
  const storage: Transactional<StudioSessionRepository> = { run: (_tx, fn) => fn(repo), read: () => repo };
  // no change feed and no cache: every authentication reads the (fake) storage
  auth = new StudioAuthService(storage, clock, { changes: { version: () => 0, live: false }, fallbackTtlMs: 0 });
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: DomainError) => `${e.code}: ${e.message}`,
  );

describe('sign-in', () => {
  it('gives a token valid 12 hours whose principal carries the roles; the user is locked, sessions announced', async () => {
    const s = await auth.login(' Owner@Demo.TV ', 'owner-password');
    expect(s.token).toMatch(/^st_/);
    expect(s.expiresAt).toEqual(new Date(now.getTime() + SESSION_HOURS * 3_600_000));
    const p = await auth.authenticate(s.token);
    expect(p).toMatchObject({ kind: 'studio', userId: 'u1', email: 'owner@demo.tv' });
    expect([...p.roles]).toEqual([['channel-1', 'owner']]);
    expect(repo.locked).toEqual(['u1']);
    expect(repo.announcements).toBe(1);
  });

  it('a wrong password and an unknown email answer the same invalid_credentials', async () => {
    const expected = 'invalid_credentials: the email or the password is wrong';
    expect(await refusal(auth.login('owner@demo.tv', 'not-the-password'))).toBe(expected);
    expect(await refusal(auth.login('nobody@demo.tv', 'owner-password'))).toBe(expected);
    expect(await refusal(auth.login(undefined as never, undefined as never))).toBe(expected);
    expect(repo.sessions).toHaveLength(0);
  });
});

describe(`the cap of ${MAX_LIVE_SESSIONS} live sessions`, () => {
  it('a new sign-in ends the oldest live session, and only it', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) tokens.push((await auth.login('owner@demo.tv', 'owner-password')).token);
    for (const t of tokens) expect(await refusal(auth.authenticate(t))).toBe('ok');
    const newest = (await auth.login('owner@demo.tv', 'owner-password')).token;
    expect(await refusal(auth.authenticate(tokens[0]))).toBe('invalid_key: the session has ended (signed out, or ended by newer sign-ins)');
    for (const t of [...tokens.slice(1), newest]) expect(await refusal(auth.authenticate(t))).toBe('ok');
    expect(repo.sessions.filter((s) => s.endedAt)).toEqual([expect.objectContaining({ id: 's1', endedAt: now })]);
  });

  it('expired and signed-out sessions do not count', async () => {
    const login = async () => (await auth.login('owner@demo.tv', 'owner-password')).token;
    await auth.logout((await auth.authenticate(await login())).sessionId);
    const first: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) first.push(await login());
    for (const t of first) expect(await refusal(auth.authenticate(t))).toBe('ok');
    now = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
    const second: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) second.push(await login());
    for (const t of second) expect(await refusal(auth.authenticate(t))).toBe('ok');
    expect(repo.sessions.filter((s) => s.endedAt).map((s) => s.id)).toEqual(['s1']);
  });
});

describe('a session', () => {
  it('is refused once expired', async () => {
    const { token } = await auth.login('owner@demo.tv', 'owner-password');
    now = new Date(now.getTime() + SESSION_HOURS * 3_600_000 - 1);
    expect(await refusal(auth.authenticate(token))).toBe('ok');
    now = new Date(now.getTime() + 1);
    expect(await refusal(auth.authenticate(token))).toBe('invalid_key: the session has expired: sign in again');
  });

  it('ends with logout (announced); an unknown token is not recognised', async () => {
    const { token } = await auth.login('owner@demo.tv', 'owner-password');
    await auth.logout((await auth.authenticate(token)).sessionId);
    expect(repo.announcements).toBe(2);
    expect(await refusal(auth.authenticate(token))).toBe('invalid_key: the session has ended (signed out, or ended by newer sign-ins)');
    expect(await refusal(auth.authenticate('st_unknown'))).toBe('invalid_key: the session is not recognised');
  });
});
