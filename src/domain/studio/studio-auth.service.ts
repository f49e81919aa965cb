import type { Role } from '../channels/channel.entities';
import { verifyPassword } from '../channels/password';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { generateToken, hashToken } from '../partners/api-key.token';
import type { ChangeFeed } from '../../ports/change-feed';
import { VersionedCache } from '../../lib/versioned-cache';
import type { Transactional } from '../unit-of-work';
import type { SessionRecord, StudioSessionRepository } from './studio-session.repository';

export const SESSION_HOURS = 12;
/**
 * Live (not ended, not expired) sessions a user may hold. Signing in once more ends the oldest
 * ones, like GitHub or Google do: a user who lost a token can always sign in again, and the
 * per-session rate limit cannot be multiplied by opening sessions without end.
 */
export const MAX_LIVE_SESSIONS = 20;
// A real scrypt hash of a random password: unknown emails cost the same time as known ones.
const DUMMY_HASH = 'scrypt$16384$8$1$YksZl8rwP1vHGkCs7NXdcw$f-dxfj1hORilNmaa---hcYJQ2nFcE-3xgq1OM-z8mzElUjj_g_QAaQZHqZiZU8Ww7gtfA-97VZlRyKxDeifiDw';

export interface StudioPrincipal {
  kind: 'studio';
  sessionId: string;
  userId: string;
  email: string;
  /** channel id -> role */
  roles: ReadonlyMap<string, Role>;
  /** When the session expires (a live subscription's socket is closed then). */
  expiresAt?: Date;
}

/**
 * Studio sign-in and sessions; what a role may do is decided by channel-access.ts. A session and its roles are
 * cached by the token's hash until the `studio_sessions` topic changes (sign-in, sign-out, a
 * role granted), on every instance; expiry is checked on each request.
 */
export class StudioAuthService {
  private readonly sessions: VersionedCache<SessionRecord | null>;

  constructor(
    private readonly storage: Transactional<StudioSessionRepository>,
    private readonly clock: Clock,
    cache: { changes: Pick<ChangeFeed, 'version' | 'live'>; fallbackTtlMs: number },
  ) {
    this.sessions = new VersionedCache({ feed: cache.changes, topics: ['studio_sessions'], fallbackTtlMs: cache.fallbackTtlMs, maxEntries: 10_000 });
  }

  async login(email: string, password: string): Promise<{ token: string; expiresAt: Date; userId: string }> {
    const user = await this.storage.read().userByEmail(
      String(email ?? '')
        .trim()
        .toLowerCase(),
    );
    const ok = await verifyPassword(String(password ?? ''), user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) throw new DomainError('invalid_credentials', 'the email or the password is wrong');
    const token = generateToken('st');
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_HOURS * 3_600_000);
    await this.storage.run(undefined, async (repo) => {
      // One sign-in at a time per user, so concurrent sign-ins cannot leave more than the cap alive.
      await repo.lockUser(user.id);
      await repo.addSession(user.id, hashToken(token), expiresAt);
      const now = this.clock.now();
      // the newest MAX_LIVE_SESSIONS stay (this one among them); the older ones end
      await repo.endSessions((await repo.liveSessions(user.id, now)).slice(MAX_LIVE_SESSIONS), now);
      await repo.changed({ topics: ['studio_sessions'] });
    });
    return { token, expiresAt, userId: user.id };
  }

  async logout(sessionId: string): Promise<void> {
    await this.storage.run(undefined, async (repo) => {
      await repo.endSession(sessionId);
      await repo.changed({ topics: ['studio_sessions'] });
    });
  }

  /** A session's principal with its roles, as of the last change announced on `studio_sessions`. */
  async authenticate(token: string): Promise<StudioPrincipal> {
    const hash = hashToken(token);
    const s = await this.sessions.get(hash, () => this.storage.read().sessionByTokenHash(hash));
    if (!s) throw new DomainError('invalid_key', 'the session is not recognised');
    if (s.endedAt) throw new DomainError('invalid_key', 'the session has ended (signed out, or ended by newer sign-ins)');
    if (s.expiresAt <= this.clock.now()) throw new DomainError('invalid_key', 'the session has expired: sign in again');
    return { kind: 'studio', sessionId: s.id, userId: s.userId, email: s.email, roles: new Map(s.roles), expiresAt: s.expiresAt };
  }
}
