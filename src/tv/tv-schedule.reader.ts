import type { TvQueries } from '../domain/channels/tv.queries';
import { prepareJson, type PreparedJson } from '../http/send-json';
import { TtlCache } from '../lib/ttl-cache';
import { pageLinks, type PageMeta } from '../rest/page-links';
import { meta, pageOf, params, parseQueryRecord } from '../rest/query';
import { presentPublicBroadcast } from './tv.presenters';

const LIST_PARAMS = { page: params.page, per_page: params.per_page };

/**
 * The public schedules (/live, /upcoming, /channels): what viewers' apps poll. Each page is
 * rendered once per cache period and shared by the express routes and the fast path.
 */
export class TvScheduleReader {
  private readonly pages: TtlCache<{ json: PreparedJson; meta: PageMeta }>;

  constructor(private readonly queries: TvQueries, ttlMs: number, private readonly publicUrl: string) {
    this.pages = new TtlCache(ttlMs);
  }

  /**
   * The page `query` asks for, and its `Link` header for the request `url` (path and query as sent).
   * Throws 422 invalid_page / invalid_per_page for bad paging parameters.
   */
  async list(kind: 'live' | 'upcoming' | 'channels', query: Record<string, unknown>, url: string): Promise<{ json: PreparedJson; link: string }> {
    const page = pageOf(parseQueryRecord(query, LIST_PARAMS));
    const found = await this.pages.get(`${kind}|${page.page}|${page.perPage}`, async () => {
      if (kind === 'channels') {
        const { rows, total } = await this.queries.channels(page);
        return this.page(meta(page, total), rows);
      }
      const { rows, total } = await this.queries[kind](page);
      return this.page(meta(page, total), rows.map(presentPublicBroadcast));
    });
    return { json: found.json, link: pageLinks(this.publicUrl, url, found.meta) };
  }

  private page(m: ReturnType<typeof meta>, data: unknown[]): { json: PreparedJson; meta: PageMeta } {
    return { json: prepareJson({ meta: m, data }), meta: m };
  }
}
