// Letters that Unicode does not decompose into a base letter and an accent.
const TRANSLITERATE: Record<string, string> = {
  ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', ı: 'i', ø: 'o', Ø: 'o', æ: 'ae', Æ: 'ae',
  œ: 'oe', Œ: 'oe', ß: 'ss', þ: 'th', Þ: 'th', ħ: 'h', Ħ: 'h',
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
  return foldText(value)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'x';
}

/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
