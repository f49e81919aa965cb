import type { VersionedCacheOptions, VersionSource } from '../lib/versioned-cache';
import { weightOfJson } from '../http/send-json';

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

/**
 * Byte budgets of the caches that keep partner bodies by URL or query (a crawl of distinct URLs
 * fills them): 48 MiB in all, so that the API process stays well under 300 MB RSS under any mix.
 */
export const PARTNER_BODY_BUDGETS = {
  keptAnswers: 16 * 1024 * 1024,
  catalogBodies: 16 * 1024 * 1024,
  catalogLists: 8 * 1024 * 1024,
  rankingBodies: 8 * 1024 * 1024,
} as const;

/** A partner body cache bounded by bytes as well as entries; `json` picks the body out of a value. */
export function partnerBodyCache<V>(
  feed: VersionSource,
  fallbackTtlMs: number,
  maxEntries: number,
  maxBytes: number,
  json: (value: V) => unknown,
): VersionedCacheOptions {
  return { ...partnerReadCache(feed, fallbackTtlMs, maxEntries), maxBytes, weigh: ((value: V) => weightOfJson(json(value))) as (value: never) => number };
}
