import type { Connection } from '@mikro-orm/core';
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
  private cached: { at: number; runId: string | null; asOf: string | null } | null = null;

  constructor(private readonly connection: () => Connection, private readonly clock: Clock, private readonly ttlMs = 1000) {}

  async current(): Promise<ReadContext> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.ttlMs) {
      const rows = await this.connection().execute<{ id: string; as_of: string }[]>(
        `select id, as_of::text as as_of from ranking_run order by as_of desc limit 1`,
      );
      this.cached = { at: now, runId: rows[0]?.id ?? null, asOf: rows[0]?.as_of ?? null };
    }
    const today = this.clock.today();
    return { runId: this.cached.runId, asOf: this.cached.asOf ?? today, today, adultCutoff: addYears(today, -18) };
  }

  invalidate(): void {
    this.cached = null;
  }
}

export function contextParams(ctx: ReadContext): [string, string] {
  return [ctx.today, ctx.adultCutoff];
}
