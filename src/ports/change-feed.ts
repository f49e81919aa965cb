/**
 * The change feed, a port the core declares for its edges (src/ports: what the domain asks of
 * storage, apart from both): what changed, told to every instance, so that caches depending on
 * the data are invalidated by the write itself rather than by a timer. The writer announces
 * topics inside its transaction (src/domain/unit-of-work.ts); the implementations live at the
 * database edge (src/db/change-feed.ts, the in-process feed and the NOTIFY SQL;
 * src/db/listen-change-feed.ts, LISTEN on PostgreSQL), which names this port in type-only
 * imports and imports nothing of the domain.
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

/**
 * Subjects: which row changed, for the studio's live subscriptions. Triggers send them on the same
 * channel as the topics, in the writer's transaction (so on commit only), with the payload
 * `live:<kind>:<channel id>:<id>` (migration Migration20261126020000_live_subjects):
 * - `broadcast`: a broadcast created or changed (id: the broadcast);
 * - `health`: a broadcast's telemetry reported by the media server (id: the broadcast);
 * - `delivery`: a channel endpoint's webhook delivery created, claimed or attempted (id: the delivery).
 * A listener that knows only topics ignores them (they are not topic names).
 */
export const SUBJECT_KINDS = ['broadcast', 'health', 'delivery'] as const;

export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export interface ChangedSubject {
  kind: SubjectKind;
  /** The channel the row belongs to: the one access rule is checked against it. */
  channelId: string;
  id: string;
}

export interface ChangeFeed {
  /** The local version of a topic: it only ever rises. */
  version(topic: ChangeTopic): number;
  /** Called on every change of the topic heard by this instance. Returns an unsubscribe. */
  on(topic: ChangeTopic, listener: () => void): () => void;
  /** Applies a change locally (what a notification does; also used by the writer's own instance). */
  bump(topic: ChangeTopic): void;
  /** Called with every subject heard by this instance (see SUBJECT_KINDS). Returns an unsubscribe. */
  onSubject(listener: (subject: ChangedSubject) => void): () => void;
  /** True while notifications are being received; caches use their fallback TTL otherwise. */
  readonly live: boolean;
  close(): Promise<void>;
}
