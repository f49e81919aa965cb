/**
 * A licence's status on the day of the read (`$1`), from the stored state and end of validity of
 * row `a` (a fighter card, or a result row, which keeps the card's two columns): an active
 * licence past its last day is `expired`.
 */
export function licenceStatusSql(a: string): string {
  return `case when ${a}.licence_state = 'active' and ${a}.licence_valid_until < $1::date then 'expired' else ${a}.licence_state end`;
}

/**
 * The FighterRow columns (see fighter-summary.sql.ts) read from a fighter card `f`. `$1` is
 * today: licence expiry and minority are decided at read time from the stored dates.
 */
export function cardColumns(a = 'f'): string {
  return `${a}.fighter_id as f_id, ${a}.slug as f_slug, ${a}.name as f_name, ${a}.nickname as f_nickname,
    ${a}.status as f_status, ${a}.ranking_published as f_ranking_published, ${a}.fighter_code as f_fighter_code,
    ${a}.division_id as f_division_id, ${a}.country_slug as c_slug, ${a}.country_name as c_name, ${a}.country_code as c_code,
    ${a}.continent_slug as c_continent, ${a}.discipline as d_discipline, ${a}.category as d_category, ${a}.gender as d_gender,
    ${a}.weight_class as d_weight_class, ${a}.division_label as d_label,
    ${licenceStatusSql(a)} as f_licence_status,
    ${a}.adult_on > $1::date as f_minor`;
}

/** A card's profile columns beyond the summary: the record, and the standing `s` of standingJoin. */
export const STANDING_COLUMNS = `f.record, s.points, s.ranks`;

/** The standing (fighter_standing `s`) of card `f` in the run bound at `runParam` (none without a run). */
export function standingJoin(runParam: string): string {
  return `left join fighter_standing s on s.run_id = ${runParam}::uuid and s.fighter_id = f.fighter_id`;
}
