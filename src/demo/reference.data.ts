export type Discipline = 'kickboxing' | 'mma' | 'boxing' | 'muay-thai';
export type Category = 'pro' | 'am';
export type Gender = 'm' | 'f';
export type ContinentSlug = 'africa' | 'asia' | 'europe' | 'north-america' | 'south-america' | 'oceania';

export interface Continent {
  slug: ContinentSlug;
  name: string;
}

export interface Country {
  slug: string;
  name: string;
  /** ISO 3166-1 alpha-2, upper case; licence numbers embed it (LIC-CC-...). */
  code: string;
  continent: ContinentSlug;
}

export interface WeightClass {
  slug: string;
  /** "67 kg", "+91 kg" */
  name: string;
  limitKg: number;
  /** An open class has no upper limit: "+91 kg" is everyone above 91 kg. */
  open: boolean;
  /**
   * Tenths of a kilogram, open classes pushed past every limit. Derived from the slug alone, so
   * one slug sorts the same in every discipline and the value fits an integer column.
   */
  order: number;
}

export const CONTINENTS: readonly Continent[] = [
  { slug: 'africa', name: 'Africa' },
  { slug: 'asia', name: 'Asia' },
  { slug: 'europe', name: 'Europe' },
  { slug: 'north-america', name: 'North America' },
  { slug: 'south-america', name: 'South America' },
  { slug: 'oceania', name: 'Oceania' },
];

export const COUNTRIES: readonly Country[] = [
  { slug: 'germany', name: 'Germany', code: 'DE', continent: 'europe' },
  { slug: 'france', name: 'France', code: 'FR', continent: 'europe' },
  { slug: 'united-kingdom', name: 'United Kingdom', code: 'GB', continent: 'europe' },
  { slug: 'ireland', name: 'Ireland', code: 'IE', continent: 'europe' },
  { slug: 'spain', name: 'Spain', code: 'ES', continent: 'europe' },
  { slug: 'portugal', name: 'Portugal', code: 'PT', continent: 'europe' },
  { slug: 'italy', name: 'Italy', code: 'IT', continent: 'europe' },
  { slug: 'netherlands', name: 'Netherlands', code: 'NL', continent: 'europe' },
  { slug: 'belgium', name: 'Belgium', code: 'BE', continent: 'europe' },
  { slug: 'poland', name: 'Poland', code: 'PL', continent: 'europe' },
  { slug: 'sweden', name: 'Sweden', code: 'SE', continent: 'europe' },
  { slug: 'ukraine', name: 'Ukraine', code: 'UA', continent: 'europe' },
  { slug: 'serbia', name: 'Serbia', code: 'RS', continent: 'europe' },
  // Türkiye competes in the European federations, so the demo files it under Europe.
  { slug: 'turkiye', name: 'Türkiye', code: 'TR', continent: 'europe' },
  { slug: 'greece', name: 'Greece', code: 'GR', continent: 'europe' },
  { slug: 'japan', name: 'Japan', code: 'JP', continent: 'asia' },
  { slug: 'china', name: 'China', code: 'CN', continent: 'asia' },
  { slug: 'south-korea', name: 'South Korea', code: 'KR', continent: 'asia' },
  { slug: 'thailand', name: 'Thailand', code: 'TH', continent: 'asia' },
  { slug: 'vietnam', name: 'Vietnam', code: 'VN', continent: 'asia' },
  { slug: 'philippines', name: 'Philippines', code: 'PH', continent: 'asia' },
  { slug: 'india', name: 'India', code: 'IN', continent: 'asia' },
  { slug: 'kazakhstan', name: 'Kazakhstan', code: 'KZ', continent: 'asia' },
  { slug: 'uzbekistan', name: 'Uzbekistan', code: 'UZ', continent: 'asia' },
  { slug: 'indonesia', name: 'Indonesia', code: 'ID', continent: 'asia' },
  { slug: 'nigeria', name: 'Nigeria', code: 'NG', continent: 'africa' },
  { slug: 'ghana', name: 'Ghana', code: 'GH', continent: 'africa' },
  { slug: 'cote-d-ivoire', name: "Côte d'Ivoire", code: 'CI', continent: 'africa' },
  { slug: 'senegal', name: 'Senegal', code: 'SN', continent: 'africa' },
  { slug: 'cameroon', name: 'Cameroon', code: 'CM', continent: 'africa' },
  { slug: 'morocco', name: 'Morocco', code: 'MA', continent: 'africa' },
  { slug: 'egypt', name: 'Egypt', code: 'EG', continent: 'africa' },
  { slug: 'kenya', name: 'Kenya', code: 'KE', continent: 'africa' },
  { slug: 'south-africa', name: 'South Africa', code: 'ZA', continent: 'africa' },
  { slug: 'united-states', name: 'United States', code: 'US', continent: 'north-america' },
  { slug: 'canada', name: 'Canada', code: 'CA', continent: 'north-america' },
  { slug: 'mexico', name: 'Mexico', code: 'MX', continent: 'north-america' },
  { slug: 'cuba', name: 'Cuba', code: 'CU', continent: 'north-america' },
  { slug: 'dominican-republic', name: 'Dominican Republic', code: 'DO', continent: 'north-america' },
  { slug: 'puerto-rico', name: 'Puerto Rico', code: 'PR', continent: 'north-america' },
  { slug: 'jamaica', name: 'Jamaica', code: 'JM', continent: 'north-america' },
  { slug: 'panama', name: 'Panama', code: 'PA', continent: 'north-america' },
  { slug: 'brazil', name: 'Brazil', code: 'BR', continent: 'south-america' },
  { slug: 'argentina', name: 'Argentina', code: 'AR', continent: 'south-america' },
  { slug: 'colombia', name: 'Colombia', code: 'CO', continent: 'south-america' },
  { slug: 'chile', name: 'Chile', code: 'CL', continent: 'south-america' },
  { slug: 'peru', name: 'Peru', code: 'PE', continent: 'south-america' },
  { slug: 'venezuela', name: 'Venezuela', code: 'VE', continent: 'south-america' },
  { slug: 'ecuador', name: 'Ecuador', code: 'EC', continent: 'south-america' },
  { slug: 'uruguay', name: 'Uruguay', code: 'UY', continent: 'south-america' },
  { slug: 'australia', name: 'Australia', code: 'AU', continent: 'oceania' },
  { slug: 'new-zealand', name: 'New Zealand', code: 'NZ', continent: 'oceania' },
  { slug: 'fiji', name: 'Fiji', code: 'FJ', continent: 'oceania' },
  { slug: 'samoa', name: 'Samoa', code: 'WS', continent: 'oceania' },
  { slug: 'tonga', name: 'Tonga', code: 'TO', continent: 'oceania' },
  { slug: 'papua-new-guinea', name: 'Papua New Guinea', code: 'PG', continent: 'oceania' },
];

