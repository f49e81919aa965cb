import type { ChangeFeed } from '../db/change-feed';
import { notFound } from '../domain/errors';
import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import type { ReadContext } from '../domain/catalog/read-context';
import { prepareJson, type PreparedJson } from '../http/send-json';
import type {
  EventListResponseBody,
  EventResponseBody,
  EventResultsResponseBody,
  FighterListResponseBody,
  FighterProfileResponseBody,
  KeyInfoResponseBody,
  ResultListResponseBody,
  VerificationResponseBody,
} from './schemas/responses';
import { VersionedCache } from '../lib/versioned-cache';
import { partnerBodyCache, partnerReadCache, PARTNER_BODY_BUDGETS } from './read-cache';
import type { PartnerApiDeps } from './partner-api.deps';
import { boutJson, presentEvent, presentResult, resultJson, ViewJson } from '../domain/catalog/views';
import type { FeedAnchor, FeedKey } from '../domain/catalog/result-feed.queries';
import type { ResultFilters } from '../domain/catalog/results.queries';
import type { EventFilters } from '../domain/catalog/events.queries';
import type { FighterFilters } from '../domain/catalog/fighters.queries';
import type { Parsed } from '../http/operation';
import type { EVENTS_QUERY } from './operations/events.operations';
import type { FIGHTERS_QUERY } from './operations/fighters.operations';
import type { RESULTS_QUERY } from './operations/results.operations';
import type { PageMeta } from '../http/page-links';
import { presentFighter, presentMinor, presentVerification } from './presenters';
import { meta, pageOf } from '../http/query';
import { isPromise, then, type Maybe } from '../lib/maybe';

/**
 * The results feed keeps the sort key of every this-many rows, so a deep page skips fewer than
 * this many: a page of the default size (25) starts on an anchor and skips none.
 */
const FEED_ANCHOR_EVERY = 25;
/** A filter set keeps at most this many anchors (7 MB): a longer feed keeps every 2nd, 3rd, ... of them (thinAnchors). */
const FEED_ANCHORS_MAX_KEYS = 40_000;
/** What one anchor weighs in the heap, about: its key's object and three strings. */
const FEED_ANCHOR_BYTES = 190;
/** What the kept anchors of all filter sets may weigh: two feeds of a million rows or more. */
const FEED_ANCHORS_MAX_BYTES = 2 * FEED_ANCHORS_MAX_KEYS * FEED_ANCHOR_BYTES;
/** Filter sets whose last anchors are remembered for the deep pages asked while their anchors are re-read (see feedAnchor). */
const FEED_LAST_ANCHORS_MAX = 8;
/** Pages starting this deep go through the anchors; shallower ones are a short offset anyway. */
const FEED_ANCHORED_FROM = 2_000;
const TOTALS_MAX_AGE_MS = 60_000;
/**
 * The parsed queries of the lists, as their declarations (src/rest/operations/) parse them, and
 * their filters: the query without its paging. Each list's filters must have the keys of its
 * builder's filters (the domain's `*Filters`), so a filter declared and not handled (or handled
 * and not declared) does not compile.
 */
export type FightersQuery = Parsed<typeof FIGHTERS_QUERY>;
export type EventsQuery = Parsed<typeof EVENTS_QUERY>;
export type ResultsQuery = Parsed<typeof RESULTS_QUERY>;
type Filters<Q> = Omit<Q, 'page' | 'per_page'>;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Expect<T extends true[]> = T;
export type ListFiltersHandled = Expect<
  [SameKeys<Filters<FightersQuery>, FighterFilters>, SameKeys<Filters<EventsQuery>, EventFilters>, SameKeys<Filters<ResultsQuery>, ResultFilters>]
>;

/** A list query's filters: the query without its paging. */
function filtersOf<Q extends { page?: number; per_page?: number }>({ page: _page, per_page: _perPage, ...filters }: Q): Filters<Q> {
  return filters;
}

type Deps = Pick<PartnerApiDeps, 'fighters' | 'events' | 'results' | 'verification' | 'readContext' | 'keys' | 'publicUrl' | 'readCacheTtlMs' | 'reader'>;

/** A page of a list: its body, and the paging numbers its `Link` header is made from. */
export interface ListBody {
  json: PreparedJson;
  meta: PageMeta;
}

/**
 * Every partner catalog body (fighters, events, results, verification), rendered from the read
 * model and kept per data version (the `catalog` topic), day, run and query, so a repeated read
 * costs no SQL. Shared by the express routes and the fast path. Throws the DomainErrors of bad
 * parameters (422) and unknown subjects (404); those are never cached.
 */
export class CatalogReader {
  private readonly bodies: VersionedCache<PreparedJson>;
  private readonly lists: VersionedCache<ListBody>;
  private readonly totals: VersionedCache<number>;
  private readonly anchors: VersionedCache<FeedAnchors>;
  /** The anchors last read per filter set, with the catalog version they were read at (see feedAnchor). */
  private readonly lastAnchors = new Map<string, { version: number; anchors: FeedAnchors }>();
  /** The JSON of each event, country and division shown in bouts and results, made once each (views.ts). */
  private readonly viewJson: ViewJson;

