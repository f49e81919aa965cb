import type { EventRow, FighterRow } from './fighter-summary.sql';
import type { BoutRow, FeedRow } from './results.queries';
import type { EventLevel } from '../events/event.entity';
import { levelMultiplier, resultPoints } from '../rankings/points.calculator';
import { eventApiUrl } from './api-urls';
import { shownOpponent } from './withheld-opponent';
import type { BoutResultBody, CountryBody, DivisionBody, EventBody, FighterSummaryBody, ResultBody } from './view.schemas';

/**
 * The views of the catalogue that more than one door sends: the partner API's responses and the
 * partner webhooks' payloads carry the same fighter, event and result objects. They are shaped
 * field by field: identity and contact data have no field here, which is how they stay private
 * whatever a query happens to read. Each returns the type of its zod schema (view.schemas.ts), so a
 * field the OpenAPI document lacks does not compile; the rows' closed vocabularies (discipline,
 * status, ...) are strings the database constrains, narrowed here to the schema's literals.
 */
export function presentCountry(r: Pick<FighterRow, 'c_slug' | 'c_name' | 'c_code' | 'c_continent'>): CountryBody {
  return { slug: r.c_slug, name: r.c_name, code: r.c_code, continent: r.c_continent as CountryBody['continent'] };
}

export function presentDivision(r: { d_discipline: string; d_category: string; d_gender: string; d_weight_class: string; d_label: string }): DivisionBody {
  return {
    discipline: r.d_discipline as DivisionBody['discipline'],
    category: r.d_category as DivisionBody['category'],
    gender: r.d_gender as DivisionBody['gender'],
    weight_class: r.d_weight_class,
    label: r.d_label,
  };
}

/** The fighter's columns a summary shows: not its ids, nor whether it is a minor (the callers decide that). */
export type FighterSummaryRow = Omit<FighterRow, 'f_id' | 'f_division_id' | 'f_minor'>;

export function presentFighterSummary(r: FighterSummaryRow): FighterSummaryBody {
  return {
    slug: r.f_slug,
    name: r.f_name,
    nickname: r.f_nickname,
    country: presentCountry(r),
    division: presentDivision(r),
    status: r.f_status as FighterSummaryBody['status'],
    ranking_published: r.f_ranking_published,
    licence_status: r.f_licence_status as FighterSummaryBody['licence_status'],
    fighter_code: r.f_fighter_code,
  };
}

export function presentEvent(r: Omit<EventRow, 'e_id'>, publicUrl: string): EventBody {
  return {
    code: r.e_code,
    name: r.e_name,
    city: r.e_city,
    country: r.e_country,
    date: r.e_date,
    level: r.e_level as EventLevel | null,
    multiplier: levelMultiplier(r.e_level as EventLevel | null),
    is_live: r.e_status === 'live',
    status: r.e_status as EventBody['status'],
    url: eventApiUrl(publicUrl, r.e_code),
  };
}

/** A bout as a profile lists it: without the fighter whose profile it is. */
export function presentBout(r: BoutRow, asOf: string, publicUrl: string): BoutResultBody {
  return {
    event: presentEvent(r, publicUrl),
    opponent: shownOpponent(r),
    result: r.result,
    method: r.method,
    round: r.round,
    points: resultPoints(r.result, r.method, r.e_level as EventLevel | null, r.e_date, asOf),
  };
}

export function presentResult(r: FeedRow, asOf: string, publicUrl: string): ResultBody {
  const { event, ...rest } = presentBout(r, asOf, publicUrl);
  return { event, fighter: presentFighterSummary(r), ...rest };
}
