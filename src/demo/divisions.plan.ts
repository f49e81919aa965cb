import type { DemoDivision } from './demo.types';
import type { Prng } from './prng';
import { CATEGORIES, type Category, DISCIPLINES, type Discipline, divisionLabel, type Gender, GENDERS, WEIGHT_CLASSES } from './reference.data';

/** Every discipline x category x gender x weight class, in the order partners list them. */
export function buildDivisions(): DemoDivision[] {
  const divisions: DemoDivision[] = [];
  for (const { slug: discipline } of DISCIPLINES) {
    for (const { slug: category } of CATEGORIES) {
      for (const { slug: gender } of GENDERS) {
        for (const wc of WEIGHT_CLASSES[discipline][gender]) {
          divisions.push({
            key: `${discipline}-${category}-${gender}-${wc.slug}`,
            discipline,
            category,
            gender,
            weightClass: wc.slug,
            label: divisionLabel(discipline, category, gender, wc),
            order: wc.order,
          });
        }
      }
    }
  }
  return divisions;
}

// Shares of the federation's membership, roughly as registrations split in the real sports.
const DISCIPLINE_SHARE: Record<Discipline, number> = { kickboxing: 0.29, mma: 0.25, boxing: 0.26, 'muay-thai': 0.2 };
const CATEGORY_SHARE: Record<Category, number> = { am: 0.56, pro: 0.44 };
const GENDER_SHARE: Record<Gender, number> = { m: 0.68, f: 0.32 };
const TARGET_FIGHTERS = 1_700;
const MIN_SIZE = 8;
const MAX_SIZE = 30;

/**
 * How many fighters each division gets: middle weights are the busiest, the lightest and the open
 * classes the thinnest, with some noise so that no two divisions look alike. Clamped to 8..30 so
 * that every table has a podium and none is unreadably long.
 */
export function planDivisionSizes(divisions: readonly DemoDivision[], prng: Prng): Map<string, number> {
  const sizes = new Map<string, number>();
  const groups = new Map<string, DemoDivision[]>();
  for (const division of divisions) {
    const group = `${division.discipline}/${division.category}/${division.gender}`;
    groups.set(group, [...(groups.get(group) ?? []), division]);
  }
  for (const members of groups.values()) {
    const { discipline, category, gender } = members[0];
    const groupTotal = TARGET_FIGHTERS * DISCIPLINE_SHARE[discipline] * CATEGORY_SHARE[category] * GENDER_SHARE[gender];
    const middle = (members.length - 1) / 2;
    const bulk = members.map((_, i) => 1.35 - (0.7 * Math.abs(i - middle)) / Math.max(middle, 1));
    const bulkTotal = bulk.reduce((sum, b) => sum + b, 0);
    members.forEach((division, i) => {
      const raw = (groupTotal * bulk[i]) / bulkTotal;
      const noisy = raw * (0.85 + prng.next() * 0.3);
      sizes.set(division.key, Math.min(MAX_SIZE, Math.max(MIN_SIZE, Math.round(noisy))));
    });
  }
  return sizes;
}
