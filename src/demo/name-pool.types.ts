/** How a region writes a street address: "12 High Street", "Hauptstraße 12" or "2-14-7 Shinjuku". */
export type AddressStyle = 'number-first' | 'number-last' | 'block';

export interface NamePool {
  male: readonly string[];
  female: readonly string[];
  last: readonly string[];
  /** Family name first, as in "Nguyễn Văn Hùng" or "Kim Min-jun". */
  familyFirst?: boolean;
  /** Suffix rewrites for women's family names where the language inflects them (Kowalski -> Kowalska). */
  feminine?: readonly (readonly [string, string])[];
  /** Share of people who carry two family names (Spanish-speaking countries). */
  doubleSurname?: number;
  streets: readonly string[];
  address: AddressStyle;
}
