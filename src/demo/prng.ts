/**
 * A seeded generator (mulberry32) so that the demo data is the same on every machine and every
 * start. Not for anything secret: it is predictable by design.
 */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks with probability proportional to weightOf; throws when nothing has a positive weight. */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T;
  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[];
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)];
    },
    weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
      const weights = items.map((item) => Math.max(0, weightOf(item)));
      const total = weights.reduce((sum, w) => sum + w, 0);
      if (!(total > 0)) throw new Error('weighted pick with no positive weight');
      let target = next() * total;
      for (let i = 0; i < items.length; i += 1) {
        target -= weights[i];
        if (target < 0 && weights[i] > 0) return items[i];
      }
      // Rounding can leave a sliver of target; the last positive weight takes it.
      for (let i = items.length - 1; i >= 0; i -= 1) if (weights[i] > 0) return items[i];
      throw new Error('unreachable');
    },
    shuffle<T>(items: readonly T[]): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy;
    },
  };
}

/**
 * One independent stream per generation phase, so that tuning one phase (say, events) does not
 * reshuffle the fighters that an earlier phase produced.
 */
export function deriveSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i += 1) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}
