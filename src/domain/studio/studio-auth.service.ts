import type { Connection } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { StudioUser, type Role } from '../channels/channel.entities';
import { verifyPassword } from '../channels/password';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { generateToken, hashToken } from '../partners/api-key.token';
import type { ChangeFeed } from '../../db/change-feed';
import { VersionedCache } from '../../lib/versioned-cache';
import { announceChange } from '../announce-change';
import { inTransaction, sql } from '../unit-of-work';
import { StudioSession } from './studio-session.entity';

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
}

interface SessionRow {
  id: string;
  user_id: string;
  email: string;
  expires_at: Date;
  ended_at: Date | null;
  roles: [string, Role][];
}

/**
 * Studio sign-in and sessions; what a role may do is decided by channel-access.ts. A session and its roles are
 * cached by the token's hash until the `studio_sessions` topic changes (sign-in, sign-out, a
 * role granted), on every instance; expiry is checked on each request.
 */
export class StudioAuthService {
  private readonly sessions: VersionedCache<SessionRow | null>;

  constructor(
    private readonly root: EntityManager,
    private readonly connection: () => Connection,
    private readonly clock: Clock,
    cache: { changes: Pick<ChangeFeed, 'version' | 'live'>; fallbackTtlMs: number },
  ) {
    this.sessions = new VersionedCache({ feed: cache.changes, topics: ['studio_sessions'], fallbackTtlMs: cache.fallbackTtlMs, maxEntries: 10_000 });
  }

  async login(email: string, password: string): Promise<{ token: string; expiresAt: Date; userId: string }> {
    const em = this.root.fork();
    const user = await em.findOne(StudioUser, { email: String(email ?? '').trim().toLowerCase() });
    const ok = await verifyPassword(String(password ?? ''), user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) throw new DomainError('invalid_credentials', 'the email or the password is wrong');
    const token = generateToken('st');
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_HOURS * 3_600_000);
    await inTransaction(this.root, undefined, async (tx) => {
      // One sign-in at a time per user, so concurrent sign-ins cannot leave more than the cap alive.
      await sql(tx, `select id from studio_user where id = ? for update`, [user.id]);
      tx.persist(Object.assign(new StudioSession(), { user: tx.getReference(StudioUser, user.id), tokenHash: hashToken(token), expiresAt }));
      await tx.flush();
      await sql(tx,
        `update studio_session set ended_at = ? where id in (
           select id from studio_session where user_id = ? and ended_at is null and expires_at > ?
           order by created_at desc, id desc offset ?)`,
        [this.clock.now(), user.id, this.clock.now(), MAX_LIVE_SESSIONS]);
      await announceChange(tx, 'studio_sessions');
    });
    return { token, expiresAt, userId: user.id };
  }

  async logout(sessionId: string): Promise<void> {
    await inTransaction(this.root, undefined, async (em) => {
      await sql(em, `update studio_session set ended_at = now() where id = ? and ended_at is null`, [sessionId]);
      await announceChange(em, 'studio_sessions');
    });
  }

  /** A session's principal with its roles, as of the last change announced on `studio_sessions`. */
  async authenticate(token: string): Promise<StudioPrincipal> {
    const hash = hashToken(token);
    const s = await this.sessions.get(hash, () => this.lookup(hash));
    if (!s) throw new DomainError('invalid_key', 'the session is not recognised');
    if (s.ended_at) throw new DomainError('invalid_key', 'the session has ended (signed out, or ended by newer sign-ins)');
    if (new Date(s.expires_at) <= this.clock.now()) throw new DomainError('invalid_key', 'the session has expired: sign in again');
    return { kind: 'studio', sessionId: s.id, userId: s.user_id, email: s.email, roles: new Map(s.roles) };
  }

  private async lookup(hash: string): Promise<SessionRow | null> {
    const rows = await this.connection().execute<Omit<SessionRow, 'roles'>[]>(
      `select s.id, s.user_id, u.email, s.expires_at, s.ended_at from studio_session s join studio_user u on u.id = s.user_id where s.token_hash = ?`,
      [hash]);
    const s = rows[0];
    if (!s) return null;
    const members = (await this.connection().execute(
      `select channel_id, role from channel_member where user_id = ?`, [s.user_id])) as { channel_id: string; role: Role }[];
    return { ...s, roles: members.map((m) => [m.channel_id, m.role]) };
  }
}
