import { addDays } from '../domain/clock';
import { buildDemoPlan, DEMO_SEED } from './demo.plan';
import type { DemoPlan } from './demo.types';

/**
 * A federation of about `fighters` fighters for measuring the read and publication paths: the
 * demo plan's model repeated with other seeds (the first copy is the demo itself, so its keys and
 * fixtures still work), each copy's fighters, events and bouts keyed apart; the reference data is
 * shared. Four ranking runs a fortnight apart, so that movement and the previous run are real.
 */
export function buildScalePlan(today: string, fighters: number): DemoPlan {
  const first = buildDemoPlan(today, DEMO_SEED);
  const copies = Math.max(1, Math.round(fighters / first.fighters.length));
  const plan: DemoPlan = { ...first, fighters: [], events: [], bouts: [], rankingRuns: [-42, -28, -14, 0].map((d) => addDays(today, d)) };
  for (let k = 0; k < copies; k++) {
    const copy = k === 0 ? first : buildDemoPlan(today, DEMO_SEED + k);
    const key = (x: string) => (k === 0 ? x : `${x}.${k}`);
    for (const f of copy.fighters) plan.fighters.push({ ...f, key: key(f.key) });
    for (const e of copy.events) plan.events.push({ ...e, key: key(e.key) });
    for (const b of copy.bouts) plan.bouts.push({ ...b, eventKey: key(b.eventKey), fighterA: key(b.fighterA), fighterB: key(b.fighterB) });
  }
  // Events in date order across copies, as a federation's calendar fills up.
  plan.events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return plan;
}
