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

/**
 * Subjects: which row changed, for the studio's live subscriptions. Triggers send them on the same
 * channel as the topics, in the writer's transaction (so on commit only), with the payload
 * `live:<kind>:<channel id>:<id>` (migration Migration20261126000000_live_subjects):
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

const SUBJECT_PAYLOAD = /^live:(broadcast|health|delivery):([0-9a-f-]{36}):([0-9a-f-]{36})$/;

/** The subject a notification names, or null when the payload is not a subject. */
export function parseSubject(payload: string): ChangedSubject | null {
  const m = SUBJECT_PAYLOAD.exec(payload);
  return m ? { kind: m[1] as SubjectKind, channelId: m[2], id: m[3] } : null;
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
  private readonly subjectListeners = new Set<(subject: ChangedSubject) => void>();
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

  onSubject(listener: (subject: ChangedSubject) => void): () => void {
    this.subjectListeners.add(listener);
    return () => this.subjectListeners.delete(listener);
  }

  /** Hands a subject to its listeners (what a subject notification does). */
  subject(subject: ChangedSubject): void {
    for (const l of this.subjectListeners) l(subject);
  }

  bumpAll(): void {
    for (const t of CHANGE_TOPICS) this.bump(t);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.subjectListeners.clear();
  }
}
