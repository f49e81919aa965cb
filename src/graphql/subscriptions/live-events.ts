import type { Principal } from '../../domain/channels/channel-access';
import { accessError } from '../../domain/channels/channel-access';

/**
 * A row that changed, as the change feed hands it over (src/db/change-feed.ts, `ChangedSubject`):
 * the kinds are the ones the triggers send. Declared here by shape, since resolvers do not import
 * the database edge.
 */
export interface LiveSubject {
  kind: 'broadcast' | 'health' | 'delivery';
  channelId: string;
  id: string;
}

/** What the live events need of the change feed. */
export interface SubjectSource {
  onSubject(listener: (subject: LiveSubject) => void): () => void;
}

/** What a subscriber's stream waits for: a subject, and its load shared with every other subscriber of it. */
interface Pending<T> {
  subject: LiveSubject;
  load: () => Promise<T | null>;
}

interface Route<T> {
  matches(subject: LiveSubject): boolean;
  push(subject: LiveSubject, load: () => Promise<T | null>): void;
  finish(): void;
}

/** How many changes a subscriber may have waiting; past it the oldest one is dropped (it still gets the newest state). */
export const MAX_WAITING = 100;

/**
 * The subjects heard by this instance, routed to the subscribers that asked for them. Each change
 * is loaded at most once for all of its subscribers (lazily, when the first one reads it), and each
 * subscriber checks it against the one channel-access rule, with its own current principal, before
 * it is handed out.
 */
export class LiveEvents<T> {
  private readonly routes = new Set<Route<T>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly detach: () => void;

  /** `load` reads a changed row once for all its subscribers; null when there is nothing to show (gone, or not the channel's). */
  constructor(
    source: SubjectSource,
    private readonly load: (subject: LiveSubject) => Promise<T | null>,
  ) {
    this.detach = source.onSubject((s) => this.dispatch(s));
  }

  /** How many streams are open on this instance. */
  get size(): number {
    return this.routes.size;
  }

  /**
   * A stream of the changes `matches` accepts, handed out only while `principal()` may read the
   * subject's channel (the one access rule, checked for every change). Ends when `return` is
   * called (the client stops the subscription, or the socket closes) or the events close.
   */
  stream(options: {
    matches: (subject: LiveSubject) => boolean;
    principal: () => Principal | null;
  }): AsyncIterableIterator<{ subject: LiveSubject; value: T }> {
    const waiting: Pending<T>[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    const finish = () => {
      done = true;
      this.routes.delete(route);
      waiting.length = 0;
      wake?.();
    };
    const route: Route<T> = {
      matches: options.matches,
      push: (subject, load) => {
        // an unread change of the same row is replaced: its load reads the row as it is now anyway
        const same = waiting.findIndex((p) => p.subject.kind === subject.kind && p.subject.id === subject.id);
        if (same >= 0) waiting.splice(same, 1);
        if (waiting.length >= MAX_WAITING) waiting.shift();
        waiting.push({ subject, load });
        wake?.();
      },
      finish,
    };
    this.routes.add(route);
    const iterator: AsyncIterableIterator<{ subject: LiveSubject; value: T }> = {
      next: async () => {
        for (;;) {
          if (done) return { done: true, value: undefined };
          const item = waiting.shift();
          if (!item) {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
            continue;
          }
          const principal = options.principal();
          if (!principal || accessError(principal, item.subject.channelId, 'read')) continue;
          const value = await item.load().catch(() => null);
          if (value === null || done) continue;
          return { done: false, value: { subject: item.subject, value } };
        }
      },
      return: async () => {
        finish();
        return { done: true, value: undefined };
      },
      throw: async (err?: unknown) => {
        finish();
        throw err;
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /**
   * Hands `subject` to its subscribers again after `delayMs`, as if it had changed then: for what
   * changes with time alone (a health whose latest report goes stale). One wake per subject; a
   * later call replaces it. Local to this instance (each instance wakes its own subscribers).
   */
  wakeAt(subject: LiveSubject, delayMs: number): void {
    const key = `${subject.kind}:${subject.id}`;
    const previous = this.timers.get(key);
    if (previous) clearTimeout(previous);
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        this.dispatch(subject);
      },
      Math.max(0, Math.min(delayMs, 2 ** 31 - 1)),
    );
    timer.unref();
    this.timers.set(key, timer);
  }

  /** Stops hearing the feed and ends every stream. */
  close(): void {
    this.detach();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const r of [...this.routes]) r.finish();
  }

  private dispatch(subject: LiveSubject): void {
    let loaded: Promise<T | null> | null = null;
    for (const route of this.routes) {
      if (!route.matches(subject)) continue;
      // every subscriber of this change shares one load, made when the first of them reads it
      route.push(subject, () => (loaded ??= this.load(subject)));
    }
  }
}
