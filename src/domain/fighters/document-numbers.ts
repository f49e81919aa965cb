const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SPACE = 32n ** 8n;
// Odd multiplier: a bijection modulo 2^40, so sequential numbers give unique, unguessable-looking IDs.
const MULTIPLIER = 0x9e3779b97n;
const OFFSET = 0x5bd1e995n;

export type DocumentKind = 'fighter_code' | 'licence_no' | 'certificate_no';

export function fighterCodeFor(sequence: number): string {
  let v = (BigInt(sequence) * MULTIPLIER + OFFSET) % SPACE;
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = CROCKFORD[Number(v % 32n)] + out;
    v /= 32n;
  }
  return `FID-${out.slice(0, 4)}-${out.slice(4)}`;
}

export function licenceNoFor(countryCode: string, year: number, sequence: number): string {
  return `LIC-${countryCode.toUpperCase()}-${year}-${String(sequence).padStart(6, '0')}`;
}

export function certificateNoFor(year: number, sequence: number): string {
  return `CRT-${year}-${String(sequence).padStart(6, '0')}`;
}

const FORMATS: [DocumentKind, RegExp][] = [
  ['fighter_code', /^FID-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/],
  ['licence_no', /^LIC-[A-Z]{2}-\d{4}-\d{6}$/],
  ['certificate_no', /^CRT-\d{4}-\d{6}$/],
];

/** Trims and upper-cases, then recognises one of the three formats; null when malformed. */
export function parseDocumentNumber(raw: string): { kind: DocumentKind; number: string } | null {
  const number = raw.trim().toUpperCase();
  if (number.length > 32) return null;
  for (const [kind, re] of FORMATS) if (re.test(number)) return { kind, number };
  return null;
}
