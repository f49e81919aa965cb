import type { FighterRow } from '../domain/catalog/fighter-summary.sql';
import type { DivisionRow, DivisionSummaryRow, RankedRowData } from '../domain/catalog/rankings.queries';
import type { Verification } from '../domain/catalog/verification.queries';
import { presentCountry, presentDivision, presentFighterSummary } from '../domain/catalog/views';
import type { DivisionBody } from '../domain/catalog/view.schemas';
import type { FighterRecord } from '../domain/rankings/ranking.engine';
import type { VerificationBody } from './schemas/account.schemas';
import type { FighterBody, FighterRecordBody, MinorFighterBody } from './schemas/fighter.schemas';
import type { DivisionSummaryBody, RankedRowBody } from './schemas/ranking.schemas';

/**
 * The partner API's own response shapes, built on the shared catalogue views. Each returns the
 * type of its zod schema (src/rest/schemas), from which the OpenAPI document is generated: a field
 * the document lacks does not compile. Identity and contact data have no field here either.
 */
export function presentDivisionRow(d: DivisionRow): DivisionBody {
  return presentDivision({ d_discipline: d.discipline, d_category: d.category, d_gender: d.gender, d_weight_class: d.weight_class, d_label: d.label });
}

/** A minor is shown by name, country and division only (docs/decisions.md). */
export function presentMinor(r: FighterRow): MinorFighterBody {
  return { name: r.f_name, country: presentCountry(r), division: presentDivision(r) };
}

export function presentFighter(
  r: FighterRow,
  record: FighterRecord,
  standing: { points: number | null; ranks: Record<string, number> } | undefined,
): FighterBody {
  const ranks = standing && Object.keys(standing.ranks).length ? standing.ranks : null;
  return { ...presentFighterSummary(r), points: standing?.points ?? null, record, ranks };
}

export function presentRecord(r: FighterRecord): FighterRecordBody {
  return { W: r.W, L: r.L, D: r.D, NC: r.NC, KO: r.KO };
}

export function presentRankedRow(r: RankedRowData): RankedRowBody {
  return { rank: r.rank, movement: r.movement, points: r.points, record: presentRecord(r.record), fighter: presentFighterSummary(r) };
}

export function presentDivisionSummary(d: DivisionSummaryRow): DivisionSummaryBody {
  return {
    ...presentDivisionRow(d),
    ranked: d.ranked,
    query: { disc: d.discipline, cat: d.category, g: d.gender, wc: d.weight_class },
    leader: { points: d.leader.points, fighter: presentFighterSummary(d.leader) },
  };
}

export function presentVerification(v: Verification): VerificationBody {
  return {
    valid: v.valid,
    status: v.status,
    matched: v.matched,
    fighter: v.fighter ? (v.fighter.f_minor ? presentMinor(v.fighter) : presentFighterSummary(v.fighter)) : null,
  };
}
