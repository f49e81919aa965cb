import type { ChangeFeed } from '../db/change-feed';
import type { TvQueries } from '../domain/channels/tv.queries';
import { prepareJson, type PreparedJson } from '../http/send-json';
import { VersionedCache } from '../lib/versioned-cache';
import { meta, pageOf, params, parseQueryRecord } from '../http/query';
import { presentPublicBroadcast } from '../domain/channels/broadcast.view';

const LIST_PARAMS = { page: params.page, per_page: params.per_page };

/**
 * The public schedules (/live, /upcoming, /channels): what viewers' apps poll. Each page is
 * rendered once per version of the `tv` topic (every go-live, end, create, edit, channel
 * approval or plan change announces it) and shared by the express routes and the fast path, so
 * the next request of every instance sees a change while polls stay a cache hit.
 */
export class TvScheduleReader {
  private readonly pages: VersionedCache<PreparedJson>;

  constructor(private readonly queries: TvQueries, fallbackTtlMs: number, changes: Pick<ChangeFeed, 'version' | 'live'>) {
    this.pages = new VersionedCache({ feed: changes, topics: ['tv'], fallbackTtlMs, maxEntries: 1000 });
  }

  /** Throws 422 invalid_page / invalid_per_page for bad paging parameters. */
  list(kind: 'live' | 'upcoming' | 'channels', query: Record<string, unknown>): Promise<PreparedJson> {
    const page = pageOf(parseQueryRecord(query, LIST_PARAMS));
    return this.pages.get(`${kind}|${page.page}|${page.perPage}`, async () => {
      if (kind === 'channels') {
        const { rows, total } = await this.queries.channels(page);
        return prepareJson({ meta: meta(page, total), data: rows });
      }
      const { rows, total } = await this.queries[kind](page);
      return prepareJson({ meta: meta(page, total), data: rows.map(presentPublicBroadcast) });
    });
  }
}
