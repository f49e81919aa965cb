import type { BoutRow, FeedRow } from './results.queries';
import { boutJson, fighterSummaryJson, presentBout, presentFighterSummary, presentResult, resultJson, ViewJson } from './views';

/**
 * The spliced JSON of the views (docs/adr/0013-cold-reads.md) is byte for byte `JSON.stringify` of
 * the views themselves, whatever the values: nulls, quotes, backslashes, control characters and
 * non-ASCII text, withheld opponents, and events, countries and divisions whose fields change
 * while their texts are kept.
 */
const URL = 'https://api.example.test';

const strings = ['Anna "The Hammer" Schmidt', 'back\\slash', 'tab\tnew\nline\u0001', 'Zoë Łukasiewicz 李', '\u2028sep', 'plain'];

function feedRow(i: number): FeedRow {
  const s = (k: number) => strings[(i + k) % strings.length];
  return {
    f_slug: `fighter-${i}`,
    f_name: s(0),
    f_nickname: i % 3 === 0 ? null : s(1),
    f_status: i % 2 ? 'licensed' : 'retired',
    f_ranking_published: i % 4 !== 0,
    f_fighter_code: i % 5 === 0 ? null : `FID-${1000 + i}-ABCD`,
    c_slug: `country-${i % 3}`,
    c_name: i % 7 === 0 ? s(2) : `Country ${i % 3}`,
    c_code: 'DE',
    c_continent: 'europe',
    d_discipline: 'kickboxing',
    d_category: i % 2 ? 'pro' : 'am',
    d_gender: 'm',
    d_weight_class: i % 6 === 0 ? '91kg-plus' : '67kg',
    d_label: `Division ${i % 4}`,
    f_licence_status: ['active', 'expired', 'suspended', 'pending', 'none'][i % 5],
    e_code: `EV-2026-${i % 5}`,
    e_name: i % 9 === 0 ? s(3) : `Event ${i % 5}`,
    e_city: i % 4 === 0 ? null : s(4),
    e_country: 'germany',
    e_date: `202${4 + (i % 3)}-0${1 + (i % 9)}-1${i % 10}`,
    e_level: i % 6 === 0 ? null : (['national', 'international', 'continental', 'worldcup', 'world'] as const)[i % 5],
    e_status: i % 8 === 0 ? 'live' : 'completed',
    result: (['W', 'L', 'D', 'NC'] as const)[i % 4],
    method: i % 3 === 0 ? null : (['KO', 'tko', 'Decision'] as const)[i % 3],
    round: i % 5 === 0 ? null : 1 + (i % 3),
    opponent: s(5),
    opponent_minor: i % 7 === 3,
  };
}

describe('the spliced JSON of the views', () => {
  it('is JSON.stringify of presentResult, presentBout and presentFighterSummary, byte for byte', () => {
    const parts = new ViewJson(URL, 8);
    for (const asOf of ['2025-06-30', '2026-11-26', '2027-03-01']) {
      for (let i = 0; i < 300; i++) {
        const r = feedRow(i);
        const bout: BoutRow = r;
        expect(resultJson(r, asOf, parts)).toBe(JSON.stringify(presentResult(r, asOf, URL)));
        expect(boutJson(bout, asOf, parts)).toBe(JSON.stringify(presentBout(bout, asOf, URL)));
        expect(fighterSummaryJson(r, parts)).toBe(JSON.stringify(presentFighterSummary(r)));
      }
    }
  });

  it('makes a kept text anew when its event, country or division has changed', () => {
    const parts = new ViewJson(URL);
    const r = feedRow(1);
    expect(resultJson(r, '2026-11-26', parts)).toBe(JSON.stringify(presentResult(r, '2026-11-26', URL)));
    for (const changed of [
      { ...r, e_status: 'cancelled' },
      { ...r, e_name: 'Renamed' },
      { ...r, e_city: null },
      { ...r, c_name: 'Renamed country' },
      { ...r, d_weight_class: '70kg' },
    ]) {
      expect(resultJson(changed, '2026-11-26', parts)).toBe(JSON.stringify(presentResult(changed, '2026-11-26', URL)));
    }
  });
});
