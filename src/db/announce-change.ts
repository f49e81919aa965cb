import type { EntityManager, EventManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import { notifyChangeSql, type ChangeFeed, type ChangeTopic } from './change-feed';

/** Topics announced by a transaction still open, keyed by its root transaction object. */
const pending = new WeakMap<object, Set<ChangeTopic>>();
/**
 * Topics already NOTIFYed on a transaction (or savepoint) object: PostgreSQL delivers one of
 * identical notifications of a transaction anyway, so a second is a round trip for nothing. Keyed
 * by the exact object, not the root: a savepoint rolled back takes its NOTIFYs with it.
 */
const notified = new WeakMap<object, Set<ChangeTopic>>();

/**
 * Tells every instance that `topics` changed, from inside the writer's transaction: the NOTIFY
 * runs on em's transaction (never a second connection), so PostgreSQL delivers it on commit and
 * drops it on rollback. The writer's own instance also bumps its feed right after the commit
 * (or at once outside a transaction), so its very next request sees the change without waiting
 * for the notification to come back.
 */
export async function announceChange(em: EntityManager, ...topics: ChangeTopic[]): Promise<void> {
  const ctx = em.getTransactionContext<object>();
  const unique = [...new Set(topics)];
  let sent = ctx ? notified.get(ctx) : undefined;
  if (ctx && !sent) notified.set(ctx, (sent = new Set()));
  for (const topic of unique) {
    if (sent?.has(topic)) continue;
    await em.getConnection().execute(notifyChangeSql(topic), [], 'all', ctx);
    sent?.add(topic);
  }
  if (!ctx) {
    bumpLocal(em.getEventManager(), unique);
    return;
  }
  const root = rootTransaction(ctx);
  let set = pending.get(root);
  if (!set) pending.set(root, (set = new Set()));
  for (const topic of unique) set.add(topic);
}

/**
 * Makes announcements on `em` (and its forks) bump `feed` after commit. Returns a detach for
 * the container's close.
 *
 * The feed rides on a subscriber of em's event manager. A transaction runs on a fork whose event
 * manager is a clone (another object carrying the same subscribers), so the subscriber is found
 * through the event manager at hand, never looked up by the root's identity.
 */
export function attachChangeFeed(em: EntityManager, feed: ChangeFeed): () => void {
  const bumper = new FeedBumper(feed);
  em.getEventManager().registerSubscriber(bumper);
  return () => {
    bumper.detached = true;
  };
}

class FeedBumper implements EventSubscriber {
  detached = false;

  constructor(private readonly feed: ChangeFeed) {}

  bump(topics: Iterable<ChangeTopic>): void {
    if (this.detached) return;
    for (const topic of topics) this.feed.bump(topic);
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    // not deleted here: every feed attached to this event manager reads it (the WeakMap lets go)
    const topics = args.transaction ? pending.get(args.transaction) : undefined;
    if (topics) this.bump(topics);
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    if (args.transaction) pending.delete(args.transaction);
  }
}

function bumpLocal(events: EventManager, topics: ChangeTopic[]): void {
  for (const s of events.getSubscribers()) if (s instanceof FeedBumper) s.bump(topics);
}

/** A savepoint's transaction object points to its parent through a MikroORM-private symbol. */
function rootTransaction(ctx: object): object {
  let current = ctx as Record<symbol, unknown>;
  for (;;) {
    const parent = Object.getOwnPropertySymbols(current).find((s) => s.description === 'parentTransaction');
    if (!parent || !current[parent]) return current;
    current = current[parent] as Record<symbol, unknown>;
  }
}

/** What a frequent writer outside any transaction calls after each change (see coalescedAnnouncer). */
export interface Announcer {
  /** This instance sees the change at once; the other instances with the next NOTIFY. */
  changed(): void;
  /**
   * The NOTIFY a writer may run inside its own statement instead (`select pg_notify(...)`, as a
   * CTE: delivered on that statement's commit, no round trip of its own); then it calls `notified()`.
   */
  readonly notifySql: string;
  /** The writer's statement carried `notifySql`: this instance bumps at once, nothing else is sent. */
  notified(): void;
  /** Waits for the NOTIFY under way, if any (before the pool closes). */
  settled(): Promise<void>;
}

/**
 * For a writer that changes a topic many times a second outside any transaction (the webhook
 * delivery worker, after each claim and attempt): its own instance bumps at once, and the other
 * instances are told by at most one NOTIFY in flight plus one after it, however many changes
 * happen meanwhile, instead of one statement per change. Another instance hears a change at most
 * one NOTIFY round trip after it was made.
 */
export function coalescedAnnouncer(em: EntityManager, topic: ChangeTopic, onError: (err: unknown) => void): Announcer {
  let inFlight: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    do {
      again = false;
      await em.getConnection().execute(notifyChangeSql(topic));
    } while (again);
  };
  return {
    changed() {
      bumpLocal(em.getEventManager(), [topic]);
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = run()
        .catch(onError)
        .finally(() => {
          inFlight = null;
        });
    },
    notifySql: notifyChangeSql(topic),
    notified() {
      bumpLocal(em.getEventManager(), [topic]);
    },
    async settled() {
      while (inFlight) await inFlight;
    },
  };
}
