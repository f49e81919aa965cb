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

/** What a bout shows besides its event (and, in the feed, its fighter): the opponent, the outcome and its points on `asOf`. */
export type BoutOutcomeBody = Omit<BoutResultBody, 'event'>;

export function presentBoutOutcome(
  r: Pick<BoutRow, 'opponent' | 'opponent_minor' | 'result' | 'method' | 'round' | 'e_level' | 'e_date'>,
  asOf: string,
): BoutOutcomeBody {
  return {
    opponent: shownOpponent(r),
    result: r.result,
    method: r.method,
    round: r.round,
    points: resultPoints(r.result, r.method, r.e_level as EventLevel | null, r.e_date, asOf),
  };
}

/** A bout as a profile lists it: without the fighter whose profile it is. */
export function presentBout(r: BoutRow, asOf: string, publicUrl: string): BoutResultBody {
  return { event: presentEvent(r, publicUrl), ...presentBoutOutcome(r, asOf) };
}

export function presentResult(r: FeedRow, asOf: string, publicUrl: string): ResultBody {
  return { event: presentEvent(r, publicUrl), fighter: presentFighterSummary(r), ...presentBoutOutcome(r, asOf) };
}

/**
 * The JSON texts of presentBout, presentResult and presentFighterSummary, spliced from the JSON
 * of their parts: an event's, a country's and a division's text is made once (ViewJson) rather
 * than once per bout or result, and no object of the whole is built. Byte for byte
 * `JSON.stringify` of the view: the same keys in the same order, each value through
 * `JSON.stringify` (views.test.ts; docs/adr/0013-cold-reads.md).
 */
export function boutJson(r: BoutRow, asOf: string, parts: ViewJson): string {
  return `{"event":${parts.event(r)},${outcomeJson(r, asOf)}`;
}

export function resultJson(r: FeedRow, asOf: string, parts: ViewJson): string {
  return `{"event":${parts.event(r)},"fighter":${fighterSummaryJson(r, parts)},${outcomeJson(r, asOf)}`;
}

export function fighterSummaryJson(r: FighterSummaryRow, parts: ViewJson): string {
  return `{"slug":${q(r.f_slug)},"name":${q(r.f_name)},"nickname":${q(r.f_nickname)},"country":${parts.country(r)},"division":${parts.division(r)},"status":${q(r.f_status)},"ranking_published":${r.f_ranking_published},"licence_status":${q(r.f_licence_status)},"fighter_code":${q(r.f_fighter_code)}}`;
}

/** presentBoutOutcome's JSON without its opening brace (it follows the event, or the fighter). */
function outcomeJson(r: Pick<BoutRow, 'opponent' | 'opponent_minor' | 'result' | 'method' | 'round' | 'e_level' | 'e_date'>, asOf: string): string {
  return `"opponent":${q(shownOpponent(r))},"result":${q(r.result)},"method":${q(r.method)},"round":${q(r.round)},"points":${q(resultPoints(r.result, r.method, r.e_level as EventLevel | null, r.e_date, asOf))}}`;
}

const q = JSON.stringify;

type EventFields = Omit<EventRow, 'e_id'>;
type CountryFields = Pick<FighterRow, 'c_slug' | 'c_name' | 'c_code' | 'c_continent'>;
type DivisionFields = Pick<FighterRow, 'd_discipline' | 'd_category' | 'd_gender' | 'd_weight_class' | 'd_label'>;

/**
 * The JSON of each event, country and division shown, kept by code, slug and label while the row's
 * fields are those it was made from (a changed event makes its text anew): a profile lists up to
 * 20 bouts and a page of the feed 25 results, most of them at events already shown, of a few
 * hundred countries and divisions. At most `maxEvents` events, the first made first dropped.
 */
export class ViewJson {
  private readonly events = new Map<string, { row: EventFields; text: string }>();
  private readonly countries = new Map<string, { row: CountryFields; text: string }>();
  private readonly divisions = new Map<string, { row: DivisionFields; text: string }>();

  constructor(
    private readonly publicUrl: string,
    private readonly maxEvents = 20_000,
  ) {}

  event(r: EventFields): string {
    const kept = this.events.get(r.e_code);
    if (kept && sameEvent(kept.row, r)) return kept.text;
    const row = { e_code: r.e_code, e_name: r.e_name, e_city: r.e_city, e_country: r.e_country, e_date: r.e_date, e_level: r.e_level, e_status: r.e_status };
    return keep(this.events, r.e_code, row, JSON.stringify(presentEvent(row, this.publicUrl)), this.maxEvents);
  }

  country(r: CountryFields): string {
    const kept = this.countries.get(r.c_slug);
    if (kept && kept.row.c_name === r.c_name && kept.row.c_code === r.c_code && kept.row.c_continent === r.c_continent) return kept.text;
    const row = { c_slug: r.c_slug, c_name: r.c_name, c_code: r.c_code, c_continent: r.c_continent };
    return keep(this.countries, r.c_slug, row, JSON.stringify(presentCountry(row)), 4096);
  }

  division(r: DivisionFields): string {
    const kept = this.divisions.get(r.d_label);
    const k = kept?.row;
    if (k && k.d_discipline === r.d_discipline && k.d_category === r.d_category && k.d_gender === r.d_gender && k.d_weight_class === r.d_weight_class) {
      return kept.text;
    }
    const row = { d_discipline: r.d_discipline, d_category: r.d_category, d_gender: r.d_gender, d_weight_class: r.d_weight_class, d_label: r.d_label };
    return keep(this.divisions, r.d_label, row, JSON.stringify(presentDivision(row)), 4096);
  }
}

function keep<R>(map: Map<string, { row: R; text: string }>, key: string, row: R, text: string, max: number): string {
  if (map.has(key)) map.delete(key);
  else if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, { row, text });
  return text;
}

function sameEvent(a: EventFields, b: EventFields): boolean {
  return (
    a.e_status === b.e_status &&
    a.e_name === b.e_name &&
    a.e_date === b.e_date &&
    a.e_level === b.e_level &&
    a.e_city === b.e_city &&
    a.e_country === b.e_country
  );
}
