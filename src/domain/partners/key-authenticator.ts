import type { Connection } from '@mikro-orm/core';
import { LocalChangeFeed, type ChangeFeed } from '../../db/change-feed';
import { then, type Maybe } from '../../lib/maybe';
import { VersionedCache } from '../../lib/versioned-cache';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { hashToken } from './api-key.token';

export interface PartnerPrincipal {
  kind: 'partner';
  keyId: string;
  name: string;
  scopes: readonly string[];
  rateLimitPerMinute: number;
  expiresAt: Date | null;
  partner: { slug: string; name: string; status: string };
}

interface KeyRow {
  id: string;
  name: string;
  scopes: string[];
  rate_limit_per_minute: number;
  expires_at: Date | null;
  revoked_at: Date | null;
  partner_slug: string;
  partner_name: string;
  partner_status: string;
}

interface KnownKey {
  row: KeyRow;
  principal: PartnerPrincipal;
}

/** Tokens whose hash is remembered; the memory is cleared when full (a flood of made-up keys). */
const MAX_REMEMBERED_HASHES = 10_000;

/**
 * Resolves a partner key to a principal. Lookups, unknown keys included, are cached by the
 * token's SHA-256 until the `partner_keys` topic changes (a key issued or revoked, a partner
 * suspended or reinstated: at once on every instance), or for `fallbackTtlMs` while the change
 * feed is down. Request counts are batched and flushed every second so a hot key costs no write
 * per request.
 */
export class KeyAuthenticator {
  private readonly rows: VersionedCache<KnownKey | null>;
  private readonly hashes = new Map<string, string>();
  private readonly pendingCounts = new Map<string, number>();
  /** Each key's counter as the latest write of this instance returned it. */
  private readonly written = new Map<string, number>();
  /** Counts of the write under way, by key. */
  private readonly inFlight = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** The write of a flush under way: it holds counts already taken out of pendingCounts. */
  private writing: Promise<void> | null = null;

  constructor(
    private readonly connection: () => Connection,
    private readonly clock: Clock,
    fallbackTtlMs: number,
    changes: Pick<ChangeFeed, 'version' | 'live'> = new LocalChangeFeed(),
  ) {
    this.rows = new VersionedCache({ feed: changes, topics: ['partner_keys'], fallbackTtlMs, maxEntries: 10_000 });
  }

  private async lookup(hash: string): Promise<KnownKey | null> {
    const rows = await this.connection().execute<KeyRow[]>(
      `select k.id, k.name, k.scopes, k.rate_limit_per_minute, k.expires_at, k.revoked_at,
              p.slug as partner_slug, p.name as partner_name, p.status as partner_status
         from api_key k join partner p on p.id = k.partner_id where k.hash = ?`,
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    // One principal per cached row, shared by its requests (it is read, never changed).
    const principal: PartnerPrincipal = Object.freeze({
      kind: 'partner',
      keyId: row.id,
      name: row.name,
      scopes: Object.freeze([...row.scopes]),
      rateLimitPerMinute: row.rate_limit_per_minute,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
      partner: Object.freeze({ slug: row.partner_slug, name: row.partner_name, status: row.partner_status }),
    });
    return { row, principal };
  }

  /**
   * The key's principal: at once (or the 401 DomainError `invalid_key` thrown at once) when its
   * row is cached, else after the lookup (a rejected promise for an unknown or unusable key).
   */
  authenticate(token: string): Maybe<PartnerPrincipal> {
    // Keyed by the hash: a cache key is small whatever was sent; concurrent misses share one lookup.
    const hash = this.hashOf(token);
    return then(
      this.rows.get(hash, () => this.lookup(hash)),
      (known) => this.usable(known),
    );
  }

  private usable(known: KnownKey | null): PartnerPrincipal {
    if (!known) throw new DomainError('invalid_key', 'the API key is not recognised');
    const { row, principal } = known;
    if (row.revoked_at) throw new DomainError('invalid_key', 'the API key has been revoked');
    if (principal.expiresAt && principal.expiresAt <= this.clock.now()) throw new DomainError('invalid_key', 'the API key has expired');
    if (row.partner_status !== 'active') throw new DomainError('invalid_key', 'the API key is disabled because its partner account is suspended');
    return principal;
  }

  /** SHA-256 of the token, remembered for the tokens seen lately (a hot key is hashed once). */
  private hashOf(token: string): string {
    let hash = this.hashes.get(token);
    if (hash === undefined) {
      hash = hashToken(token);
      if (this.hashes.size >= MAX_REMEMBERED_HASHES) this.hashes.clear();
      this.hashes.set(token, hash);
    }
    return hash;
  }

  countRequest(keyId: string): void {
    this.pendingCounts.set(keyId, (this.pendingCounts.get(keyId) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch(() => undefined), 1000);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A timer flush may be writing right now: wait for it, or a reader (requestCount) would see
    // the database before those counts, this request's own among them, are in it.
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.pendingCounts.size === 0) return;
    const batch = [...this.pendingCounts];
    this.pendingCounts.clear();
    this.writing = this.write(batch).finally(() => {
      this.writing = null;
    });
    await this.writing;
  }

  private async write(batch: [string, number][]): Promise<void> {
    const ids = batch.map(([id]) => id);
    const counts = batch.map(([, n]) => n);
    for (const [id, n] of batch) this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + n);
    const landed = () => {
      for (const [id, n] of batch) this.inFlight.set(id, (this.inFlight.get(id) ?? 0) - n);
    };
    try {
      const rows = await this.connection().execute<{ id: string; n: string }[]>(
        `update api_key k set request_count = k.request_count + v.n, last_used_at = now()
           from unnest(?::uuid[], ?::int[]) as v(id, n) where k.id = v.id returning k.id, k.request_count as n`,
        [`{${ids.join(',')}}`, `{${counts.join(',')}}`],
      );
      for (const r of rows) this.written.set(r.id, Math.max(Number(r.n), this.written.get(r.id) ?? 0));
      landed();
    } catch (err) {
      landed();
      for (const [id, n] of batch) this.pendingCounts.set(id, (this.pendingCounts.get(id) ?? 0) + n);
      throw err;
    }
  }

  /**
   * Includes this request: the counter as this instance's latest write of it returned it, plus
   * the counts this instance has not written yet (no statement); before the first write of a key,
   * pending counts are flushed first. Other instances' requests appear with the next write (the
   * counts are flushed every second), as they would only once written in any case.
   */
  requestCount(keyId: string): Maybe<number> {
    return this.known(keyId) ?? this.flushedCount(keyId);
  }

  private async flushedCount(keyId: string): Promise<number> {
    await this.flush();
    const flushed = this.known(keyId);
    if (flushed !== undefined) return flushed;
    const rows = await this.connection().execute<{ n: string }[]>(`select request_count as n from api_key where id = ?`, [keyId]);
    return Number(rows[0]?.n ?? 0);
  }

  /** The count once this instance has written the key's counter (no statement); undefined before. */
  private known(keyId: string): number | undefined {
    const written = this.written.get(keyId);
    return written === undefined ? undefined : written + (this.inFlight.get(keyId) ?? 0) + (this.pendingCounts.get(keyId) ?? 0);
  }

  forget(): void {
    this.rows.clear();
  }
}
