/**
 * The one home of the rule for a bout between an adult and a minor (docs/decisions.md#minors):
 * the adult's result is served, the minor is not named. `opponent` stays a string (the contract
 * types it so) and takes one fixed value that no fighter's name can take, the same in results,
 * event results, profile bouts and `result.verified` payloads. Who is a minor is decided by the
 * queries on the day of the read (`opponent_minor`), as everywhere else.
 */
export const WITHHELD_OPPONENT = '(withheld)';

export function shownOpponent(row: { opponent: string; opponent_minor: boolean }): string {
  return row.opponent_minor ? WITHHELD_OPPONENT : row.opponent;
}

/** SQL: whether the fighter `o` (joined with its identity `oi`) is a minor, given the `p` CTE of fighter-summary.sql. */
export const OPPONENT_MINOR_SQL = `(oi.date_of_birth > p.adult_cutoff)`;

/**
 * Whether the opponent is a minor on `today`, from the day of majority the read model stores with
 * a card's bouts (`YYYY-MM-DD`; null when the opponent has no result row, which cannot prove
 * adulthood: withheld). The same decision as `coalesce(o.adult_on > today, true)` in SQL.
 */
export function opponentMinorOn(adultOn: string | null, today: string): boolean {
  return adultOn === null || adultOn > today;
}
