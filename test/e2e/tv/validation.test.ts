import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TV_ENV, TvClient } from '../../helpers/tv-client';
import { buildTvWorld, CK } from '../../helpers/tv-world';

/**
 * Request bodies of POST /broadcasts and PATCH /broadcasts/{id} (docs/decisions.md#broadcast-create): 422 invalid_<field> for
 * each field, invalid_body for the shape, 400 malformed JSON, 415 not JSON, 413 over 64 KiB. A
 * refused request creates or changes nothing.
 */

let t: TestApp;
let tv: TvClient;
let existing: Record<string, any>;
let ingestOne: Record<string, any>;
beforeAll(async () => {
  t = await startTestApp({ env: TV_ENV });
  await buildTvWorld(t.c);
  tv = new TvClient(t.app);
  existing = await tv.create(CK.rw, aBroadcast({ title: 'Untouched', tags: ['keep'] }));
  ingestOne = await tv.create(CK.rw, { source: 'ingest', source_url: undefined, title: 'Ingest untouched' });
});
afterAll(() => t?.close());

const count = async () => (await tv.expectStatus(tv.get('/me', CK.ro), 200)).body.data.broadcasts.length;

async function refused(body: Record<string, unknown>, error: string) {
  const res = await tv.post('/broadcasts', CK.rw, body);
  expect([JSON.stringify(body).slice(0, 300), res.status, res.body.error]).toEqual([JSON.stringify(body).slice(0, 300), 422, error]);
  expect(typeof res.body.message).toBe('string');
  return res;
}