  constructor(
    private readonly deps: Deps,
    private readonly changes: ChangeFeed,
  ) {
    this.bodies = new VersionedCache(partnerBodyCache<PreparedJson>(changes, deps.readCacheTtlMs, 20_000, PARTNER_BODY_BUDGETS.catalogBodies, (v) => v));
    this.lists = new VersionedCache(partnerBodyCache<ListBody>(changes, deps.readCacheTtlMs, 5_000, PARTNER_BODY_BUDGETS.catalogLists, (v) => v.json));
    // A total is a count over a whole table (a million result rows at scale): re-counted on every
    // change heard, and otherwise at most once a minute against writers this instance cannot hear.
    this.totals = new VersionedCache(partnerReadCache(changes, deps.readCacheTtlMs && Math.max(deps.readCacheTtlMs, TOTALS_MAX_AGE_MS)));
    // Anchors of the feed per filter set, valid for one data version (as the pages they serve),
    // bounded by bytes: any number of filter sets (`since` has one per day) can be made deep.
    this.anchors = new VersionedCache({
      ...partnerReadCache(changes, deps.readCacheTtlMs, 64),
      maxBytes: FEED_ANCHORS_MAX_BYTES,
      weigh: ((a: FeedAnchors) => a.keys.length * FEED_ANCHOR_BYTES) as (value: never) => number,
    });
    this.viewJson = new ViewJson(deps.publicUrl);
  }

  async fighters(q: FightersQuery): Promise<ListBody> {
    await this.deps.reader.assertKnownCountry(q.country);
    const page = pageOf(q);
    const ctx = await this.deps.readContext.current();
    const filters = filtersOf(q);
    const scope = `${ctx.runId}|${ctx.today}|${JSON.stringify(filters)}`;
    return this.lists.get(`fighters|${scope}|${page.page}|${page.perPage}`, async () => {
      const [total, rows] = await Promise.all([
        this.totals.get(`fighters|${scope}`, () => this.deps.fighters.count(ctx, filters)),
        this.deps.fighters.list(ctx, filters, page),
      ]);
      const data = rows.map((r) => presentFighter(r, r.record, standing(r)));
      return listBody({ as_of: ctx.asOf, meta: meta(page, total), data } satisfies FighterListResponseBody);
    });
  }

  async fighter(slug: string): Promise<PreparedJson> {
    const ctx = await this.deps.readContext.current();
    return this.bodies.get(`fighter|${ctx.runId}|${ctx.today}|${slug}`, async () => {
      const row = await this.deps.fighters.profile(ctx, slug);
      if (!row) throw notFound(`fighter "${slug}"`);
      if (row.f_minor || !row.bouts) return prepareJson({ as_of: ctx.asOf, data: presentMinor(row) } satisfies FighterProfileResponseBody);
      // JSON.stringify of { as_of, data: { ...presentFighter(...), bouts: bouts.map(presentBout) } }, spliced (boutJson)
      const fighter = JSON.stringify(presentFighter(row, row.record, standing(row)) satisfies Omit<FighterProfileResponseBody['data'], 'bouts'>);
      const bouts = row.bouts.map((b) => boutJson(b, ctx.asOf, this.viewJson)).join(',');
      return prepareJson(`{"as_of":${JSON.stringify(ctx.asOf)},"data":${fighter.slice(0, -1)},"bouts":[${bouts}]}}`);
    });
  }

  async events(q: EventsQuery): Promise<ListBody> {
    await this.deps.reader.assertKnownCountry(q.country);
    const page = pageOf(q);
    const ctx = await this.deps.readContext.current();
    const filters = filtersOf(q);
    const scope = `${ctx.runId}|${ctx.today}|${JSON.stringify(filters)}`;
    return this.lists.get(`events|${scope}|${page.page}|${page.perPage}`, async () => {
      const [total, rows] = await Promise.all([
        this.totals.get(`events|${scope}`, () => this.deps.events.count(ctx, filters)),
        this.deps.events.list(ctx, filters, page),
      ]);
      return listBody({
        as_of: ctx.asOf,
        meta: meta(page, total),
        data: rows.map((e) => presentEvent(e, this.deps.publicUrl)),
      } satisfies EventListResponseBody);
    });
  }

  async event(code: string): Promise<PreparedJson> {
    const ctx = await this.deps.readContext.current();
    return this.bodies.get(`event|${ctx.runId}|${ctx.today}|${code}`, async () => {
      const event = await this.deps.events.byCode(code);
      if (!event) throw notFound(`event "${code}"`);
      return prepareJson({ as_of: ctx.asOf, data: presentEvent(event, this.deps.publicUrl) } satisfies EventResponseBody);
    });
  }

