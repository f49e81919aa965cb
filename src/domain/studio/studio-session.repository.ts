import type { EntityManager } from '@mikro-orm/postgresql';
import { StudioUser, type Role } from '../channels/channel.entities';
import { sql, transactional, type Change, type Changed, type Transactional, type UnitOfWork } from '../unit-of-work';
import { StudioSession } from './studio-session.entity';

/** A session as authentication reads it: its user's email and roles (channel id, role) with it. */
export interface SessionRecord {
  id: string;
  userId: string;
  email: string;
  expiresAt: Date;
  endedAt: Date | null;
  roles: [string, Role][];
}

/** What StudioAuthService asks of storage: only that. */
export interface StudioSessionRepository {
  /** A studio user by (lower-case) email, or null. */
  userByEmail(email: string): Promise<{ id: string; passwordHash: string } | null>;
  /** Locks the user's row until the transaction ends: one sign-in at a time per user. */
  lockUser(userId: string): Promise<void>;
  /** A new session, written at once. */
  addSession(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /** The ids of the user's live sessions (not ended, expiring after `now`), newest first. */
  liveSessions(userId: string, now: Date): Promise<string[]>;
  /** Ends these sessions at `at`. */
  endSessions(ids: string[], at: Date): Promise<void>;
  /** Ends a session now, if it has not ended yet. */
  endSession(sessionId: string): Promise<void>;
  /** A session by its token's hash, or null. */
  sessionByTokenHash(hash: string): Promise<SessionRecord | null>;
  /** States what the transaction changed (topics to announce); the unit of work runs the rest. */
  changed(change: Change): Promise<void>;
}

/** The repository on a transaction's EntityManager (or a fresh fork, for reads). */
export class MikroStudioSessionRepository implements StudioSessionRepository {
  constructor(
    private readonly em: EntityManager,
    readonly changed: Changed,
  ) {}

  async userByEmail(email: string): Promise<{ id: string; passwordHash: string } | null> {
    return this.em.findOne(StudioUser, { email });
  }

  async lockUser(userId: string): Promise<void> {
    await sql(this.em, `select id from studio_user where id = ? for update`, [userId]);
  }

  async addSession(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    this.em.persist(Object.assign(new StudioSession(), { user: this.em.getReference(StudioUser, userId), tokenHash, expiresAt }));
    await this.em.flush();
  }

  async liveSessions(userId: string, now: Date): Promise<string[]> {
    const rows = await sql<{ id: string }[]>(
      this.em,
      `select id from studio_session where user_id = ? and ended_at is null and expires_at > ? order by created_at desc, id desc`,
      [userId, now],
    );
    return rows.map((r) => r.id);
  }

  async endSessions(ids: string[], at: Date): Promise<void> {
    if (ids.length > 0) await sql(this.em, `update studio_session set ended_at = ? where id = any(?::uuid[])`, [at, `{${ids.join(',')}}`]);
  }

  async endSession(sessionId: string): Promise<void> {
    await sql(this.em, `update studio_session set ended_at = now() where id = ? and ended_at is null`, [sessionId]);
  }

  async sessionByTokenHash(hash: string): Promise<SessionRecord | null> {
    const [s] = await sql<{ id: string; user_id: string; email: string; expires_at: Date; ended_at: Date | null }[]>(
      this.em,
      `select s.id, s.user_id, u.email, s.expires_at, s.ended_at from studio_session s join studio_user u on u.id = s.user_id where s.token_hash = ?`,
      [hash],
    );
    if (!s) return null;
    const members = await sql<{ channel_id: string; role: Role }[]>(this.em, `select channel_id, role from channel_member where user_id = ?`, [s.user_id]);
    return {
      id: s.id,
      userId: s.user_id,
      email: s.email,
      expiresAt: new Date(s.expires_at),
      endedAt: s.ended_at && new Date(s.ended_at),
      roles: members.map((m) => [m.channel_id, m.role]),
    };
  }
}

/** StudioAuthService's storage on MikroORM. */
export function studioSessionStorage(uow: UnitOfWork): Transactional<StudioSessionRepository> {
  return transactional(uow, (em, changed) => new MikroStudioSessionRepository(em, changed));
}
