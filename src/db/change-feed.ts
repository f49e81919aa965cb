import type { ChangedSubject, ChangeFeed, ChangeTopic, SubjectKind } from '../ports/change-feed';

export type { ChangedSubject, ChangeFeed, ChangeTopic, SubjectKind } from '../ports/change-feed';

/**
 * The change feed's implementation on PostgreSQL (the port: src/ports/change-feed.ts):
 * the writer NOTIFYs inside its transaction (PostgreSQL delivers it on commit, never on rollback)
 * and every instance LISTENs (listen-change-feed.ts). The feeds here know no topic list (that is
 * the domain's; this edge imports nothing of it at run time): a notification names its topic.
 */
export const CHANGE_CHANNEL = 'svc_changes';

const SUBJECT_PAYLOAD = /^live:(broadcast|health|delivery):([0-9a-f-]{36}):([0-9a-f-]{36})$/;

/** The subject a notification names, or null when the payload is not a subject. */
export function parseSubject(payload: string): ChangedSubject | null {
  const m = SUBJECT_PAYLOAD.exec(payload);
  return m ? { kind: m[1] as SubjectKind, channelId: m[2], id: m[3] } : null;
}

/**
 * Whether a notification's payload names a topic: a lower-case word (the domain's topics are;
 * anything else on the channel is not a topic). A topic this process does not know is bumped and
 * read by nobody.
 */
export function isChangeTopic(value: string): value is ChangeTopic {
  return /^[a-z][a-z_]{0,62}$/.test(value);
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
  /** Bumps of every topic at once (bumpAll): added to each topic's own count. */
  private epoch = 0;
  private readonly listeners = new Map<ChangeTopic, Set<() => void>>();
  private readonly subjectListeners = new Set<(subject: ChangedSubject) => void>();
  live = true;

  version(topic: ChangeTopic): number {
    return this.epoch + (this.versions.get(topic) ?? 0);
  }

  on(topic: ChangeTopic, listener: () => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  bump(topic: ChangeTopic): void {
    this.versions.set(topic, (this.versions.get(topic) ?? 0) + 1);
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

  /** Every topic, known here or not, moves (after a lost LISTEN session: what changed meanwhile is unknown). */
  bumpAll(): void {
    this.epoch++;
    for (const set of this.listeners.values()) for (const l of set) l();
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.subjectListeners.clear();
  }
}
