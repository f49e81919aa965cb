import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

/** One subscription's messages, in order: results (data or errors), then its end. */
export class Received<T = Record<string, unknown>> {
  readonly results: { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] }[] = [];
  completed = false;
  error: unknown = null;
  private waiters: (() => void)[] = [];

  push(r: Received<T>['results'][number]): void {
    this.results.push(r);
    this.wakeAll();
  }

  end(err: unknown = null): void {
    this.completed = true;
    this.error = err;
    this.wakeAll();
  }

  /** The n-th result (1-based), once it has arrived. */
  async nth(n: number): Promise<Received<T>['results'][number]> {
    while (this.results.length < n) {
      if (this.completed) throw new Error(`the subscription ended after ${this.results.length} results: ${JSON.stringify(this.error ?? this.results)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.results[n - 1];
  }

  /** The first result that satisfies `check`, once it has arrived. */
  async first(check: (r: Received<T>['results'][number]) => boolean): Promise<Received<T>['results'][number]> {
    for (let seen = 0; ; seen++) {
      const r = await this.nth(seen + 1);
      if (check(r)) return r;
    }
  }

  /** Resolves when the subscription has ended (completed, errored or its socket closed). */
  async ended(): Promise<void> {
    while (!this.completed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wakeAll(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

/**
 * A graphql-ws client as the studio uses it (connection_init `{ token }`), never retrying, that
 * records how its socket closed.
 */
export class LiveClient {
  readonly client: Client;
  closed: Closed | null = null;
  connected = false;
  private waiters: (() => void)[] = [];

  constructor(url: string, connectionParams: Record<string, unknown> | undefined) {
    this.client = createClient({
      url,
      webSocketImpl: WebSocket,
      connectionParams,
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: () => undefined,
      on: {
        connected: () => {
          this.connected = true;
          this.wake();
        },
        closed: (event) => {
          const e = event as { code: number; reason: string };
          this.closed = { code: e.code, reason: String(e.reason) };
          this.wake();
        },
      },
    });
  }

  /** Resolves once the server acknowledged connection_init, or the socket closed. */
  async settled(): Promise<void> {
    while (!this.connected && !this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Resolves with how the socket closed, once it has. */
  async whenClosed(): Promise<Closed> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.closed;
  }

  subscribe<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Received<T> & { stop(): void } {
    const received = new Received<T>();
    const stop = this.client.subscribe<T>(
      { query, variables },
      {
        next: (r) => received.push(r as Received<T>['results'][number]),
        error: (err) => {
          // a refused operation arrives as an error message: keep it as a result with errors
          if (Array.isArray(err)) received.push({ errors: err as Received<T>['results'][number]['errors'] });
          received.end(err);
        },
        complete: () => received.end(),
      },
    );
    return Object.assign(received, { stop });
  }

  async dispose(): Promise<void> {
    await this.client.dispose();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

/** Waits (turn by turn, no deadline of its own: jest's test time-out is the limit) until `check` holds. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}
