import type { EventRow, FighterRow } from './fighter-summary.sql';
import type { ResultRow } from './results.queries';
import type { EventLevel } from '../events/event.entity';
import { levelMultiplier, resultPoints } from '../rankings/points.calculator';

/**
 * The views of the catalogue that more than one door sends: the partner API's responses and the
 * partner webhooks' payloads carry the same fighter, event and result objects. They are shaped
 * field by field: identity and contact data have no field here, which is how they stay private
 * whatever a query happens to read.
 */
export function presentCountry(r: FighterRow) {
  return { slug: r.c_slug, name: r.c_name, code: r.c_code, continent: r.c_continent };
}

export function presentDivision(r: { d_discipline: string; d_category: string; d_gender: string; d_weight_class: string; d_label: string }) {
  return { discipline: r.d_discipline, category: r.d_category, gender: r.d_gender, weight_class: r.d_weight_class, label: r.d_label };
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
