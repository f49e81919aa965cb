import { addYears, daysBetween } from './dates.util';
import { buildDemoPlan, summarizeDemoPlan } from './demo.plan';
import { buildScaleCopy, scaleCopies, scaleEvents, scaleRankingRuns } from './scale.plan';

const TODAY = '2025-06-15';

describe('the scale data set', () => {
  const demo = buildDemoPlan(TODAY);
  const first = buildScaleCopy(TODAY, 0);
  const second = buildScaleCopy(TODAY, 1);

  it('has the demo itself as its first copy, unchanged', () => {
    expect({ ...first, rankingRuns: demo.rankingRuns }).toEqual(demo);
  });

  it('keys the other copies apart and keeps each copy to itself', () => {
    const keys = new Set(second.fighters.map((f) => f.key));
    expect(second.fighters.every((f) => f.key.endsWith('.1'))).toBe(true);
    expect(second.events.every((e) => e.key.endsWith('.1'))).toBe(true);
    expect(second.bouts.every((b) => keys.has(b.fighterA) && keys.has(b.fighterB) && b.eventKey.endsWith('.1'))).toBe(true);
  });

  it('gives the other copies about ten verified results a fighter on about 340 events, on cards a bracket can hold', () => {
    const s = summarizeDemoPlan(second);
    expect(s.adultVerifiedResults / s.fighters).toBeGreaterThan(8.5);
    expect(s.adultVerifiedResults / s.fighters).toBeLessThan(11.5);
    expect(s.events).toBeGreaterThan(300);
    expect(s.events).toBeLessThan(380);
    const cards = new Map<string, number>();
    for (const b of second.bouts) cards.set(b.eventKey, Math.max(cards.get(b.eventKey) ?? 0, b.order));
    expect(Math.max(...cards.values())).toBeLessThanOrEqual(60);
  });

  it('still rests fighters between bouts and keeps minors under 15 off the cards', () => {
    const fighters = new Map(second.fighters.map((f) => [f.key, f]));
    const dates = new Map(second.events.map((e) => [e.key, e.date]));
    const last = new Map<string, string>();
    const ordered = [...second.bouts].sort((a, b) => (dates.get(a.eventKey)! < dates.get(b.eventKey)! ? -1 : 1));
    for (const b of ordered) {
      const date = dates.get(b.eventKey)!;
      for (const key of [b.fighterA, b.fighterB]) {
        expect(addYears(fighters.get(key)!.dateOfBirth, 15) <= date).toBe(true);
        const previous = last.get(key);
        if (previous !== undefined) expect(daysBetween(previous, date)).toBeGreaterThanOrEqual(14);
        last.set(key, date);
      }
    }
  });

  it("lists every copy's events, in date order, as the copies plan them", () => {
    const events = scaleEvents(TODAY, 2);
    expect(events).toHaveLength(first.events.length + second.events.length);
    expect(events.map((e) => e.date)).toEqual(events.map((e) => e.date).sort());
    const byKey = new Map(events.map((e) => [e.key, e]));
    for (const e of [...first.events, ...second.events]) expect(byKey.get(e.key)).toEqual(e);
  });

  it('repeats the model to about the number of fighters asked for, with four runs a fortnight apart', () => {
    expect(scaleCopies(100_000, 1660)).toBe(60);
    expect(scaleCopies(10, 1660)).toBe(1);
    expect(scaleRankingRuns(TODAY)).toEqual(['2025-05-04', '2025-05-18', '2025-06-01', '2025-06-15']);
  });
});
