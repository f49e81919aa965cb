import type { Connection } from '@mikro-orm/core';
import type { Maybe } from '../../lib/maybe';
import { TtlCache } from '../../lib/ttl-cache';
import { addYears, type Clock } from '../clock';

/** What every partner read needs: the latest published run and the dates minority depends on. */
export interface ReadContext {
  runId: string | null;
  asOf: string;
  today: string;
  adultCutoff: string;
}

/**
 * The latest run changes a few times a day at most; each instance re-reads it after `ttlMs`, so
 * a publish is visible everywhere within that time without a query per request.
 */
export class ReadContextProvider {
  private readonly cache: TtlCache<ReadContext>;

  constructor(
    private readonly connection: () => Connection,
    private readonly clock: Clock,
    ttlMs = 1000,
  ) {
    this.cache = new TtlCache(ttlMs, 1);
  }

  /** The context: at once while cached and fresh, else the promise of it. */
  current(): Maybe<ReadContext> {
    // Keyed by today, so a new day takes effect at once whatever the cache holds.
    return this.cache.get(this.clock.today(), () => this.load());
  }

  private async load(): Promise<ReadContext> {
    const rows = await this.connection().execute<{ id: string; as_of: string }[]>(
      `select id, as_of::text as as_of from ranking_run order by ranking_run.as_of desc limit 1`,
    );
    const today = this.clock.today();
    return { runId: rows[0]?.id ?? null, asOf: rows[0]?.as_of ?? today, today, adultCutoff: addYears(today, -18) };
  }

  invalidate(): void {
    this.cache.clear();
  }
}

export function contextParams(ctx: ReadContext): [string, string] {
  return [ctx.today, ctx.adultCutoff];
}
