import type { FighterRow } from '../domain/catalog/fighter-summary.sql';
import type { DivisionRow, DivisionSummaryRow, RankedRowData } from '../domain/catalog/rankings.queries';
import type { Verification } from '../domain/catalog/verification.queries';
import { presentCountry, presentDivision, presentFighterSummary } from '../domain/catalog/views';
import type { FighterRecord } from '../domain/rankings/ranking.engine';

/**
 * The partner API's own response shapes, built on the shared catalogue views. Identity and
 * contact data have no field here either.
 */
export function presentDivisionRow(d: DivisionRow) {
  return { discipline: d.discipline, category: d.category, gender: d.gender, weight_class: d.weight_class, label: d.label };
}

/** A minor is shown by name, country and division only (D2.13). */
export function presentMinor(r: FighterRow) {
  return { name: r.f_name, country: presentCountry(r), division: presentDivision(r) };
}

export function presentFighter(r: FighterRow, record: FighterRecord, standing: { points: number | null; ranks: Record<string, number> } | undefined) {
  const ranks = standing && Object.keys(standing.ranks).length ? standing.ranks : null;
  return { ...presentFighterSummary(r), points: standing?.points ?? null, record, ranks };
}

export function presentRecord(r: FighterRecord): FighterRecord {
  return { W: r.W, L: r.L, D: r.D, NC: r.NC, KO: r.KO };
}

export function presentRankedRow(r: RankedRowData) {
  return { rank: r.rank, movement: r.movement, points: r.points, record: presentRecord(r.record), fighter: presentFighterSummary(r) };
}

export function presentDivisionSummary(d: DivisionSummaryRow) {
  return {
    ...presentDivisionRow(d),
    ranked: d.ranked,
    query: { disc: d.discipline, cat: d.category, g: d.gender, wc: d.weight_class },
    leader: d.leader ? { points: d.leader.points, fighter: presentFighterSummary(d.leader) } : null,
  };
}

export function presentVerification(v: Verification) {
  return {
    valid: v.valid,
    status: v.status,
    matched: v.matched,
    fighter: v.fighter ? (v.fighter.f_minor ? presentMinor(v.fighter) : presentFighterSummary(v.fighter)) : null,
  };
}
