import type { Request, Response } from 'express';
import type { DivisionRow } from '../domain/catalog/rankings.queries';
import { DomainError } from '../domain/errors';
import { sendJson } from '../http/send-json';
import { TtlCache } from '../http/ttl-cache';
import type { PartnerApiDeps } from './partner-api.deps';
import { presentDivisionRow, presentDivisionSummary, presentRankedRow } from './presenters';
import { CONTINENTS, params, parseQuery } from './query';

const DIVISION_KEYS = [['disc', 'discipline'], ['cat', 'category'], ['g', 'gender'], ['wc', 'weight_class']] as const;

/** Picks the one division the parameters name (D2.6), or explains what is missing. */
export function matchDivision(all: DivisionRow[], given: Partial<Record<'disc' | 'cat' | 'g' | 'wc', string>>): DivisionRow {
  const matches = all.filter((d) => DIVISION_KEYS.every(([p, field]) => given[p] === undefined || d[field] === given[p]));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new DomainError('invalid_division', `no division matches ${DIVISION_KEYS.filter(([p]) => given[p]).map(([p]) => `${p}=${given[p]}`).join(', ') || 'these parameters'}; see /divisions`);
  }
  const missing = DIVISION_KEYS.filter(([p, field]) => given[p] === undefined && new Set(matches.map((d) => d[field])).size > 1).map(([p]) => p);
  throw new DomainError('invalid_division', `${matches.length} divisions match; also give ${missing.join(', ')} (see /divisions for the divisions and their parameters)`);
}

export function rankingsHandlers(deps: PartnerApiDeps) {
  const divisions = new TtlCache<DivisionRow[]>(10_000);
  const scopes = new TtlCache<boolean>(10_000);
  const bodies = new TtlCache<string>(deps.readCacheTtlMs);

  return {
    async rankings(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, { disc: params.disc, cat: params.cat, g: params.g, wc: params.wc, scope: params.scope });
      const division = matchDivision(await divisions.get('all', () => deps.rankings.divisions()), q);
      const scope = q.scope ?? 'world';
      // The six continents are valid scopes (D2.6) even before any country of theirs is loaded,
      // so a partner asking for one gets an empty table, not a 422.
      const known = (CONTINENTS as readonly string[]).includes(scope) || (await scopes.get(scope, () => deps.rankings.scopeExists(scope)));
      if (!known) {
        throw new DomainError('invalid_scope', `"scope" must be world, a continent (africa, asia, europe, north-america, south-america, oceania) or a country slug; got "${scope}"`);
      }
      const ctx = await deps.readContext.current();
      const body = await bodies.get(`${ctx.runId}|${ctx.today}|${division.id}|${scope}`, async () => {
        const rows = await deps.rankings.ranked(ctx, division.id, scope);
        return JSON.stringify({ as_of: ctx.asOf, division: presentDivisionRow(division), scope, count: rows.length, data: rows.map(presentRankedRow) });
      });
      await sendJson(req, res, body);
    },

    async divisions(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const body = await bodies.get(`divisions|${ctx.runId}|${ctx.today}`, async () => {
        const rows = await deps.rankings.divisionSummaries(ctx);
        return JSON.stringify({ as_of: ctx.asOf, count: rows.length, data: rows.map(presentDivisionSummary) });
      });
      await sendJson(req, res, body);
    },
  };
}
