import { escapeLike, foldText, hasControlCharacters, refuseControlCharacters, slugify } from './text';

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

describe('refuseControlCharacters: the one rule for names', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['tab', 'a\tb'],
    ['CR', 'a\rb'],
    ['LF', 'a\nb'],
    ['CRLF', 'prod\r\nX-Injected: 1'],
    ['ESC', '\u001b[31mred'],
    ['DEL', 'a\u007fb'],
    ['C1 NEL', 'a\u0085b'],
    ['C1 CSI', 'a\u009bb'],
    ['C1 first', '\u0080'],
    ['line separator', 'a\u2028b'],
    ['paragraph separator', 'a\u2029b'],
  ])('refuses a name with %s as invalid_<field>, with a clear message', (_label, value) => {
    expect(hasControlCharacters(value)).toBe(true);
    expect(() => refuseControlCharacters(value, 'name', 'a key name')).toThrow(
      expect.objectContaining({ code: 'invalid_name', message: 'a key name must not contain control characters (line breaks, tabs and the like)' }),
    );
  });

  it.each(['Production key', 'Anna Müller', 'Đặng Văn', '東京 2026', 'José "El Toro" Núñez', 'a\u00a0b', '\u00a0', 'emoji 🥊'])('accepts %j', (value) => {
    expect(hasControlCharacters(value)).toBe(false);
    expect(() => refuseControlCharacters(value, 'name')).not.toThrow();
  });

  it('lets an absent optional field through', () => {
    expect(() => refuseControlCharacters(null, 'city')).not.toThrow();
    expect(() => refuseControlCharacters(undefined, 'city')).not.toThrow();
  });
});
