import { DomainError } from './errors';

// Letters that Unicode does not decompose into a base letter and an accent.
const TRANSLITERATE: Record<string, string> = {
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  ı: 'i',
  ø: 'o',
  Ø: 'o',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ß: 'ss',
  þ: 'th',
  Þ: 'th',
  ħ: 'h',
  Ħ: 'h',
};
const NON_DECOMPOSING = new RegExp(`[${Object.keys(TRANSLITERATE).join('')}]`, 'g');

/** Lower-case, accents stripped: the form search terms and names are compared in. */
export function foldText(value: string): string {
  return value
    .replace(NON_DECOMPOSING, (c) => TRANSLITERATE[c])
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function slugify(value: string): string {
  return (
    foldText(value)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'x'
  );
}

/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Control characters: C0 (NUL, tab, CR, LF, ESC...), DEL, C1 (U+0080 to U+009F, NEL among them)
 * and the Unicode line and paragraph separators. No name or title needs one, and each can forge a
 * log line, break a CSV or terminal listing, or (NUL) fail the PostgreSQL insert.
 */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

/**
 * The one rule for free-text names (docs/decisions.md#names): partner, key, channel, fighter and
 * event names, nicknames, cities, broadcast titles. Every door and the CLI reach it through the
 * domain services; a value with a control character is refused as `invalid_<field>`.
 */
export function refuseControlCharacters(value: string | null | undefined, field: string, label = field): void {
  if (value != null && hasControlCharacters(value)) {
    throw new DomainError(`invalid_${field}`, `${label} must not contain control characters (line breaks, tabs and the like)`);
  }
}