export const DISCIPLINES: readonly { slug: Discipline; name: string }[] = [
  { slug: 'kickboxing', name: 'Kickboxing' },
  { slug: 'mma', name: 'MMA' },
  { slug: 'boxing', name: 'Boxing' },
  { slug: 'muay-thai', name: 'Muay Thai' },
];

export const CATEGORIES: readonly { slug: Category; name: string }[] = [
  { slug: 'pro', name: 'Pro' },
  { slug: 'am', name: 'Am' },
];

export const GENDERS: readonly { slug: Gender; name: string }[] = [
  { slug: 'm', name: 'Men' },
  { slug: 'f', name: 'Women' },
];

export function weightClass(limitKg: number, open = false): WeightClass {
  const tenths = Math.round(limitKg * 10);
  return {
    slug: `${String(limitKg).replace('.', '-')}kg${open ? '-plus' : ''}`,
    name: `${open ? '+' : ''}${limitKg} kg`,
    limitKg,
    open,
    order: open ? 10_000 + tenths : tenths,
  };
}

const upTo = (limits: readonly number[]): WeightClass[] => limits.map((kg) => weightClass(kg));

/**
 * Real classes of the sport's governing bodies, trimmed to the busiest 5-7 so that demo divisions
 * are full: WAKO (kickboxing), IMMAF (MMA, the pound classes in kg), the AIBA 2010-2020 boxing
 * classes (those carry the familiar +91 kg) and IFMA (muay thai).
 */
export const WEIGHT_CLASSES: Readonly<Record<Discipline, Readonly<Record<Gender, readonly WeightClass[]>>>> = {
  kickboxing: {
    m: [...upTo([60, 63.5, 67, 71, 75, 81]), weightClass(91, true)],
    f: [...upTo([52, 56, 60, 65, 70]), weightClass(70, true)],
  },
  mma: {
    m: upTo([61.2, 65.8, 70.3, 77.1, 83.9, 93, 120.2]),
    f: upTo([47.6, 52.2, 56.7, 61.2, 65.8]),
  },
  boxing: {
    m: [...upTo([60, 64, 69, 75, 81, 91]), weightClass(91, true)],
    f: upTo([51, 57, 60, 64, 69, 75]),
  },
  'muay-thai': {
    m: upTo([57, 60, 63.5, 67, 71, 75, 81]),
    f: upTo([48, 51, 54, 57, 60, 63.5]),
  },
};

const nameOf = <T extends string>(list: readonly { slug: T; name: string }[], slug: T): string => list.find((item) => item.slug === slug)?.name ?? slug;

export function disciplineName(discipline: Discipline): string {
  return nameOf(DISCIPLINES, discipline);
}

/** "Kickboxing, Pro, Men, 67 kg", "Boxing, Pro, Men, +91 kg" */
export function divisionLabel(discipline: Discipline, category: Category, gender: Gender, wc: WeightClass): string {
  return [disciplineName(discipline), nameOf(CATEGORIES, category), nameOf(GENDERS, gender), wc.name].join(', ');
}
