/**
 * SQL shared by every partner read that shows a fighter. Queries start with the `p` CTE
 * (today and the date before which a birthday makes an adult) so fragments need no bindings.
 * Identity columns are read only to decide minority; no row type exposes them.
 */
export const PARAMS_CTE = `with p as (select ?::date as today, ?::date as adult_cutoff)`;

export function fighterColumns(a = 'f'): string {
  return `${a}.id as f_id, ${a}.slug as f_slug, ${a}.name as f_name, ${a}.nickname as f_nickname,
    ${a}.status as f_status, ${a}.ranking_published as f_ranking_published, ${a}.fighter_code as f_fighter_code,
    ${a}.division_id as f_division_id,
    fc.slug as c_slug, fc.name as c_name, fc.code as c_code, fc.continent_slug as c_continent,
    fd.discipline as d_discipline, fd.category as d_category, fd.gender as d_gender,
    fd.weight_class as d_weight_class, fd.label as d_label,
    case when fl.id is null then 'none' when fl.state = 'pending' then 'pending'
         when fl.state = 'suspended' then 'suspended'
         when fl.valid_until is not null and fl.valid_until < p.today then 'expired' else 'active' end as f_licence_status,
    (fi.date_of_birth > p.adult_cutoff) as f_minor`;
}

export function fighterJoins(a = 'f'): string {
  return `join country fc on fc.slug = ${a}.country_slug
    join division fd on fd.id = ${a}.division_id
    join fighter_identity fi on fi.fighter_id = ${a}.id
    left join licence fl on fl.fighter_id = ${a}.id and fl.current`;
}

export interface FighterRow {
  f_id: string;
  f_slug: string;
  f_name: string;
  f_nickname: string | null;
  f_status: string;
  f_ranking_published: boolean;
  f_fighter_code: string | null;
  f_division_id: string;
  c_slug: string;
  c_name: string;
  c_code: string;
  c_continent: string;
  d_discipline: string;
  d_category: string;
  d_gender: string;
  d_weight_class: string;
  d_label: string;
  f_licence_status: string;
  f_minor: boolean;
}

export interface EventRow {
  e_id: string;
  e_code: string;
  e_name: string;
  e_city: string | null;
  e_country: string;
  e_date: string;
  e_level: string | null;
  e_status: string;
}

export function eventColumns(a = 'e'): string {
  return `${a}.id as e_id, ${a}.code as e_code, ${a}.name as e_name, ${a}.city as e_city,
    ${a}.country_slug as e_country, ${a}.date::text as e_date, ${a}.level as e_level, ${a}.status as e_status`;
}

/** The EventRow fields of event `a` as `json_build_object` arguments (key, value, ...). */
export function eventColumnsJson(a = 'e'): string {
  return `'e_id', ${a}.id, 'e_code', ${a}.code, 'e_name', ${a}.name, 'e_city', ${a}.city,
    'e_country', ${a}.country_slug, 'e_date', ${a}.date::text, 'e_level', ${a}.level, 'e_status', ${a}.status`;
}

/** A PostgreSQL array literal for `= any(?::text[])` (bindings of arrays would be expanded). */
export function pgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

export interface Page {
  page: number;
  perPage: number;
}

export interface Paged<T> {
  rows: T[];
  total: number;
}
