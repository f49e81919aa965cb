import etag from 'etag';
import { prepareJson, strongEtag } from './send-json';

describe('strongEtag', () => {
  it('is the tag the etag package makes (and express would), for any body', () => {
    const bodies = ['', 'a', '{"as_of":"2026-11-26"}', 'é'.repeat(3000), JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ i })) })];
    for (const text of bodies) {
      const body = Buffer.from(text, 'utf8');
      expect([text.slice(0, 20), strongEtag(body)]).toEqual([text.slice(0, 20), etag(body)]);
    }
  });

  it('differs when a single byte does', () => {
    expect(strongEtag(Buffer.from('{"request_count":1}'))).not.toBe(strongEtag(Buffer.from('{"request_count":2}')));
  });

  it('is what a prepared body carries', () => {
    const json = prepareJson({ data: [1, 2, 3] });
    expect(json.etag).toBe(etag(Buffer.from('{"data":[1,2,3]}')));
  });
});
