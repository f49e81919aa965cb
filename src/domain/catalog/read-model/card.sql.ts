/**
 * The FighterRow fields (see fighter-summary.sql.ts) of a fighter card `a`, as [name, SQL] pairs.
 * `$1` is today: licence expiry and minority are decided at read time from the stored dates.
 */
function cardFields(a: string): [string, string][] {
  return [
    ['f_id', `${a}.fighter_id`],
    ['f_slug', `${a}.slug`],
    ['f_name', `${a}.name`],
    ['f_nickname', `${a}.nickname`],
    ['f_status', `${a}.status`],
    ['f_ranking_published', `${a}.ranking_published`],
    ['f_fighter_code', `${a}.fighter_code`],
    ['f_division_id', `${a}.division_id`],
    ['c_slug', `${a}.country_slug`],
    ['c_name', `${a}.country_name`],
    ['c_code', `${a}.country_code`],
    ['c_continent', `${a}.continent_slug`],
    ['d_discipline', `${a}.discipline`],
    ['d_category', `${a}.category`],
    ['d_gender', `${a}.gender`],
    ['d_weight_class', `${a}.weight_class`],
    ['d_label', `${a}.division_label`],
    ['f_licence_status', `case when ${a}.licence_state = 'active' and ${a}.licence_valid_until < $1::date then 'expired' else ${a}.licence_state end`],
    ['f_minor', `${a}.adult_on > $1::date`],
  ];
}

/** The FighterRow columns read from a fighter card `a` (`$1` is today). */
export function cardColumns(a = 'f'): string {
  return cardFields(a)
    .map(([name, value]) => `${value} as ${name}`)
    .join(', ');
}

/** The same as `json_build_object` arguments (key, value, ...), for a row read as part of one JSON value. */
export function cardColumnsJson(a = 'f'): string {
  return cardFields(a)
    .map(([name, value]) => `'${name}', ${value}`)
    .join(', ');
}

/** A card's profile columns beyond the summary: the record, and the standing `s` of standingJoin. */
export const STANDING_COLUMNS = `f.record, s.points, s.ranks`;

/** The standing (fighter_standing `s`) of card `f` in the run bound at `runParam` (none without a run). */
export function standingJoin(runParam: string): string {
  return `left join fighter_standing s on s.run_id = ${runParam}::uuid and s.fighter_id = f.fighter_id`;
}
