import type { DivisionRow, DivisionSummaryRow, RankedRowData } from './rankings.queries';
import type { EventRow, FighterRow } from './fighter-summary.sql';
import type { ResultRow } from './results.queries';
import type { Verification } from './verification.queries';
import type { EventLevel } from '../events/event.entity';
import { levelMultiplier, resultPoints } from '../rankings/points.calculator';
import type { FighterRecord } from '../rankings/ranking.engine';

/**
 * Presenters shape every partner response field by field. Identity and contact data have no
 * field here, which is how they stay private whatever a query happens to read.
 */
export function presentCountry(r: FighterRow) {
  return { slug: r.c_slug, name: r.c_name, code: r.c_code, continent: r.c_continent };
}

export function presentDivision(r: { d_discipline: string; d_category: string; d_gender: string; d_weight_class: string; d_label: string }) {
  return { discipline: r.d_discipline, category: r.d_category, gender: r.d_gender, weight_class: r.d_weight_class, label: r.d_label };
}

export function presentDivisionRow(d: DivisionRow) {
  return { discipline: d.discipline, category: d.category, gender: d.gender, weight_class: d.weight_class, label: d.label };
}

export function presentFighterSummary(r: FighterRow) {
  return {
    slug: r.f_slug,
    name: r.f_name,
    nickname: r.f_nickname,
    country: presentCountry(r),
    division: presentDivision(r),
    status: r.f_status,
    ranking_published: r.f_ranking_published,
    licence_status: r.f_licence_status,
    fighter_code: r.f_fighter_code,
  };
}

/** A minor is shown by name, country and division only (D2.13). */
export function presentMinor(r: FighterRow) {
  return { name: r.f_name, country: presentCountry(r), division: presentDivision(r) };
}

export function presentFighter(r: FighterRow, record: FighterRecord, standing: { points: number | null; ranks: Record<string, number> } | undefined) {
  const ranks = standing && Object.keys(standing.ranks).length ? standing.ranks : null;
  return { ...presentFighterSummary(r), points: standing?.points ?? null, record, ranks };
}

export function presentEvent(r: EventRow, publicUrl: string) {
  return {
    code: r.e_code,
    name: r.e_name,
    city: r.e_city,
    country: r.e_country,
    date: r.e_date,
    level: r.e_level,
    multiplier: levelMultiplier(r.e_level as EventLevel | null),
    is_live: r.e_status === 'live',
    status: r.e_status,
    url: `${publicUrl}/events/${encodeURIComponent(r.e_code)}`,
  };
}

export function presentResult(r: ResultRow, asOf: string, publicUrl: string, withFighter = true) {
  const base = {
    event: presentEvent(r, publicUrl),
    ...(withFighter ? { fighter: presentFighterSummary(r) } : {}),
    opponent: r.opponent,
    result: r.result,
    method: r.method,
    round: r.round,
    points: resultPoints(r.result, r.method, r.e_level as EventLevel | null, r.e_date, asOf),
  };
  return base;
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
