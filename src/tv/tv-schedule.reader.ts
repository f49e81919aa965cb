import type { ChangeFeed } from '../db/change-feed';
import type { TvQueries } from '../domain/channels/tv.queries';
import { pageLinks, type PageMeta } from '../http/page-links';
import { MAX_KEPT_URL_LENGTH, prepareJson, type PreparedJson } from '../http/send-json';
import { VersionedCache } from '../lib/versioned-cache';
import { meta, pageOf, params, parseQueryRecord } from '../http/query';
import { presentPublicBroadcast } from '../domain/channels/broadcast.view';

const LIST_PARAMS = { page: params.page, per_page: params.per_page };

/** A schedule page as answered: its body and its Link header. */
export interface ScheduleAnswer {
  json: PreparedJson;
  link: string;
}

/**
 * The public schedules (/live, /upcoming, /channels): what viewers' apps poll. Each page is
 * rendered once per version of the `tv` topic (every go-live, end, create, edit, channel
 * approval or plan change announces it) and shared by the express routes and the fast path, so
 * the next request of every instance sees a change while polls stay a cache hit.
 */
export class TvScheduleReader {
  private readonly pages: VersionedCache<{ json: PreparedJson; meta: PageMeta }>;
  /** Whole answers (body and Link) by the URL they were made for, on the same topic. */
  private readonly answers: VersionedCache<ScheduleAnswer>;

  constructor(
    private readonly queries: TvQueries,
    fallbackTtlMs: number,
    changes: Pick<ChangeFeed, 'version' | 'live'>,
    private readonly publicUrl: string,
  ) {
    this.pages = new VersionedCache({ feed: changes, topics: ['tv'], fallbackTtlMs, maxEntries: 1000 });
    this.answers = new VersionedCache({ feed: changes, topics: ['tv'], fallbackTtlMs, maxEntries: 1000 });
  }

  /** What `list` answered for this very URL, at once while it still holds; undefined otherwise (await `list`). */
  peek(url: string): ScheduleAnswer | undefined {
    return this.answers.peek(url);
  }

  /**
   * The page `query` asks for, and its `Link` header for the request `url` (path and query as sent).
   * Throws 422 invalid_page / invalid_per_page for bad paging parameters.
   */
  list(kind: 'live' | 'upcoming' | 'channels', query: Record<string, unknown>, url: string): Promise<ScheduleAnswer> {
    return url.length > MAX_KEPT_URL_LENGTH ? this.make(kind, query, url) : this.answers.get(url, () => this.make(kind, query, url));
  }

  private async make(kind: 'live' | 'upcoming' | 'channels', query: Record<string, unknown>, url: string): Promise<ScheduleAnswer> {
    const page = pageOf(parseQueryRecord(query, LIST_PARAMS));
    const found = await this.pages.get(`${kind}|${page.page}|${page.perPage}`, async () => {
      if (kind === 'channels') {
        const { rows, total } = await this.queries.channels(page);
        return this.page(meta(page, total), rows);
      }
      const { rows, total } = await this.queries[kind](page);
      return this.page(meta(page, total), rows.map(presentPublicBroadcast));
    });
    return { json: found.json, link: pageLinks(this.publicUrl, url, found.meta, Object.keys(LIST_PARAMS)) };
  }

  private page(m: ReturnType<typeof meta>, data: unknown[]): { json: PreparedJson; meta: PageMeta } {
    return { json: prepareJson({ meta: m, data }), meta: m };
  }
}
