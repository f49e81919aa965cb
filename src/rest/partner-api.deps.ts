import type { EventQueries } from '../domain/catalog/events.queries';
import type { FighterQueries } from '../domain/catalog/fighters.queries';
import type { RankingQueries } from '../domain/catalog/rankings.queries';
import type { ReadContextProvider } from '../domain/catalog/read-context';
import type { ResultFeedQueries } from '../domain/catalog/result-feed.queries';
import type { VerificationQueries } from '../domain/catalog/verification.queries';
import type { KeyAuthenticator } from '../domain/partners/key-authenticator';
import type { AuthFailureGuard } from '../http/authenticate';
import type { Logger } from '../lib/logger';
import type { RateLimiter } from '../http/rate-limiter';
import type { VersionSource } from '../lib/versioned-cache';
import type { CatalogReader } from './catalog.reader';
import type { RankingsReader } from './rankings.reader';

export interface PartnerApiDeps {
  rankings: RankingQueries;
  fighters: FighterQueries;
  events: EventQueries;
  results: ResultFeedQueries;
  verification: VerificationQueries;
  readContext: ReadContextProvider;
  keys: KeyAuthenticator;
  limiter: RateLimiter;
  authFailures: AuthFailureGuard;
  logger: Logger;
  publicUrl: string;
  /** How stale a cached body may be, in ms, against writers this instance cannot hear (0 in tests). */
  readCacheTtlMs: number;
  openApiJson: string;
  /** Rendered /rankings and /divisions bodies, shared with the fast path. */
  reader: RankingsReader;
  /** Rendered fighter, event, result and verification bodies, shared with the fast path. */
  catalog: CatalogReader;
  /** The versions the read caches are kept by (the fast path keeps whole answers by them too). */
  changes: VersionSource;
}
