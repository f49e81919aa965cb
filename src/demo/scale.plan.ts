import { addDays } from '../domain/clock';
import { buildDemoPlan, DEMO_SEED, type DemoPlanSummary } from './demo.plan';
import type { DemoEvent, DemoPlan } from './demo.types';
import { type EventDensity, planEvents } from './events.plan';
import { createPrng, deriveSeed } from './prng';

/**
 * The scale data set's calendar: fewer, fuller events than the demo's, so that a federation of
 * 100,000 fighters has about 20,000 events and 1,000,000 verified results (about ten a fighter
 * over three years, three or four bouts a year). Amateur championships and opens (the cards
 * with a small pro share) are brackets of 30 to 55 bouts; pro shows grow by half.
 */
export const SCALE_EVENT_DENSITY: EventDensity = {
  pastSanctioned: 290,
  cardScale: (_level, proShare) => (proShare <= 0.4 ? 4 : 1.5),
};

/** The copies of the demo's model that make a federation of about `fighters` fighters. */
export function scaleCopies(fighters: number, demoFighters: number): number {
  return Math.max(1, Math.round(fighters / demoFighters));
}

/** Four ranking runs a fortnight apart, so that movement and the previous run are real. */
export function scaleRankingRuns(today: string): string[] {
  return [-42, -28, -14, 0].map((d) => addDays(today, d));
}

const keyOf = (k: number) => (x: string) => (k === 0 ? x : `${x}.${k}`);

/**
 * Copy `k` of the scale data set, its fighters', events' and bouts' keys suffixed with `.k`: the
 * first copy is the demo itself (its keys and fixtures still work), the others the demo's model
 * with another seed and the scale calendar. Pure; one copy at a time, so that a seed can write a
 * copy and let it go (the whole federation held at once took most of the seeder's memory).
 */
export function buildScaleCopy(today: string, k: number): DemoPlan {
  const copy = k === 0 ? buildDemoPlan(today, DEMO_SEED) : buildDemoPlan(today, DEMO_SEED + k, SCALE_EVENT_DENSITY);
  if (k === 0) return { ...copy, rankingRuns: scaleRankingRuns(today) };
  const key = keyOf(k);
  return {
    ...copy,
    fighters: copy.fighters.map((f) => ({ ...f, key: key(f.key) })),
    events: copy.events.map((e) => ({ ...e, key: key(e.key) })),
    bouts: copy.bouts.map((b) => ({ ...b, eventKey: key(b.eventKey), fighterA: key(b.fighterA), fighterB: key(b.fighterB) })),
    rankingRuns: scaleRankingRuns(today),
  };
}

/**
 * Every copy's events (the same as `buildScaleCopy`'s, drawn from the events' own random stream),
 * in date order across copies, as a federation's calendar fills up: events are written first, in
 * this order, so that their codes follow the calendar.
 */
export function scaleEvents(today: string, copies: number): DemoEvent[] {
  const events: DemoEvent[] = [];
  for (let k = 0; k < copies; k++) {
    const planned =
      k === 0
        ? planEvents(today, createPrng(deriveSeed(DEMO_SEED, 'events')))
        : planEvents(today, createPrng(deriveSeed(DEMO_SEED + k, 'events')), SCALE_EVENT_DENSITY);
    const key = keyOf(k);
    for (const p of planned) events.push({ ...p.event, key: key(p.event.key) });
  }
  return events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The summary of a whole scale data set from its copies' summaries. */
export function addSummaries(a: DemoPlanSummary, b: DemoPlanSummary): DemoPlanSummary {
  return {
    fighters: a.fighters + b.fighters,
    minors: a.minors + b.minors,
    countries: Math.max(a.countries, b.countries),
    divisions: Math.max(a.divisions, b.divisions),
    events: a.events + b.events,
    sanctionedEvents: a.sanctionedEvents + b.sanctionedEvents,
    bouts: a.bouts + b.bouts,
    verifiedBouts: a.verifiedBouts + b.verifiedBouts,
    adultVerifiedResults: a.adultVerifiedResults + b.adultVerifiedResults,
  };
}