describe('422 on creation, one code per field', () => {
  it('title: missing, empty, blank, 141 characters, not a string (140 is fine)', async () => {
    const { title: _omit, ...noTitle } = aBroadcast();
    await refused(noTitle, 'invalid_title');
    await refused(aBroadcast({ title: '' }), 'invalid_title');
    await refused(aBroadcast({ title: '    ' }), 'invalid_title');
    const long = await refused(aBroadcast({ title: 'x'.repeat(141) }), 'invalid_title');
    expect(long.body.message).toMatch(/title/);
    await refused(aBroadcast({ title: 42 }), 'invalid_title');
    // control characters (PostgreSQL text cannot even store NUL): a 422, never a 500
    await refused(aBroadcast({ title: 'Fight\u0000Night' }), 'invalid_title');
    await refused(aBroadcast({ title: 'Fight\nNight' }), 'invalid_title');
    const ok = await tv.create(CK.rw, aBroadcast({ title: 'y'.repeat(140) }));
    expect(ok.title).toHaveLength(140);
  });

  it('source: missing or unknown', async () => {
    const { source: _omit, ...noSource } = aBroadcast();
    await refused(noSource, 'invalid_source');
    await refused(aBroadcast({ source: 'twitch' }), 'invalid_source');
    await refused(aBroadcast({ source: 'YouTube' }), 'invalid_source');
  });

  it('source_url: http, not a URL, the wrong kind for the source, present for ingest, missing for youtube', async () => {
    await refused(aBroadcast({ source_url: 'http://www.youtube.com/watch?v=dQw4w9WgXcQ' }), 'invalid_source_url');
    await refused(aBroadcast({ source_url: 'not a url' }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'youtube', source_url: 'https://vimeo.com/123456789' }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'vimeo', source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'hls', source_url: 'https://cdn.example/video.mp4' }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'mp4', source_url: 'https://cdn.example/live.m3u8' }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'hls', source_url: 'http://cdn.example/live.m3u8' }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'ingest', source_url: 'https://cdn.example/live.m3u8' }), 'invalid_source_url');
    const { source_url: _omit, ...noUrl } = aBroadcast();
    await refused(noUrl, 'invalid_source_url');
    await refused(aBroadcast({ source_url: null }), 'invalid_source_url');
    await refused(aBroadcast({ source: 'hls', source_url: 'https://cdn.example/\u0000live.m3u8' }), 'invalid_source_url');
    await refused(aBroadcast({ source_url: 'https://youtu.be/dQw4w9WgXcQ\u0000' }), 'invalid_source_url');
    // each kind with a matching https URL is accepted
    for (const [source, url] of [
      ['youtube', 'https://youtu.be/dQw4w9WgXcQ'],
      ['vimeo', 'https://vimeo.com/123456789'],
      ['hls', 'https://cdn.example/live/index.m3u8?token=abc'],
      ['mp4', 'https://cdn.example/fight.mp4'],
    ]) {
      expect((await tv.create(CK.rw, aBroadcast({ source, source_url: url }))).source_url).toBe(url);
    }
  });

  it('scheduled_at: missing, without an offset, not a time, an impossible date', async () => {
    const { scheduled_at: _omit, ...noTime } = aBroadcast();
    await refused(noTime, 'invalid_scheduled_at');
    const noOffset = await refused(aBroadcast({ scheduled_at: '2030-06-20T19:00:00' }), 'invalid_scheduled_at');
    expect(noOffset.body.message).toMatch(/offset/);
    await refused(aBroadcast({ scheduled_at: '2030-06-20' }), 'invalid_scheduled_at');
    await refused(aBroadcast({ scheduled_at: 'tomorrow at eight' }), 'invalid_scheduled_at');
    await refused(aBroadcast({ scheduled_at: 1_900_000_000 }), 'invalid_scheduled_at');
    await refused(aBroadcast({ scheduled_at: '2030-13-01T10:00:00Z' }), 'invalid_scheduled_at');
    // JavaScript would quietly roll these over to another day
    await refused(aBroadcast({ scheduled_at: '2030-02-30T10:00:00Z' }), 'invalid_scheduled_at');
    await refused(aBroadcast({ scheduled_at: '2030-04-31T10:00:00+02:00' }), 'invalid_scheduled_at');
    // offsets are honoured
    expect((await tv.create(CK.rw, aBroadcast({ scheduled_at: '2030-06-20T19:00:00-05:30' }))).scheduled_at).toBe('2030-06-21T00:30:00.000Z');
  });

  it('visibility, discipline, language', async () => {
    await refused(aBroadcast({ visibility: 'private' }), 'invalid_visibility');
    await refused(aBroadcast({ visibility: null }), 'invalid_visibility');
    await refused(aBroadcast({ discipline: 'karate' }), 'invalid_discipline');
    await refused(aBroadcast({ discipline: 'MMA' }), 'invalid_discipline');
    await refused(aBroadcast({ language: 'EN' }), 'invalid_language');
    await refused(aBroadcast({ language: 'eng' }), 'invalid_language');
    await refused(aBroadcast({ language: 'e' }), 'invalid_language');
    await refused(aBroadcast({ language: null }), 'invalid_language');
    const ok = await tv.create(CK.rw, aBroadcast({ visibility: 'ppv', discipline: 'muay-thai', language: 'th' }));
    expect(ok).toMatchObject({ visibility: 'ppv', discipline: 'muay-thai', language: 'th' });
  });

  it('tags: 11 tags, bad characters, too long, not a list of strings (10 tags are fine)', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `tag-${i}`);
    const res = await refused(aBroadcast({ tags: eleven }), 'invalid_tags');
    expect(res.body.message).toMatch(/10/);
    await refused(aBroadcast({ tags: ['Main Card'] }), 'invalid_tags');
    await refused(aBroadcast({ tags: ['UPPER'] }), 'invalid_tags');
    await refused(aBroadcast({ tags: ['under_score'] }), 'invalid_tags');
    await refused(aBroadcast({ tags: ['ok', ''] }), 'invalid_tags');
    await refused(aBroadcast({ tags: ['x'.repeat(33)] }), 'invalid_tags');
    await refused(aBroadcast({ tags: 'main-card' }), 'invalid_tags');
    await refused(aBroadcast({ tags: [1, 2] }), 'invalid_tags');
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect((await tv.create(CK.rw, aBroadcast({ tags: [...ten] }))).tags).toEqual(ten);
  });

  it('body: an unknown field, or a body that is not an object', async () => {
    const unknown = await refused(aBroadcast({ stream_key: 'sk_mine' }), 'invalid_body');
    expect(unknown.body.message).toMatch(/stream_key/);
    await refused(aBroadcast({ Title: 'Capitalised' }), 'invalid_body');
    // names of Object.prototype members are unknown fields too (written raw: a literal __proto__ sets the prototype)
    for (const name of ['toString', 'constructor', '__proto__', 'valueOf']) {
      const raw = JSON.stringify(aBroadcast()).replace(/^\{/, `{${JSON.stringify(name)}:{"x":1},`);
      const res = await tv.call('POST', '/broadcasts', { key: CK.rw, raw });
      expect([name, res.status, res.body.error]).toEqual([name, 422, 'invalid_body']);
      expect(res.body.message).toContain(name);
    }
    for (const raw of ['[]', '[{"title":"x"}]', '"a string"', '42', 'null', 'true']) {
      const res = await tv.call('POST', '/broadcasts', { key: CK.rw, raw });
      expect([raw, res.status, res.body.error]).toEqual([raw, 422, 'invalid_body']);
    }
  });

  it('nothing was created by any refused request', async () => {
    const before = await count();
    await refused(aBroadcast({ title: '' }), 'invalid_title');
    await refused(aBroadcast({ tags: ['BAD'] }), 'invalid_tags');
    expect(await count()).toBe(before);
    const titles = (await tv.expectStatus(tv.get('/me', CK.ro), 200)).body.data.broadcasts.map((b: { title: string }) => b.title);
    expect(titles).not.toContain('Capitalised');
  });
});

