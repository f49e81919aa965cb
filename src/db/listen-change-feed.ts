import { Client } from 'pg';
import type { Logger } from '../lib/logger';
import { CHANGE_CHANNEL, isChangeTopic, LocalChangeFeed, parseSubject, type ChangedSubject, type ChangeFeed, type ChangeTopic } from './change-feed';
import type { EmbeddedPostgres } from './embedded-postgres';

/** One LISTEN session: calls `onNotify` with each payload, and `onLost` once if it drops. */
export type ListenTransport = (handlers: { onNotify(payload: string): void; onLost(err: Error): void }) => Promise<{ close(): Promise<void> }>;

export interface ListenChangeFeedOptions {
  /** First reconnect delay; doubled on each failure up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * The change feed of an instance that shares its database: it LISTENs on CHANGE_CHANNEL and
 * bumps the topic named by each notification. While the LISTEN session is down `live` is false
 * (caches use their short fallback TTL) and it reconnects with backoff; on every (re)connection
 * it bumps every topic, since notifications sent meanwhile were missed.
 */
export class ListenChangeFeed implements ChangeFeed {
  private readonly local = new LocalChangeFeed();
  private session: { close(): Promise<void> } | null = null;
  private retry: NodeJS.Timeout | null = null;
  private delay: number;
  private closed = false;
  live = false;

  constructor(
    private readonly transport: ListenTransport,
    private readonly logger: Logger,
    private readonly opts: ListenChangeFeedOptions = {},
  ) {
    this.delay = opts.minBackoffMs ?? 100;
  }

  /** Resolves after the first attempt; a failed one is retried in the background. */
  async start(): Promise<this> {
    await this.connect();
    return this;
  }

  version(topic: ChangeTopic): number {
    return this.local.version(topic);
  }

  on(topic: ChangeTopic, listener: () => void): () => void {
    return this.local.on(topic, listener);
  }

  bump(topic: ChangeTopic): void {
    this.local.bump(topic);
  }

  onSubject(listener: (subject: ChangedSubject) => void): () => void {
    return this.local.onSubject(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retry) clearTimeout(this.retry);
    const session = this.session;
    this.session = null;
    await session?.close().catch(() => undefined);
    await this.local.close();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    let lost = false;
    try {
      const session = await this.transport({
        onNotify: (payload) => {
          if (isChangeTopic(payload)) this.local.bump(payload);
          else {
            const subject = parseSubject(payload);
            if (subject) this.local.subject(subject);
          }
        },
        onLost: (err) => {
          if (lost) return;
          lost = true;
          this.disconnected(err);
        },
      });
      if (this.closed || lost) {
        await session.close().catch(() => undefined);
        return;
      }
      this.session = session;
      this.live = true;
      this.delay = this.opts.minBackoffMs ?? 100;
      // whatever changed while nobody listened is unknown: every cached answer is suspect
      this.local.bumpAll();
    } catch (err) {
      lost = true;
      this.disconnected(err as Error);
    }
  }

  private disconnected(err: Error): void {
    const session = this.session;
    this.session = null;
    void session?.close().catch(() => undefined);
    this.live = false;
    if (this.closed || this.retry) return;
    this.logger.warn({ err: err.message, retryInMs: this.delay }, 'change feed: LISTEN connection lost; caches use their short fallback TTL until it is back');
    this.retry = setTimeout(() => void this.connect(), this.delay);
    this.retry.unref();
    this.delay = Math.min(this.delay * 2, this.opts.maxBackoffMs ?? 5000);
  }
}

/** A dedicated pg connection that LISTENs (PostgreSQL, or a socket joined to an embedded database). */
export function pgListenTransport(url: string): ListenTransport {
  return async ({ onNotify, onLost }) => {
    const client = new Client({ connectionString: url });
    client.on('error', (err) => onLost(err));
    client.on('end', () => onLost(new Error('connection ended')));
    client.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL && n.payload !== undefined) onNotify(n.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return {
      async close() {
        client.removeAllListeners('end');
        client.removeAllListeners('error');
        client.on('error', () => undefined);
        await client.end();
      },
    };
  };
}

/** The in-process LISTEN of the embedded database this process serves: it cannot be lost. */
export function embeddedListenTransport(embedded: EmbeddedPostgres): ListenTransport {
  return async ({ onNotify }) => {
    const unlisten = await embedded.listen(CHANGE_CHANNEL, onNotify);
    return { close: unlisten };
  };
}

/**
 * The real feed for a process on `db`: in-process on the embedded database it serves, otherwise
 * a dedicated LISTEN connection (which also works through the embedded database's socket).
 */
export function createChangeFeed(
  db: { url: string; embedded: EmbeddedPostgres | null },
  logger: Logger,
  opts?: ListenChangeFeedOptions,
): Promise<ListenChangeFeed> {
  const transport = db.embedded ? embeddedListenTransport(db.embedded) : pgListenTransport(db.url);
  return new ListenChangeFeed(transport, logger, opts).start();
}
