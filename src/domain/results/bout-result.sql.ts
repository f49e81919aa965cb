/**
 * A side's result of a bout `b` as SQL (W, L, D or NC from `b.outcome`), as the results view
 * (`verified_result`) defines it: for the read model's result rows and the ranking's loader.
 */
export function boutResultSql(side: 'a' | 'b'): string {
  return side === 'a'
    ? `case b.outcome when 'a' then 'W' when 'b' then 'L' when 'draw' then 'D' else 'NC' end`
    : `case b.outcome when 'b' then 'W' when 'a' then 'L' when 'draw' then 'D' else 'NC' end`;
}
