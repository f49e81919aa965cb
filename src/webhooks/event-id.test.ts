import { newEventId } from './event-id';

/** docs/decisions.md#event-ids: payload `id` is `evt_` + a sortable unique id (a ULID in Crockford base32). */

const FORMAT = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const decodeTime = (id: string) => [...id.slice(4, 14)].reduce((t, ch) => t * 32 + CROCKFORD.indexOf(ch), 0);

describe('newEventId', () => {
  it('is evt_ followed by 26 Crockford base32 characters (no I, L, O, U)', () => {
    for (let i = 0; i < 200; i++) expect(newEventId()).toMatch(FORMAT);
  });

  it('carries the creation time in milliseconds in its first ten characters', () => {
    const at = Date.UTC(2026, 5, 15, 12, 0, 0, 123);
    expect(decodeTime(newEventId(at))).toBe(at);
    expect(newEventId(0).slice(4, 14)).toBe('0000000000');
    const now = Date.now();
    expect(decodeTime(newEventId())).toBeGreaterThanOrEqual(now);
  });

  it('sorts by creation time, whatever the random part', () => {
    const base = Date.UTC(2026, 10, 21, 10, 0, 0);
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(newEventId(base + i * 7 + (i % 3)));
    expect([...ids].sort()).toEqual(ids);
    // One millisecond later always sorts after, even against many random draws.
    for (let i = 0; i < 200; i++) {
      const a = newEventId(base + 10_000 + 2 * i);
      const b = newEventId(base + 10_000 + 2 * i + 1);
      expect(a < b).toBe(true);
    }
  });

  it('stays unique and strictly increasing within one millisecond', () => {
    const at = Date.UTC(2026, 10, 21, 11, 0, 0);
    const ids = Array.from({ length: 5000 }, () => newEventId(at));
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(FORMAT);
    expect(new Set(ids.map(decodeTime))).toEqual(new Set([at]));
  });

  it('draws a fresh random part for every new millisecond', () => {
    const at = Date.UTC(2026, 10, 21, 12, 0, 0);
    const randoms = new Set(Array.from({ length: 100 }, (_, i) => newEventId(at + i).slice(14)));
    expect(randoms.size).toBe(100);
  });
});