describe('422 on PATCH', () => {
  async function patchRefused(id: string, body: unknown, error: string) {
    const res = await tv.patch(`/broadcasts/${id}`, CK.rw, body);
    expect([JSON.stringify(body), res.status, res.body.error]).toEqual([JSON.stringify(body), 422, error]);
  }

  it('each field is checked as on creation, and nothing is applied', async () => {
    await patchRefused(existing.id, { title: '' }, 'invalid_title');
    await patchRefused(existing.id, { title: 'z'.repeat(141) }, 'invalid_title');
    await patchRefused(existing.id, { title: 'a\u0000b' }, 'invalid_title');
    await patchRefused(existing.id, { source_url: 'https://youtu.be/dQw4w9WgXcQ\u0000' }, 'invalid_source_url');
    await patchRefused(existing.id, { source: 'twitch' }, 'invalid_source');
    await patchRefused(existing.id, { source_url: 'http://www.youtube.com/watch?v=dQw4w9WgXcQ' }, 'invalid_source_url');
    await patchRefused(existing.id, { source_url: 'https://cdn.example/a.mp4' }, 'invalid_source_url');
    await patchRefused(existing.id, { source_url: null }, 'invalid_source_url');
    await patchRefused(existing.id, { scheduled_at: '2030-06-20 19:00' }, 'invalid_scheduled_at');
    await patchRefused(existing.id, { visibility: 'secret' }, 'invalid_visibility');
    await patchRefused(existing.id, { discipline: 'judo' }, 'invalid_discipline');
    await patchRefused(existing.id, { language: 'english' }, 'invalid_language');
    await patchRefused(existing.id, { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'invalid_tags');
    await patchRefused(existing.id, { title: 'Changed', tags: ['Bad Tag'] }, 'invalid_tags');
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.broadcasts.find((b: { id: string }) => b.id === existing.id)).toMatchObject({
      title: 'Untouched',
      tags: ['keep'],
      source: 'youtube',
      source_url: existing.source_url,
      visibility: 'public',
      scheduled_at: existing.scheduled_at,
    });
  });

  it('a source_url for an ingest broadcast is refused, not silently dropped', async () => {
    await patchRefused(ingestOne.id, { source_url: 'https://cdn.example/live.m3u8' }, 'invalid_source_url');
    await patchRefused(existing.id, { source: 'ingest', source_url: 'https://cdn.example/live.m3u8' }, 'invalid_source_url');
    const me = await tv.expectStatus(tv.get('/me', CK.ro), 200);
    expect(me.body.data.broadcasts.find((b: { id: string }) => b.id === ingestOne.id)).toMatchObject({ source: 'ingest', source_url: null });
    expect(me.body.data.broadcasts.find((b: { id: string }) => b.id === existing.id)).toMatchObject({ source: 'youtube' });
  });

  it('an empty PATCH, an unknown field or a non-object body is invalid_body', async () => {
    await patchRefused(existing.id, {}, 'invalid_body');
    await patchRefused(existing.id, { state: 'live' }, 'invalid_body');
    await patchRefused(existing.id, { replay_url: 'https://cdn.example/x.m3u8' }, 'invalid_body');
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const raw = `{${JSON.stringify(name)}:{"title":"Injected"}}`;
      const res = await tv.call('PATCH', `/broadcasts/${existing.id}`, { key: CK.rw, raw });
      expect([raw, res.status, res.body.error]).toEqual([raw, 422, 'invalid_body']);
    }
    for (const raw of ['[]', '"title"', '7', 'null']) {
      const res = await tv.call('PATCH', `/broadcasts/${existing.id}`, { key: CK.rw, raw });
      expect([raw, res.status, res.body.error]).toEqual([raw, 422, 'invalid_body']);
    }
  });
});

