import { certificateNoFor, fighterCodeFor, licenceNoFor, parseDocumentNumber } from './document-numbers';

describe('document numbers', () => {
  it('gives distinct, well-formed Crockford fighter IDs for sequential numbers', () => {
    const codes = new Set<string>();
    for (let i = 1; i <= 5000; i++) {
      const code = fighterCodeFor(i);
      expect(code).toMatch(/^FID-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      codes.add(code);
    }
    expect(codes.size).toBe(5000);
    expect(fighterCodeFor(7)).toBe(fighterCodeFor(7));
  });

  it('formats licence and certificate numbers', () => {
    expect(licenceNoFor('de', 2026, 42)).toBe('LIC-DE-2026-000042');
    expect(certificateNoFor(2025, 7)).toBe('CRT-2025-000007');
  });

  it.each([
    [' lic-de-2026-000042 ', 'licence_no', 'LIC-DE-2026-000042'],
    ['crt-2025-000007', 'certificate_no', 'CRT-2025-000007'],
    ['fid-ab12-cd34', 'fighter_code', 'FID-AB12-CD34'],
  ])('recognises %p case-insensitively after trimming', (raw, kind, number) => {
    expect(parseDocumentNumber(raw)).toEqual({ kind, number });
  });

  it.each(['', 'LIC-DE-2026-42', 'FID-ABCD-EFGI', 'FID-ABCD-EFGU', 'CRT-2025-0000071', "'; drop table x;--", 'LIC-D3-2026-000042', 'x'.repeat(100)])(
    'refuses malformed %p',
    (raw) => expect(parseDocumentNumber(raw)).toBeNull(),
  );
});
