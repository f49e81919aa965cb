import { isUuid } from './ids';

it('accepts uuids only, in any case', () => {
  expect(isUuid('3f2b8c1e-9a4d-4c2e-8f1a-0b5c6d7e8f90')).toBe(true);
  expect(isUuid('3F2B8C1E-9A4D-4C2E-8F1A-0B5C6D7E8F90')).toBe(true);
  for (const bad of ['------------------------------------', '00000000-0000-0000-0000-0000000000-0', '3f2b8c1e9a4d4c2e8f1a0b5c6d7e8f90', '', 42, null]) {
    expect(isUuid(bad)).toBe(false);
  }
});
