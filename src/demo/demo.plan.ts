import { planBouts } from './bouts.plan';
import { addDays, assertIsoDate, isAdultOn } from './dates.util';
import type { DemoPlan } from './demo.types';
import { buildDivisions, planDivisionSizes } from './divisions.plan';
import { DEMO_EVENT_DENSITY, type EventDensity, planEvents } from './events.plan';
import { planFighters } from './fighters.plan';
import { createPrng, deriveSeed } from './prng';
import { CONTINENTS, COUNTRIES } from './reference.data';

export type {
  BoutMethod,
  CertificateScenario,
  DemoBout,
  DemoDivision,
  DemoEvent,
  DemoFighter,
  DemoPlan,
  Discipline,
  EventLevel,
  EventStatus,
  LicenceScenario,
} from './demo.types';
export { isAdultOn } from './dates.util';

/** The fixed seed of the demonstration environment (docs/decisions.md#demo): every install shows the same world. */
export const DEMO_SEED = 20_240_517;

/**
 * The demonstration data as plain objects, dated relative to `today` (YYYY-MM-DD). Pure: the same
 * `today` and `seed` give a deep-equal plan, and nothing touches a database or the clock.
 */
export function buildDemoPlan(today: string, seed: number = DEMO_SEED, density: EventDensity = DEMO_EVENT_DENSITY): DemoPlan {
  assertIsoDate(today);
  const divisions = buildDivisions();
  const sizes = planDivisionSizes(divisions, createPrng(deriveSeed(seed, 'divisions')));
  const { fighters, traits } = planFighters(today, divisions, sizes, createPrng(deriveSeed(seed, 'fighters')));
  const planned = planEvents(today, createPrng(deriveSeed(seed, 'events')), density);
  const bouts = planBouts(today, planned, divisions, fighters, traits, createPrng(deriveSeed(seed, 'bouts')));
  return {
    today,
    continents: CONTINENTS.map((c) => ({ ...c })),
    countries: COUNTRIES.map((c) => ({ ...c })),
    divisions,
    fighters,
    events: planned.map((p) => p.event),
    bouts,
    rankingRuns: [addDays(today, -14), today],
  };
}

/** Results the partner API will serve: one per adult fighter in each verified bout (docs/decisions.md#minors, docs/decisions.md#results). */
export function countAdultVerifiedResults(plan: DemoPlan): number {
  const adult = new Map(plan.fighters.map((f) => [f.key, isAdultOn(f.dateOfBirth, plan.today)]));
  return plan.bouts.filter((b) => b.verified).reduce((sum, b) => sum + (adult.get(b.fighterA) ? 1 : 0) + (adult.get(b.fighterB) ? 1 : 0), 0);
}

export interface DemoPlanSummary {
  fighters: number;
  minors: number;
  countries: number;
  divisions: number;
  events: number;
  sanctionedEvents: number;
  bouts: number;
  verifiedBouts: number;
  adultVerifiedResults: number;
}

/** Counts for the seed command's output and the README. */
export function summarizeDemoPlan(plan: DemoPlan): DemoPlanSummary {
  return {
    fighters: plan.fighters.length,
    minors: plan.fighters.filter((f) => !isAdultOn(f.dateOfBirth, plan.today)).length,
    countries: new Set(plan.fighters.map((f) => f.countrySlug)).size,
    divisions: plan.divisions.length,
    events: plan.events.length,
    sanctionedEvents: plan.events.filter((e) => e.sanctioned).length,
    bouts: plan.bouts.length,
    verifiedBouts: plan.bouts.filter((b) => b.verified).length,
    adultVerifiedResults: countAdultVerifiedResults(plan),
  };
}
