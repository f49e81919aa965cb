import { boutResultSql } from '../../results/bout-result.sql';
import { eventColumnsJson } from '../fighter-summary.sql';

/**
 * The read model's SQL, shared by the refresh functions (inside the operator's transaction) and
 * by the full rebuild (migration, demo seed, `readmodel:rebuild`). A `scope` is a WHERE fragment
 * with at most one `?` (a uuid array literal), or `true` for everything.
 */

/** The day a person born on `dob` turns 18: a Feb 29 birthday counts from Mar 1 (as addYears clamps). */
export function adultOn(dob: string): string {
  return `(${dob} + interval '18 years'
    + case when extract(month from ${dob}) = 2 and extract(day from ${dob}) = 29 then interval '1 day' else interval '0 days' end)::date`;
}

/** The feed order, held by the result_row indexes (slug and code are `collate "C"` there), over result rows `r`. */
export const FEED_ORDER = `r.event_date desc, r.event_code, r.bout_order, r.outcome_rank, r.fighter_slug`;

/** How many of a fighter's latest bouts the card keeps: those a profile shows. */
export const CARD_BOUTS = 20;

/** The licence state a card stores for the current licence `l` (left-joined): expiry is decided at read time. */
function licenceStateSql(l: string): string {
  return `case when ${l}.id is null then 'none' when ${l}.state in ('pending', 'suspended') then ${l}.state else 'active' end`;
}

/**
 * What a result row keeps of its fighter's card, so a page of the feed reads no card
 * (docs/adr/0013-cold-reads.md, decision 6): the card's column for each (`slug` and
 * `country_slug` are the row's `fighter_slug` and `fighter_country`, set with the row).
 */
const ROW_CARD_COLUMNS: readonly (readonly [row: string, card: string])[] = [
  ['fighter_name', 'name'],
  ['fighter_nickname', 'nickname'],
  ['fighter_status', 'status'],
  ['fighter_ranking_published', 'ranking_published'],
  ['fighter_code', 'fighter_code'],
  ['fighter_division_id', 'division_id'],
  ['country_name', 'country_name'],
  ['country_code', 'country_code'],
  ['continent_slug', 'continent_slug'],
  ['division_discipline', 'discipline'],
  ['division_category', 'category'],
  ['division_gender', 'gender'],
  ['division_weight_class', 'weight_class'],
  ['division_label', 'division_label'],
  ['licence_state', 'licence_state'],
  ['licence_valid_until', 'licence_valid_until'],
];

/** What a result row keeps of its event (besides `event_code` and `event_date`, its sort keys): the event's column for each. */
const ROW_EVENT_COLUMNS: readonly (readonly [row: string, event: string])[] = [
  ['event_name', 'name'],
  ['event_city', 'city'],
  ['event_country', 'country_slug'],
  ['event_level', 'level'],
  ['event_status', 'status'],
];

/**
 * One row per side of each verified bout at a sanctioned event, with its feed order keys and what a
 * page of the feed shows; inserted in feed order, so a page's rows share a few heap pages (a full
 * rebuild writes the whole table so).
 */
export function insertResultRowsSql(scope: string): string {
  return `insert into result_row (bout_id, fighter_id, event_id, event_code, event_date, bout_order, outcome_rank, fighter_slug,
      fighter_country, discipline, adult_on, result, method, round, verified_at, opponent_name, opponent_adult_on,
      ${ROW_CARD_COLUMNS.map(([row]) => row).join(', ')}, ${ROW_EVENT_COLUMNS.map(([row]) => row).join(', ')})
    select b.id, s.fighter_id, b.event_id, e.code, e.date, b."order",
           case s.result when 'W' then 0 when 'D' then 1 when 'NC' then 2 else 3 end,
           f.slug, f.country_slug, d.discipline, ${adultOn('fi.date_of_birth')}, s.result, b.method, b.round, b.verified_at, o.name,
           ${adultOn('oi.date_of_birth')},
           f.name, f.nickname, f.status, f.ranking_published, f.fighter_code, f.division_id, fc.name, fc.code, fc.continent_slug,
           fd.discipline, fd.category, fd.gender, fd.weight_class, fd.label, ${licenceStateSql('fl')}, fl.valid_until,
           ${ROW_EVENT_COLUMNS.map(([, event]) => `e.${event}`).join(', ')}
      from bout b
      join event e on e.id = b.event_id and e.sanctioned_at is not null
      join division d on d.id = b.division_id
      cross join lateral (values (b.fighter_a_id, b.fighter_b_id, ${boutResultSql('a')}), (b.fighter_b_id, b.fighter_a_id, ${boutResultSql('b')}))
        as s(fighter_id, opponent_id, result)
      join fighter f on f.id = s.fighter_id
      join fighter_identity fi on fi.fighter_id = f.id
      join country fc on fc.slug = f.country_slug
      join division fd on fd.id = f.division_id
      left join licence fl on fl.fighter_id = f.id and fl.current
      join fighter o on o.id = s.opponent_id
      left join fighter_identity oi on oi.fighter_id = o.id
     where b.verified_at is not null and ${scope}
     order by e.date desc, e.code collate "C", b."order", 7, f.slug collate "C"`;
}

