import { createHash } from 'node:crypto';
import { LIVE_SAFETY_TTL_MS, versionOf, type VersionSource } from '../lib/versioned-cache';

/**
 * Everything a studio answer is read from, as change-feed topics (src/db/change-feed.ts):
 * broadcasts and channels, channel keys and channels' plan and billing, users' roles, and the
 * studio-only data (telemetry, webhook endpoints, deliveries and attempts). Every writer of these
 * announces its topic inside its transaction.
 */
export const STUDIO_TOPICS = ['tv', 'channel_keys', 'studio_sessions', 'studio'] as const;

/** What one request may leave in the cache: filled in while its query runs. */
export interface AnswerSlot {
  readonly key: string;
  /** The topics' version when the request started: an answer is never newer than its data. */
  readonly version: number;
  /** Set once Apollo ran a query (not a mutation) without errors: only such answers are kept. */
  storable: boolean;
  /** The earliest moment (ms) the answer would change by time alone (health going stale), or null. */
  until: number | null;
}

interface Entry {
  version: number;
  at: number;
  until: number | null;
  body: string;
  contentType: string;
}

export interface AnswerCacheOptions {
  feed: VersionSource;
  /** Milliseconds, from the service's clock (tests inject it). */
  now: () => number;
  maxEntries?: number;
  /** The sum of the bodies kept, in characters; the least recently used go first. */
  maxChars?: number;
  /** A body larger than this is never kept. */
  maxEntryChars?: number;
}

/**
 * The studio's query answers, kept per user, document, variables and accepted media type until
 * the data they were read from changes (docs/adr/0006-studio-graphql.md): a dashboard polled
 * every few seconds is then served without running the query again. An answer is used only
 * while the change feed is live (a missed notification could otherwise hide a change), for at
 * most LIVE_SAFETY_TTL_MS, and never past the moment one of its health readings goes stale.
 */
export class StudioAnswerCache {
  private readonly map = new Map<string, Entry>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly maxEntryChars: number;

  constructor(private readonly opts: AnswerCacheOptions) {
    this.maxEntries = opts.maxEntries ?? 2_000;
    this.maxChars = opts.maxChars ?? 32 * 1024 * 1024;
    this.maxEntryChars = opts.maxEntryChars ?? 512 * 1024;
  }

  /** The slot of a request that may be answered from the cache, or null (not a single JSON operation). */
  slotFor(userId: string, body: unknown, accept: string | undefined): AnswerSlot | null {
    if (!this.opts.feed.live || typeof body !== 'object' || body === null) return null;
    const { query, variables, operationName } = body as Record<string, unknown>;
    if (typeof query !== 'string') return null;
    const key = createHash('sha256')
      .update(JSON.stringify([userId, accept ?? '', operationName ?? null, query, variables ?? null]))
      .digest('base64url');
    return { key, version: this.version(), storable: false, until: null };
  }

  get(slot: AnswerSlot): { body: string; contentType: string } | undefined {
    const hit = this.map.get(slot.key);
    if (!hit) return undefined;
    const now = this.opts.now();
    if (hit.version !== slot.version || !this.opts.feed.live || now - hit.at >= LIVE_SAFETY_TTL_MS || (hit.until !== null && now > hit.until)) {
      this.drop(slot.key);
      return undefined;
    }
    this.map.delete(slot.key);
    this.map.set(slot.key, hit);
    return hit;
  }

  /** Keeps a sent answer if its query said it may be kept and nothing changed since it started. */
  set(slot: AnswerSlot, body: string, contentType: string): void {
    if (!slot.storable || body.length > this.maxEntryChars || slot.version !== this.version() || !this.opts.feed.live) return;
    this.drop(slot.key);
    this.map.set(slot.key, { version: slot.version, at: this.opts.now(), until: slot.until, body, contentType });
    this.chars += body.length;
    while (this.map.size > this.maxEntries || this.chars > this.maxChars) this.drop(this.map.keys().next().value as string);
  }

  /** Lowers the slot's deadline to `at` (ms), if earlier. */
  static holdUntil(slot: AnswerSlot | null, at: number | null): void {
    if (slot && at !== null && (slot.until === null || at < slot.until)) slot.until = at;
  }

  get size(): number {
    return this.map.size;
  }

  private drop(key: string): void {
    const e = this.map.get(key);
    if (!e) return;
    this.chars -= e.body.length;
    this.map.delete(key);
  }

  private version(): number {
    return versionOf(this.opts.feed, STUDIO_TOPICS);
  }
}
