import { escapeLike, foldText, slugify } from './text';

describe('foldText', () => {
  it.each([
    ['Anna Müller', 'anna muller'],
    ['Michał Nowak', 'michal nowak'],
    ['Đặng Văn', 'dang van'],
    ['Kırmızı', 'kirmizi'],
    ['Søren Ærø', 'soren aero'],
    ['Weiß', 'weiss'],
    ['JOSÉ', 'jose'],
  ])('folds %s to %s', (input, expected) => expect(foldText(input)).toBe(expected));
});

describe('slugify', () => {
  it('makes lowercase ASCII slugs with single hyphens', () => {
    expect(slugify('  Michał  Nowak-Żak ')).toBe('michal-nowak-zak');
    expect(slugify("N'Golo Kanté")).toBe('n-golo-kante');
    expect(slugify('!!!')).toBe('x');
  });
});

describe('escapeLike', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
  });
});