/**
 * Brings the columns a result row keeps of `source` (`columns`: the row's column and the source's
 * for each) to their values there, for the rows `join` matches in `scope`: only rows that differ
 * are written.
 */
function syncRowsSql(source: string, join: string, columns: readonly (readonly [row: string, from: string])[], scope: string): string {
  const [, alias] = source.split(' ');
  return `update result_row r set ${columns.map(([row, from]) => `${row} = ${alias}.${from}`).join(', ')}
      from ${source}
     where ${join} and ${scope}
       and (${columns.map(([row]) => `r.${row}`).join(', ')}) is distinct from (${columns.map(([, from]) => `${alias}.${from}`).join(', ')})`;
}

/** Brings the card columns of the result rows of the fighters in `scope` (over fighter cards `f`) to their cards, after the cards are upserted. */
export function syncRowsWithCardsSql(scope: string): string {
  return syncRowsSql('fighter_card f', 'f.fighter_id = r.fighter_id', ROW_CARD_COLUMNS, scope);
}

/** Brings the event columns of the result rows of the events in `scope` (over events `e`) to their events. */
export function syncRowsWithEventsSql(scope: string): string {
  return syncRowsSql('event e', 'e.id = r.event_id', ROW_EVENT_COLUMNS, scope);
}

const CARD_COLUMNS = `fighter_id, slug, name, nickname, sort_name, search_text, country_slug, country_name, country_code, continent_slug,
  division_id, discipline, category, gender, weight_class, division_label, status, ranking_published, fighter_code,
  licence_state, licence_valid_until, adult_on, record, bouts`;

/**
 * The latest CARD_BOUTS bouts of each fighter in `scope` (over result rows `r`), newest first, as
 * one JSON array per fighter (docs/adr/0013-cold-reads.md): the event as it is now, the opponent's
 * name and day of majority (null when the opponent has no result row: withheld), the outcome.
 * Whether the opponent is a minor and the points of a bout depend on the day of the read, so they
 * are decided then (FighterQueries.profile, views.ts), never stored.
 */
function latestBoutsSql(scope: string): string {
  return `select r.fighter_id, json_agg(json_build_object(${eventColumnsJson('e')},
            'opponent', r.opponent_name, 'opponent_adult_on', o.adult_on::text,
            'result', r.result, 'method', r.method, 'round', r.round) order by ${FEED_ORDER}) as bouts
       from (select r.*, row_number() over (partition by r.fighter_id order by ${FEED_ORDER}) as n from result_row r where ${scope}) r
       join event e on e.id = r.event_id
       left join result_row o on o.bout_id = r.bout_id and o.fighter_id <> r.fighter_id
      where r.n <= ${CARD_BOUTS}
      group by r.fighter_id`;
}

/**
 * Upserts the cards of some fighters (`some`: ids bound three times) or all: the summary as served, the licence
 * state and validity (expiry is decided at read time), the day of majority, the record and the
 * latest bouts over the result rows. Call after the result rows are current. The standing in a run is the run's own
 * (fighter_standing, written by the publication).
 */
export function upsertCardsSql(some: boolean): string {
  const scope = (column: string) => (some ? `${column} = any(?::uuid[])` : 'true');
  const updates = CARD_COLUMNS.split(',')
    .map((c) => c.trim())
    .filter((c) => c !== 'fighter_id')
    .map((c) => `${c} = excluded.${c}`);
  return `insert into fighter_card (${CARD_COLUMNS})
    select f.id, f.slug, f.name, f.nickname, f.sort_name, f.search_text, f.country_slug, c.name, c.code, c.continent_slug,
           d.id, d.discipline, d.category, d.gender, d.weight_class, d.label, f.status, f.ranking_published, f.fighter_code,
           ${licenceStateSql('l')},
           l.valid_until, ${adultOn('fi.date_of_birth')},
           json_build_object('W', coalesce(rec.w, 0), 'L', coalesce(rec.l, 0), 'D', coalesce(rec.d, 0), 'NC', coalesce(rec.nc, 0), 'KO', coalesce(rec.ko, 0)),
           coalesce(lb.bouts, '[]'::json)
      from fighter f
      join country c on c.slug = f.country_slug
      join division d on d.id = f.division_id
      join fighter_identity fi on fi.fighter_id = f.id
      left join licence l on l.fighter_id = f.id and l.current
      left join (
        select r.fighter_id, count(*) filter (where r.result = 'W')::int as w, count(*) filter (where r.result = 'L')::int as l,
               count(*) filter (where r.result = 'D')::int as d, count(*) filter (where r.result = 'NC')::int as nc,
               count(*) filter (where r.result = 'W' and upper(coalesce(r.method, '')) in ('KO', 'TKO'))::int as ko
          from result_row r where ${scope('r.fighter_id')} group by r.fighter_id
      ) rec on rec.fighter_id = f.id
      left join (${latestBoutsSql(scope('r.fighter_id'))}) lb on lb.fighter_id = f.id
     where ${scope('f.id')}
    on conflict (fighter_id) do update set ${updates.join(', ')}`;
}

export const REBUILD_STATEMENTS: readonly string[] = [
  `delete from result_row`,
  insertResultRowsSql('true'),
  `delete from fighter_card`,
  upsertCardsSql(false),
  `analyze fighter_card`,
  `analyze result_row`,
];
