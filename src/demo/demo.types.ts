import type { Category, Continent, Country, Discipline, Gender } from './reference.data';

export type { Category, Continent, ContinentSlug, Country, Discipline, Gender } from './reference.data';

export type EventLevel = 'national' | 'international' | 'continental' | 'worldcup' | 'world';
export type EventStatus = 'scheduled' | 'live' | 'completed' | 'cancelled';

/**
 * none: applicant, no licence; pending: applicant whose licence number is issued but not yet
 * verified; active: licensed, in date; suspended: fighter and licence suspended; expired: licence
 * valid_until in the past; renewed: active licence that replaced an earlier number (the earlier one
 * is superseded); revoked: the only licence was revoked (fighter back to applicant).
 */
export type LicenceScenario = 'none' | 'pending' | 'active' | 'suspended' | 'expired' | 'renewed' | 'revoked';
export type CertificateScenario = 'pending' | 'active' | 'suspended' | 'expired' | 'revoked';

export interface DemoDivision {
  /** `${discipline}-${category}-${gender}-${weightClass}` */
  key: string;
  discipline: Discipline;
  category: Category;
  gender: Gender;
  /** Weight-class slug: '67kg', '63-5kg', '91kg-plus'. */
  weightClass: string;
  label: string;
  /** The weight class's sort key (tenths of a kg, open classes last); sorts within discipline and gender. */
  order: number;
}

export interface DemoFighter {
  /** Stable within a plan: 'f0001'. */
  key: string;
  name: string;
  nickname: string | null;
  countrySlug: string;
  divisionKey: string;
  /** YYYY-MM-DD; never within 30 days of an 18th birthday, so adulthood is the same all fortnight. */
  dateOfBirth: string;
  /** Identity and contact data: private, distinct per fighter. */
  email: string;
  phone: string;
  address: string;
  licence: LicenceScenario;
  licenceIssuedOn: string | null;
  licenceValidUntil: string | null;
  /** Only for 'renewed': the superseded licence, valid for a year from this date. */
  previousLicenceIssuedOn: string | null;
  /** A medical certificate, for about 30% of fighters. */
  certificate: CertificateScenario | null;
  /** Beyond the brief's shape: the dates the certificate needs (expired: valid until before today). */
  certificateIssuedOn: string | null;
  certificateValidUntil: string | null;
  rankingPublished: boolean;
}

export interface DemoEvent {
  /** Stable within a plan, in date order: 'e0001'. */
  key: string;
  name: string;
  city: string | null;
  countrySlug: string;
  date: string;
  level: EventLevel | null;
  status: EventStatus;
  sanctioned: boolean;
}

export type BoutMethod = 'KO' | 'TKO' | 'UD' | 'SD' | 'MD' | 'SUB' | 'DQ';

export interface DemoBout {
  eventKey: string;
  /** 1-based position on the event's card. */
  order: number;
  divisionKey: string;
  /** Fighter keys. When outcome is 'a', fighterA won. */
  fighterA: string;
  fighterB: string;
  outcome: 'a' | 'draw' | 'nc';
  /** Draws carry the scorecards' verdict (UD, SD, MD); a no contest often has none. */
  method: BoutMethod | null;
  round: number | null;
  verified: boolean;
}

export interface DemoPlan {
  today: string;
  continents: Continent[];
  countries: Country[];
  divisions: DemoDivision[];
  fighters: DemoFighter[];
  events: DemoEvent[];
  bouts: DemoBout[];
  /** as_of dates of the two published ranking runs, oldest first: today minus 14 days, and today. */
  rankingRuns: string[];
}
