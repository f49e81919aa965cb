import type { DivisionRow } from '../domain/catalog/rankings.queries';
import { DomainError } from '../domain/errors';
import { prepareJson, type PreparedJson } from '../http/send-json';
import type { ChangeFeed } from '../db/change-feed';
import { VersionedCache } from '../lib/versioned-cache';
import type { PartnerApiDeps } from './partner-api.deps';
import type { DivisionListResponseBody, RankingResponseBody } from './schemas/responses';
import { presentDivisionRow, presentDivisionSummary, presentRankedRow } from './presenters';
import { CONTINENTS } from '../http/query';
import { partnerBodyCache, partnerReadCache, PARTNER_BODY_BUDGETS } from './read-cache';

const DIVISION_KEYS = [
  ['disc', 'discipline'],
  ['cat', 'category'],
  ['g', 'gender'],
  ['wc', 'weight_class'],
] as const;
type DivisionQuery = Partial<Record<'disc' | 'cat' | 'g' | 'wc', string>>;

/** Picks the one division the parameters name (docs/decisions.md#rankings), or explains what is missing. */
export function matchDivision(all: DivisionRow[], given: DivisionQuery): DivisionRow {
  const matches = all.filter((d) => DIVISION_KEYS.every(([p, field]) => given[p] === undefined || d[field] === given[p]));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new DomainError(
      'invalid_division',
      `no division matches ${
        DIVISION_KEYS.filter(([p]) => given[p])
          .map(([p]) => `${p}=${given[p]}`)
          .join(', ') || 'these parameters'
      }; see /divisions`,
    );
  }
  const missing = DIVISION_KEYS.filter(([p, field]) => given[p] === undefined && new Set(matches.map((d) => d[field])).size > 1).map(([p]) => p);
  throw new DomainError(
    'invalid_division',
    `${matches.length} divisions match; also give ${missing.join(', ')} (see /divisions for the divisions and their parameters)`,
  );
}

interface DivisionIndex {
  all: DivisionRow[];
  /** disc|cat|g|wc -> division: the common, fully specified request costs one lookup. */
  exact: Map<string, DivisionRow>;
}

/** The parsed query of /rankings (its declaration: src/rest/operations/rankings.operations.ts). */
export interface RankingsQuery extends DivisionQuery {
  scope?: string;
}

/**
 * /rankings and /divisions bodies, rendered once per run, day, division and scope and kept until
 * the `catalog` topic of the change feed moves (a licence suspended or a fighter renamed changes
 * the fighter summaries in them), shared by the express route and the fast path.
 */
export class RankingsReader {
  private readonly divisions: VersionedCache<DivisionIndex>;
  private readonly scopes: VersionedCache<boolean>;
  private readonly countries: VersionedCache<ReadonlySet<string>>;
  private readonly bodies: VersionedCache<PreparedJson>;

  constructor(
    private readonly deps: Pick<PartnerApiDeps, 'rankings' | 'readContext' | 'readCacheTtlMs'>,
    changes: Pick<ChangeFeed, 'version' | 'live'>,
  ) {
    const cache = (maxEntries: number) => partnerReadCache(changes, deps.readCacheTtlMs, maxEntries);
    this.divisions = new VersionedCache(cache(1));
    this.scopes = new VersionedCache(cache(5_000));
    this.countries = new VersionedCache(cache(1));
    this.bodies = new VersionedCache(partnerBodyCache<PreparedJson>(changes, deps.readCacheTtlMs, 5_000, PARTNER_BODY_BUDGETS.rankingBodies, (v) => v));
  }

  /**
   * A `country` filter must name a known country: an unknown slug is a 422 `invalid_country`, as
   * an unknown `scope` is on /rankings, not an empty list. The set of slugs is read once per
   * read-cache period.
   */
  async assertKnownCountry(country: string | undefined): Promise<void> {
    if (country === undefined) return;
    const known = await this.countries.get('all', async () => new Set(await this.deps.rankings.countrySlugs()));
    if (!known.has(country)) {
      throw new DomainError('invalid_country', `"country" must be the slug of a known country, such as germany; got "${country}"`);
    }
  }

  /** Throws the 422 DomainErrors of a query that names no one division (invalid_division) or an unknown scope. */
  async rankings(q: RankingsQuery): Promise<PreparedJson> {
    const index = await this.divisions.get('all', async () => {
      const all = await this.deps.rankings.divisions();
      return { all, exact: new Map(all.map((d) => [`${d.discipline}|${d.category}|${d.gender}|${d.weight_class}`, d])) };
    });
    const division = index.exact.get(`${q.disc}|${q.cat}|${q.g}|${q.wc}`) ?? matchDivision(index.all, q);
    const scope = q.scope ?? 'world';
    // The six continents are valid scopes (docs/decisions.md#rankings) even before any country of theirs is loaded,
    // so a partner asking for one gets an empty table, not a 422.
    const known = (CONTINENTS as readonly string[]).includes(scope) || (await this.scopes.get(scope, () => this.deps.rankings.scopeExists(scope)));
    if (!known) {
      throw new DomainError('invalid_scope', `"scope" must be world, a continent (${CONTINENTS.join(', ')}) or a country slug; got "${scope}"`);
    }
    const ctx = await this.deps.readContext.current();
    return this.bodies.get(`${ctx.runId}|${ctx.today}|${division.id}|${scope}`, async () => {
      const rows = await this.deps.rankings.ranked(ctx, division.id, scope);
      return prepareJson({
        as_of: ctx.asOf,
        division: presentDivisionRow(division),
        scope,
        count: rows.length,
        data: rows.map(presentRankedRow),
      } satisfies RankingResponseBody);
    });
  }

  async divisionSummaries(): Promise<PreparedJson> {
    const ctx = await this.deps.readContext.current();
    return this.bodies.get(`divisions|${ctx.runId}|${ctx.today}`, async () => {
      const rows = await this.deps.rankings.divisionSummaries(ctx);
      return prepareJson({ as_of: ctx.asOf, count: rows.length, data: rows.map(presentDivisionSummary) } satisfies DivisionListResponseBody);
    });
  }
}
