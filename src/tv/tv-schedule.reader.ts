import type { ChangeFeed } from '../db/change-feed';
import type { TvQueries } from '../domain/channels/tv.queries';
import { pageLinks, type PageMeta } from '../http/page-links';
import { prepareJson, weightOfJson, type PreparedJson } from '../http/send-json';
import type { Answer } from '../http/operation';
import { then, type Maybe } from '../lib/maybe';
import { VersionedCache } from '../lib/versioned-cache';
import { meta, pageOf } from '../http/query';
import { presentPublicBroadcast } from '../domain/channels/broadcast.view';

/**
 * The public schedules (/live, /upcoming, /channels): what viewers' apps poll. Each page is
 * rendered once per version of the `tv` topic (every go-live, end, create, edit, channel
 * approval or plan change announces it), so the next request of every instance sees a change
 * while polls stay a cache hit. Whole answers are kept by URL by the pipeline (src/tv/tv-api.door.ts).
 */
export class TvScheduleReader {
  private readonly pages: VersionedCache<{ json: PreparedJson; meta: PageMeta }>;

  constructor(
    private readonly queries: TvQueries,
    fallbackTtlMs: number,
    changes: Pick<ChangeFeed, 'version' | 'live'>,
    private readonly publicUrl: string,
  ) {
    this.pages = new VersionedCache({
      feed: changes,
      topics: ['tv'],
      fallbackTtlMs,
      maxEntries: 1000,
      maxBytes: 4 * 1024 * 1024,
      weigh: ((p: { json: PreparedJson }) => weightOfJson(p.json)) as (value: never) => number,
    });
  }

  /** The page `query` asks for, and its `Link` header for the request `url` (path and query as sent). */
  list(kind: 'live' | 'upcoming' | 'channels', query: { page?: number; per_page?: number }, url: string): Maybe<Answer> {
    const page = pageOf(query);
    const found = this.pages.get(`${kind}|${page.page}|${page.perPage}`, async () => {
      if (kind === 'channels') {
        const { rows, total } = await this.queries.channels(page);
        return this.page(meta(page, total), rows);
      }
      const { rows, total } = await this.queries[kind](page);
      return this.page(meta(page, total), rows.map(presentPublicBroadcast));
    });
    return then(found, (f) => ({ json: f.json, link: pageLinks(this.publicUrl, url, f.meta, LIST_PARAMS) }));
  }

  private page(m: ReturnType<typeof meta>, data: unknown[]): { json: PreparedJson; meta: PageMeta } {
    return { json: prepareJson({ meta: m, data }), meta: m };
  }
}

const LIST_PARAMS = ['page', 'per_page'];
