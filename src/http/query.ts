import type { Request } from 'express';
import { z } from 'zod';
import { DomainError } from '../domain/errors';
import {
  CATEGORIES,
  CONTINENTS,
  DISCIPLINES,
  EVENT_LEVELS,
  FIGHTER_STATUSES,
  GENDERS,
  SLUG_PATTERN,
  WEIGHT_CLASS_PATTERN,
} from '../domain/reference/vocabulary';
import { hasControlCharacters } from '../domain/text';
import { DATE_RANGE_TEXT, isStorableDate } from '../domain/date-range';

export interface ParamSpec<T> {
  schema: z.ZodType<T>;
  /** What the message says is accepted, e.g. "one of kickboxing, mma, boxing, muay-thai". */
  accepts: string;
}

export const param = <T>(schema: z.ZodType<T>, accepts: string): ParamSpec<T> => ({ schema, accepts });

type Parsed<S extends Record<string, ParamSpec<unknown>>> = { [K in keyof S]?: S[K] extends ParamSpec<infer T> ? T : never };

/**
 * Validates the known query parameters: a bad value or a repeated parameter is a 422
 * `invalid_<name>` whose message names the parameter and what it accepts. Unknown ones are ignored.
 */
export function parseQuery<S extends Record<string, ParamSpec<unknown>>>(req: Request, spec: S): Parsed<S> {
  return parseQueryRecord(req.query as Record<string, unknown>, spec);
}

/** The same, over a parsed query string (a repeated parameter is an array). */
export function parseQueryRecord<S extends Record<string, ParamSpec<unknown>>>(query: Record<string, unknown>, spec: S): Parsed<S> {
  const out: Record<string, unknown> = {};
  for (const [name, { schema, accepts }] of Object.entries(spec)) {
    const raw = query[name];
    if (raw === undefined) continue;
    if (typeof raw !== 'string') throw new DomainError(`invalid_${name}`, `"${name}" must be given once, as ${accepts}`);
    // No accepted value contains a control character, and free text (q, event) must not carry one
    // into SQL: PostgreSQL text cannot hold NUL at all, so the query would fail with a 500.
    const result = hasControlCharacters(raw) ? null : schema.safeParse(raw);
    if (!result?.success) throw new DomainError(`invalid_${name}`, `"${name}" must be ${accepts}; got "${truncate(raw)}"`);
    out[name] = result.data;
  }
  return out as Parsed<S>;
}

function truncate(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 40 ? `${printable.slice(0, 40)}...` : printable;
}

export { CONTINENTS, DISCIPLINES };
const slug = z.string().regex(new RegExp(SLUG_PATTERN));
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isStorableDate);

export const DEFAULT_PER_PAGE = 25;

/**
 * The query parameters of both APIs: each parses its value and says what it accepts; the OpenAPI
 * documents describe a parameter from the same spec (its schema, its `accepts` text), and
 * `.meta({ default })` is what the document shows as the default.
 */
export const params = {
  disc: param(z.enum(DISCIPLINES), `one of ${DISCIPLINES.join(', ')}`),
  cat: param(z.enum(CATEGORIES), `one of ${CATEGORIES.join(', ')}`),
  g: param(z.enum(GENDERS), `one of ${GENDERS.join(', ')}`),
  wc: param(z.string().regex(new RegExp(WEIGHT_CLASS_PATTERN)), 'a weight-class slug such as 67kg, 63-5kg or 91kg-plus'),
  scope: param(slug.meta({ default: 'world' }), `world, a continent (${CONTINENTS.join(', ')}) or a country slug`),
  q: param(
    z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(2).max(100)),
    'a search text of 2 to 100 characters',
  ),
  country: param(slug, 'a country slug such as germany'),
  status: param(z.enum(FIGHTER_STATUSES), `one of ${FIGHTER_STATUSES.join(', ')}`),
  level: param(z.enum(EVENT_LEVELS), `one of ${EVENT_LEVELS.join(', ')}`),
  upcoming: param(
    z
      .enum(['0', '1'])
      .meta({ default: '0' })
      .transform((v) => v === '1'),
    '1 (upcoming only) or 0',
  ),
  since: param(isoDate.meta({ format: 'date' }), `a date, YYYY-MM-DD, ${DATE_RANGE_TEXT}`),
  event: param(z.string().min(1).max(40), 'an event code'),
  page: param(
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number)
      .pipe(z.int().min(1).max(999999999))
      .meta({ default: 1 }),
    'an integer, 1 or more',
  ),
  per_page: param(
    z
      .string()
      .regex(/^\d{1,3}$/)
      .transform(Number)
      .pipe(z.int().min(1).max(100))
      .meta({ default: DEFAULT_PER_PAGE }),
    'an integer from 1 to 100',
  ),
};

export function pageOf(parsed: { page?: number; per_page?: number }): { page: number; perPage: number } {
  return { page: parsed.page ?? 1, perPage: parsed.per_page ?? DEFAULT_PER_PAGE };
}

export function meta(page: { page: number; perPage: number }, total: number) {
  return { page: page.page, per_page: page.perPage, total, last_page: Math.max(1, Math.ceil(total / page.perPage)) };
}
