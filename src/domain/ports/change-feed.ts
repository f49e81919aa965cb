/**
 * The change feed, as the domain declares it (a port): what changed, told to every instance, so
 * that caches depending on the data are invalidated by the write itself rather than by a timer.
 * The writer announces topics inside its transaction (src/domain/unit-of-work.ts); the
 * implementations live at the database edge (src/db/change-feed.ts, the in-process feed and the
 * NOTIFY SQL; src/db/listen-change-feed.ts, LISTEN on PostgreSQL). No import: src/db implements
 * this with type-only imports, so the arrow between the two folders points one way.
 *
 * A topic names a family of cached answers. Each instance keeps a local version per topic, bumped
 * on every notification it hears; a cache stores the version it loaded under and reloads when the
 * version has moved. While notifications are not being received `live` is false and caches fall
 * back to a short, bounded TTL.
 */
export const CHANGE_TOPICS = [
  /** partner keys and partners (revocation, suspension, reinstatement, expiry changes) */
  'partner_keys',
  /** channel keys, channels' plan, billing and approval */
  'channel_keys',
  /** studio sessions and users */
  'studio_sessions',
  /** broadcasts and channels as the public TV schedules show them */
  'tv',
  /** what partners read: fighters, licences, events, results, ranking runs */
  'catalog',
  /** what only the studio shows besides the above: ingest telemetry, webhook endpoints, deliveries and their attempts */
  'studio',
] as const;

export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

export interface ChangeFeed {
  /** The local version of a topic: it only ever rises. */
  version(topic: ChangeTopic): number;
  /** Called on every change of the topic heard by this instance. Returns an unsubscribe. */
  on(topic: ChangeTopic, listener: () => void): () => void;
  /** Applies a change locally (what a notification does; also used by the writer's own instance). */
  bump(topic: ChangeTopic): void;
  /** True while notifications are being received; caches use their fallback TTL otherwise. */
  readonly live: boolean;
  close(): Promise<void>;
}
