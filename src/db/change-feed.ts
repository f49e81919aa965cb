/**
 * What changed, told to every instance: the writer NOTIFYs inside its transaction (PostgreSQL
 * delivers it on commit, never on rollback) and every instance LISTENs, so caches that depend on
 * the data are invalidated by the write itself rather than by a timer.
 *
 * A topic names a family of cached answers. Each instance keeps a local version per topic, bumped
 * on every notification it hears; a cache stores the version it loaded under and reloads when the
 * version has moved. While the LISTEN connection is down (or before it is up) `live` is false and
 * caches fall back to a short, bounded TTL.
 */
export const CHANGE_CHANNEL = 'svc_changes';

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

export function isChangeTopic(value: string): value is ChangeTopic {
  return (CHANGE_TOPICS as readonly string[]).includes(value);
}

/** The SQL a writer runs inside its transaction; the payload is the topic. */
export function notifyChangeSql(topic: ChangeTopic): string {
  return `select pg_notify('${CHANGE_CHANNEL}', '${topic}')`;
}

/**
 * A feed that only hears what is bumped in this process. It is the whole feed for a process that
 * is alone on its database (tests, a CLI command), and the local half of the LISTEN-backed one.
 */
export class LocalChangeFeed implements ChangeFeed {
  private readonly versions = new Map<ChangeTopic, number>();
  private readonly listeners = new Map<ChangeTopic, Set<() => void>>();
  live = true;

  version(topic: ChangeTopic): number {
    return this.versions.get(topic) ?? 0;
  }

  on(topic: ChangeTopic, listener: () => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  bump(topic: ChangeTopic): void {
    this.versions.set(topic, this.version(topic) + 1);
    for (const l of this.listeners.get(topic) ?? []) l();
  }

  bumpAll(): void {
    for (const t of CHANGE_TOPICS) this.bump(t);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
