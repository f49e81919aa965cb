/**
 * The shapes of the catalogue views (views.ts) as zod schemas: the partner API's answers and the
 * partner webhooks' payloads carry these objects, so they are declared here, once; the views are
 * typed by them and the partner OpenAPI document is generated from them
 * (docs/adr/0008-layering.md, "Schemas are the source"). Types only at run time: nothing parses an
 * answer. Every object is closed (`z.strictObject`), so a field the document lacks cannot be sent
 * without failing to compile.
 */
import { z } from 'zod';
import { WITHHELD_OPPONENT } from './withheld-opponent';
import {
  BOUT_OUTCOMES,
  CATEGORIES,
  CONTINENTS,
  DISCIPLINES,
  EVENT_LEVELS,
  EVENT_STATUSES,
  FIGHTER_STATUSES,
  GENDERS,
  LICENCE_STATUSES,
  SLUG_PATTERN,
  WEIGHT_CLASS_PATTERN,
} from '../reference/vocabulary';

const FIGHTER_ID_PATTERN = '^FID-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$';

export const Country = z
  .strictObject({
    slug: z
      .string()
      .regex(new RegExp(SLUG_PATTERN))
      .meta({ description: 'Country slug, as used by the `country` and `scope` parameters.', example: 'germany' }),
    name: z.string().meta({ description: 'Country name.', example: 'Germany' }),
    code: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .meta({ description: 'ISO 3166-1 alpha-2 code.', example: 'DE' }),
    continent: z.enum(CONTINENTS).meta({ description: 'Continent slug.' }),
  })
  .meta({ description: 'A country.' });

export const divisionFields = {
  discipline: z.enum(DISCIPLINES).meta({ description: 'Discipline.' }),
  category: z.enum(CATEGORIES).meta({ description: '`pro` (professional) or `am` (amateur).' }),
  gender: z.enum(GENDERS).meta({ description: '`m` (men) or `f` (women).' }),
  weight_class: z
    .string()
    .regex(new RegExp(WEIGHT_CLASS_PATTERN))
    .meta({ description: 'Weight-class slug, e.g. `67kg`, `63-5kg`, `91kg-plus`.', example: '67kg' }),
  label: z.string().meta({ description: 'Human-readable name of the division.', example: 'Kickboxing, Pro, Men, 67 kg' }),
};

export const Division = z.strictObject(divisionFields).meta({ description: 'A ranking division: discipline, category, gender and weight class.' });

export const fighterSummaryFields = {
  slug: z.string().meta({ description: 'Fighter identifier used in paths.', example: 'anna-schmidt' }),
  name: z.string().meta({ description: 'Public name of the fighter.' }),
  nickname: z.string().nullable().meta({ description: 'Ring name, or null.' }),
  country: Country,
  division: Division,
  status: z.enum(FIGHTER_STATUSES).meta({ description: 'Fighter status.' }),
  ranking_published: z.boolean().meta({ description: 'Whether the fighter agreed to appear in published rankings.' }),
  licence_status: z.enum(LICENCE_STATUSES).meta({ description: "State of the fighter's licence (`none`: never licensed)." }),
  fighter_code: z
    .string()
    .regex(new RegExp(FIGHTER_ID_PATTERN))
    .nullable()
    .meta({ description: 'The fighter ID (`FID-XXXX-XXXX`, Crockford base32), null until one is issued.', example: 'FID-7K3M-Q9TZ' }),
};

export const FighterSummary = z.strictObject(fighterSummaryFields).meta({ description: 'A fighter as embedded in other resources.' });

export const Event = z
  .strictObject({
    code: z.string().meta({ description: 'Event code, used in paths.' }),
    name: z.string().meta({ description: 'Event name.' }),
    city: z.string().nullable().meta({ description: 'City, or null.' }),
    country: z.string().regex(new RegExp(SLUG_PATTERN)).meta({ description: 'Country slug of the event.', example: 'germany' }),
    date: z.iso.date().meta({ description: 'Date of the event.' }),
    level: z.enum(EVENT_LEVELS).nullable().meta({ description: 'Sanctioning level, or null.' }),
    multiplier: z.number().meta({
      description: 'Points multiplier of the level: national 1.0, international 1.5, continental 2.0, worldcup 2.5, world 3.0, none 1.0.',
    }),
    is_live: z.boolean().meta({ description: 'True while `status` is `live`.' }),
    status: z.enum(EVENT_STATUSES).meta({ description: 'Event status.' }),
    url: z.string().meta({ description: "The event's own API URL, `{PUBLIC_URL}/api/v1/events/{code}` (answers with a key, as `GET /events/{code}`)." }),
  })
  .meta({ description: 'A sanctioned event.' });

export const ResultPoints = z
  .strictObject({
    base: z.number().meta({ description: 'W 10 (12 by KO or TKO), D 5, L 2, NC 0.' }),
    multiplier: z.number().meta({ description: "The event level's multiplier." }),
    time_value: z.number().meta({ description: '1.0 under 12 months old, 0.5 from 12 to 24 months, 0 older (at `as_of`).' }),
    total: z.number().meta({ description: 'base × multiplier × time_value, rounded to 2 decimals.' }),
  })
  .meta({ description: 'Ranking points of one result.' });

const boutFields = {
  opponent: z
    .string()
    .meta({ description: `Name of the other fighter, or \`${WITHHELD_OPPONENT}\` when the other fighter is a minor (a minor is never named).` }),
  result: z.enum(BOUT_OUTCOMES).meta({ description: 'Outcome for this fighter: win, loss, draw or no contest.' }),
  method: z.string().nullable().meta({ description: 'How the bout ended (e.g. `KO`, `TKO`, `UD`), or null.' }),
  round: z.int().min(1).nullable().meta({ description: 'Round in which the bout ended, or null.' }),
  points: ResultPoints,
};

export const Result = z
  .strictObject({ event: Event, fighter: FighterSummary, ...boutFields })
  .meta({ description: 'A verified result of one fighter in one bout.' });

export const BoutResult = z
  .strictObject({ event: Event, ...boutFields })
  .meta({ description: 'A verified result inside a fighter profile (the Result without `fighter`).' });

export type CountryBody = z.infer<typeof Country>;
export type DivisionBody = z.infer<typeof Division>;
export type FighterSummaryBody = z.infer<typeof FighterSummary>;
export type EventBody = z.infer<typeof Event>;
export type ResultPointsBody = z.infer<typeof ResultPoints>;
export type ResultBody = z.infer<typeof Result>;
export type BoutResultBody = z.infer<typeof BoutResult>;