describe('the body as a whole', () => {
  it('415 unsupported_media_type for a body that is not JSON', async () => {
    const text = await tv.call('POST', '/broadcasts', { key: CK.rw, raw: JSON.stringify(aBroadcast()), type: 'text/plain' });
    expect([text.status, text.body.error]).toEqual([415, 'unsupported_media_type']);
    expect(text.body.message).toMatch(/application\/json/);
    const form = await tv.call('POST', '/broadcasts', { key: CK.rw, raw: 'title=x&source=youtube', type: 'application/x-www-form-urlencoded' });
    expect([form.status, form.body.error]).toEqual([415, 'unsupported_media_type']);
    const patch = await tv.call('PATCH', `/broadcasts/${existing.id}`, { key: CK.rw, raw: '{"title":"x"}', type: 'text/plain' });
    expect([patch.status, patch.body.error]).toEqual([415, 'unsupported_media_type']);
    // a JSON media type with parameters, or a +json type, is JSON
    const withCharset = await tv.call('POST', '/broadcasts', { key: CK.rw, raw: JSON.stringify(aBroadcast()), type: 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(201);
  });

  it('400 invalid_json for malformed JSON', async () => {
    for (const raw of ['{"title": "x",', '{title: "x"}', "{'title': 'x'}"]) {
      const res = await tv.call('POST', '/broadcasts', { key: CK.rw, raw });
      expect([raw, res.status, res.body.error]).toEqual([raw, 400, 'invalid_json']);
    }
    const patch = await tv.call('PATCH', `/broadcasts/${existing.id}`, { key: CK.rw, raw: '{"title":' });
    expect([patch.status, patch.body.error]).toEqual([400, 'invalid_json']);
  });

  it('413 for a body over 64 KiB; just under is read (and judged on its fields)', async () => {
    const big = JSON.stringify(aBroadcast({ title: 'x'.repeat(70 * 1024) }));
    const res = await tv.call('POST', '/broadcasts', { key: CK.rw, raw: big });
    expect([res.status, res.body.error]).toEqual([413, 'payload_too_large']);
    const patch = await tv.call('PATCH', `/broadcasts/${existing.id}`, { key: CK.rw, raw: JSON.stringify({ title: 'x'.repeat(65 * 1024) }) });
    expect(patch.status).toBe(413);
    const under = JSON.stringify(aBroadcast({ title: 'x'.repeat(60 * 1024) }));
    const small = await tv.call('POST', '/broadcasts', { key: CK.rw, raw: under });
    expect([small.status, small.body.error]).toEqual([422, 'invalid_title']);
  });
});
