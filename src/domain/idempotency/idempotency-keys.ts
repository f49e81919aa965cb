import type { Connection } from '@mikro-orm/core';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { DomainError } from '../errors';

/**
 * Idempotency keys with Stripe's semantics (docs/decisions.md#idempotency): a client sends
 * `Idempotency-Key` with a write; the first request with a key runs and its answer is kept for
 * 24 hours under the credential that sent it (`scope`) with a hash of the request; a repeat of
 * the same request gets the kept answer again, a different request with the same key is refused
 * (`idempotency_key_reused`), and a repeat while the first is still running is refused
 * (`idempotency_key_in_progress`: retry shortly). Only answers the operation gave are kept: a
 * refusal or failure frees the key, so the retry runs (services are transactional: nothing was
 * changed). Kept answers can hold secrets shown once (a stream key, a new key's token): they are
 * encrypted (AES-256-GCM) with a key derived from the credential that sent the request, which the
 * database never holds (only its hash), so the table alone reveals nothing and only the same
 * credential can be answered with them.
 */
export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request that held its key this long without finishing is taken to have died: the key is free again. */
export const IDEMPOTENCY_STALE_MS = 60_000;
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface KeptAnswer {
  status: number;
  /** Headers that matter to the client (`Location`), as a flat list. */
  headers: string[];
  /** The body, as JSON text. */
  body: string;
}

export type Begun = { kind: 'new' } | { kind: 'replay'; answer: KeptAnswer };

/** The header's value, checked: 1 to 255 visible ASCII characters. */
export function checkIdempotencyKey(raw: string | string[] | undefined): string {
  const value = Array.isArray(raw) ? raw.join(', ') : (raw ?? '');
  if (value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(value)) {
    throw new DomainError('invalid_idempotency_key', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID is a good choice)`);
  }
  return value;
}

/** The hash of what makes a request the same request: method, path with query, credential scope and body. */
export function requestHash(method: string, url: string, scope: string, body: string): string {
  return createHash('sha256')
    .update(JSON.stringify([method, url, scope, body]))
    .digest('hex');
}

function keyFor(credential: string, scope: string): Buffer {
  return Buffer.from(hkdfSync('sha256', credential, 'svc-idempotency-v1', scope, 32));
}

function seal(answer: KeptAnswer, credential: string, scope: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(credential, scope), iv);
  const ct = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

function open(sealed: string, credential: string, scope: string): KeptAnswer {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(credential, scope), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as KeptAnswer;
}

interface Row {
  request_hash: string;
  state: 'in_progress' | 'done';
  answer: string | null;
}

export class IdempotencyKeys {
  private lastPurge = 0;

  constructor(
    private readonly connection: () => Connection,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes the key for this request, or says what was answered under it. Throws
   * `idempotency_key_reused` (another request used the key) or `idempotency_key_in_progress`.
   */
  async begin(scope: string, key: string, hash: string, credential: string): Promise<Begun> {
    const conn = this.connection();
    const now = this.clock.now();
    await this.purgeNowAndThen(now);
    for (let attempt = 0; attempt < 2; attempt++) {
      // An expired key, or one whose first request died mid-way, is free again.
      await conn.execute(`delete from idempotency_key where scope = ? and key = ? and (expires_at <= ? or (state = 'in_progress' and locked_at <= ?))`, [
        scope,
        key,
        now,
        new Date(now.getTime() - IDEMPOTENCY_STALE_MS),
      ]);
      const taken = await conn.execute<{ key: string }[]>(
        `insert into idempotency_key (scope, key, request_hash, state, locked_at, created_at, expires_at)
         values (?, ?, ?, 'in_progress', ?, ?, ?) on conflict do nothing returning key`,
        [scope, key, hash, now, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS)],
      );
      if (taken.length > 0) return { kind: 'new' };
      const [row] = await conn.execute<Row[]>(`select request_hash, state, answer from idempotency_key where scope = ? and key = ?`, [scope, key]);
      if (!row) continue; // freed between the two statements: take it now
      if (row.request_hash !== hash) {
        throw new DomainError(
          'idempotency_key_reused',
          'this Idempotency-Key was used with a different request (method, path or body); use a new key for a new request',
        );
      }
      if (row.state === 'in_progress' || !row.answer) {
        throw new DomainError('idempotency_key_in_progress', 'a request with this Idempotency-Key is still being processed; retry shortly');
      }
      return { kind: 'replay', answer: open(row.answer, credential, scope) };
    }
    throw new DomainError('idempotency_key_in_progress', 'a request with this Idempotency-Key is still being processed; retry shortly');
  }

  /** Keeps the answer of the request that took the key. */
  async complete(scope: string, key: string, answer: KeptAnswer, credential: string): Promise<void> {
    await this.connection().execute(`update idempotency_key set state = 'done', answer = ?, locked_at = null where scope = ? and key = ?`, [
      seal(answer, credential, scope),
      scope,
      key,
    ]);
  }

  /** Frees the key of a request that was refused or failed: a retry runs it again. */
  async release(scope: string, key: string): Promise<void> {
    await this.connection().execute(`delete from idempotency_key where scope = ? and key = ? and state = 'in_progress'`, [scope, key]);
  }

  /** Deletes every expired key; returns how many. */
  async purgeExpired(now = this.clock.now()): Promise<number> {
    const rows = await this.connection().execute<{ n: number }[]>(
      `with gone as (delete from idempotency_key where expires_at <= ? returning 1) select count(*)::int as n from gone`,
      [now],
    );
    return rows[0]?.n ?? 0;
  }

  private async purgeNowAndThen(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    await this.purgeExpired(now);
  }
}