  async eventResults(code: string): Promise<PreparedJson> {
    const ctx = await this.deps.readContext.current();
    return this.bodies.get(`event-results|${ctx.runId}|${ctx.today}|${code}`, async () => {
      const event = await this.deps.events.byCode(code);
      if (!event) throw notFound(`event "${code}"`);
      const rows = await this.deps.results.forEvent(ctx, event.e_code);
      const data = rows.map((r) => presentResult(r, ctx.asOf, this.deps.publicUrl));
      return prepareJson({ as_of: ctx.asOf, event: presentEvent(event, this.deps.publicUrl), count: data.length, data } satisfies EventResultsResponseBody);
    });
  }

  async results(q: ResultsQuery): Promise<ListBody> {
    await this.deps.reader.assertKnownCountry(q.country);
    const page = pageOf(q);
    const ctx = await this.deps.readContext.current();
    const filters = filtersOf(q);
    const scope = `${ctx.runId}|${ctx.today}|${JSON.stringify(filters)}`;
    return this.lists.get(`results|${scope}|${page.page}|${page.perPage}`, async () => {
      const offset = (page.page - 1) * page.perPage;
      const anchor = offset >= FEED_ANCHORED_FROM ? await this.feedAnchor(ctx, filters, scope, offset) : undefined;
      const [total, rows] = await Promise.all([
        this.totals.get(`results|${scope}`, () => this.deps.results.count(ctx, filters)),
        this.deps.results.list(ctx, filters, page, anchor),
      ]);
      // JSON.stringify of { as_of, meta, data: rows.map(presentResult) }, spliced (resultJson)
      const head = { as_of: ctx.asOf, meta: meta(page, total) } satisfies Omit<ResultListResponseBody, 'data'>;
      const data = rows.map((r) => resultJson(r, ctx.asOf, this.viewJson)).join(',');
      return { json: prepareJson(`${JSON.stringify(head).slice(0, -1)},"data":[${data}]}`), meta: head.meta };
    });
  }

  /** The nearest anchor at or before `offset` of the filtered feed (none past its end). */
  private async feedAnchor(ctx: ReadContext, filters: ResultFilters, scope: string, offset: number): Promise<FeedAnchor | undefined> {
    const version = this.changes.version('catalog');
    const loaded = this.anchors.get(`results|${scope}`, async () => {
      const read = thinAnchors(await this.deps.results.anchors(ctx, filters, FEED_ANCHOR_EVERY), FEED_ANCHOR_EVERY, FEED_ANCHORS_MAX_KEYS);
      if (this.lastAnchors.size >= FEED_LAST_ANCHORS_MAX) this.lastAnchors.clear();
      this.lastAnchors.set(scope, { version, anchors: read });
      return read;
    });
    // Re-read only because the entry is old (no change heard since): the deep pages meanwhile use
    // the anchors of this very version, rather than all waiting for a scan of the whole feed.
    const last = this.lastAnchors.get(scope);
    const { every, keys } = isPromise(loaded) && this.deps.readCacheTtlMs > 0 && last?.version === version ? last.anchors : await loaded;
    const i = Math.min(Math.floor(offset / every), keys.length) - 1;
    return i < 0 ? undefined : { key: keys[i], offset: (i + 1) * every };
  }

  async verify(number: string): Promise<PreparedJson> {
    const ctx = await this.deps.readContext.current();
    return this.bodies.get(`verify|${ctx.runId}|${ctx.today}|${number}`, async () => {
      const verification = await this.deps.verification.verify(ctx, number);
      return prepareJson({ as_of: ctx.asOf, ...presentVerification(verification) } satisfies VerificationResponseBody);
    });
  }

  /** Not cached: `request_count` moves with every request (this one included). At once when the context and the count are known here. */
  me(p: PartnerPrincipal): Maybe<PreparedJson> {
    return then(this.deps.readContext.current(), (ctx) => then(this.deps.keys.requestCount(p.keyId), (count) => meBody(ctx, p, count)));
  }
}

/** The anchors of a filter set: the sort keys of the rows at offsets `every`, 2 × `every`, ... */
export interface FeedAnchors {
  every: number;
  keys: FeedKey[];
}

/** Anchors read `every` rows apart, thinned to at most `max`: every k-th kept, so `every` × k rows apart. */
export function thinAnchors(keys: FeedKey[], every: number, max: number): FeedAnchors {
  const k = Math.ceil(keys.length / max);
  return k <= 1 ? { every, keys } : { every: every * k, keys: keys.filter((_, i) => (i + 1) % k === 0) };
}

function meBody(ctx: ReadContext, p: PartnerPrincipal, requestCount: number): PreparedJson {
  return prepareJson({
    as_of: ctx.asOf,
    data: {
      name: p.name,
      partner: p.partner,
      scopes: p.scopes as KeyInfoResponseBody['data']['scopes'],
      rate_limit_per_minute: p.rateLimitPerMinute,
      expires_at: p.expiresAt ? p.expiresAt.toISOString() : null,
      request_count: requestCount,
    },
  } satisfies KeyInfoResponseBody);
}

function listBody<B extends { meta: PageMeta }>(body: B): ListBody {
  return { json: prepareJson(body), meta: body.meta };
}

function standing(r: { points: number | null; ranks: Record<string, number> | null }) {
  return r.ranks ? { points: r.points, ranks: r.ranks } : undefined;
}
