import type { VersionedCacheOptions, VersionSource } from '../lib/versioned-cache';

/**
 * The change topic every partner read body depends on (fighters, events, results, licences,
 * rankings: everything the operator's workflow writes for partners). The readers' caches and the
 * fast path's answers are kept until it moves.
 */
export const PARTNER_READ_TOPICS = ['catalog'] as const;

/** Options of a cache of partner read bodies: valid until the catalog moves, or `fallbackTtlMs` while the feed is down. */
export function partnerReadCache(feed: VersionSource, fallbackTtlMs: number, maxEntries?: number): VersionedCacheOptions {
  return { feed, topics: PARTNER_READ_TOPICS, fallbackTtlMs, maxEntries };
}
