import type { DivisionRow } from '../domain/catalog/rankings.queries';
import { DomainError } from '../domain/errors';
import { matchDivision } from './rankings.reader';

const d = (discipline: string, category: string, gender: string, weight_class: string): DivisionRow => ({
  id: `${discipline}-${category}-${gender}-${weight_class}`,
  discipline,
  category,
  gender,
  weight_class,
  label: '',
});
const all = [d('kickboxing', 'pro', 'm', '67kg'), d('kickboxing', 'am', 'm', '67kg'), d('kickboxing', 'pro', 'f', '60kg'), d('mma', 'pro', 'm', '70kg')];

function codeAndMessage(fn: () => unknown): [string, string] {
  try {
    fn();
  } catch (e) {
    return [(e as DomainError).code, (e as DomainError).message];
  }
  throw new Error('expected a DomainError');
}

describe('matchDivision', () => {
  it('answers the one division that the parameters name', () => {
    expect(matchDivision(all, { disc: 'kickboxing', cat: 'pro', g: 'm', wc: '67kg' }).id).toBe('kickboxing-pro-m-67kg');
    expect(matchDivision(all, { wc: '70kg' }).id).toBe('mma-pro-m-70kg');
    expect(matchDivision(all, { disc: 'kickboxing', g: 'f' }).id).toBe('kickboxing-pro-f-60kg');
  });

  it('names the parameters still missing when several divisions match', () => {
    const [code, message] = codeAndMessage(() => matchDivision(all, { disc: 'kickboxing', wc: '67kg' }));
    expect(code).toBe('invalid_division');
    expect(message).toContain('also give cat');
    expect(message).not.toContain('wc');
  });

  it('says when no division matches', () => {
    const [code, message] = codeAndMessage(() => matchDivision(all, { disc: 'boxing', wc: '67kg' }));
    expect(code).toBe('invalid_division');
    expect(message).toMatch(/no division matches disc=boxing, wc=67kg/);
  });

  it('refuses no parameters at all', () => {
    const [code, message] = codeAndMessage(() => matchDivision(all, {}));
    expect(code).toBe('invalid_division');
    expect(message).toMatch(/also give disc, cat, g, wc/);
  });
});
