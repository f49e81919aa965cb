import request from 'supertest';
import { seedTvDemo } from '../../../src/demo/demo-tv.seed';
import { admin } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { aBroadcast, TvClient } from '../../helpers/tv-client';

/**
 * docs/decisions.md#names: no free-text name field takes a control character (C0 with CR, LF and
 * tab, DEL, C1, the Unicode line separators), on any door: the CLI, the studio and the TV API
 * answer invalid_<field> with a message saying why, and nothing is stored.
 */

let t: TestApp;
let owner: string;
let tvKey: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STUDIO_SESSION_PER_MINUTE: '100000' } });
  await seedTvDemo(t.c);
  owner = (await t.c.services.studioAuth.login('owner@demo.tv', 'demo-owner-pass')).token;
  const made = await admin(t.c, 'channel-keys:create', '--channel', 'demo-tv', '--name', 'edges', '--scopes', 'read,broadcasts:write', '--json');
  tvKey = JSON.parse(made.stdout).key;
});
afterAll(() => t?.close());

const BAD = ['prod\r\nX-Forged: 1', 'line\nbreak', 'tab\there', 'nul\u0000', 'esc\u001b[2J', 'del\u007f', 'c1 nel\u0085', 'c1 csi\u009b', 'sep\u2028x'];
const MESSAGE = /must not contain control characters/;
const gql = (query: string, variables: Record<string, unknown>) =>
  request(t.app).post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${owner}`).send({ query, variables });

describe('the operator CLI', () => {
  it.each(BAD)('refuses the name %j in partners:create, keys:issue and channel-keys:create, storing nothing', async (name) => {
    const partner = await admin(t.c, 'partners:create', '--slug', 'ctl-partner', '--name', name);
    expect(partner).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: invalid_name: name must not contain control characters/) });
    expect(await admin(t.c, 'partners:create', '--slug', 'ok-partner', '--name', 'OK Partner').then((r) => r.code)).toBe(partner.code === 1 ? 0 : 1);
    const key = await admin(t.c, 'keys:issue', '--partner', 'ok-partner', '--name', name, '--scopes', 'rankings.read');
    expect(key).toMatchObject({ code: 1, stderr: expect.stringMatching(MESSAGE) });
    expect(key.stderr).toMatch(/invalid_name/);
    const channelKey = await admin(t.c, 'channel-keys:create', '--channel', 'demo-tv', '--name', name, '--scopes', 'read');
    expect(channelKey).toMatchObject({ code: 1, stderr: expect.stringMatching(/invalid_name: a key name must not contain control characters/) });
    await t.c.orm.em.getConnection().execute(`delete from partner where slug = 'ok-partner'`);
  });

  it('refuses control characters in channel, fighter and event names, nicknames and cities', async () => {
    const refused = async (argv: string[], code: string) => {
      const out = await admin(t.c, ...argv);
      expect([argv[0], out.code, out.stderr]).toEqual([
        argv[0],
        1,
        expect.stringMatching(new RegExp(`^error: ${code}: .*must not contain control characters`)),
      ]);
    };
    await refused(['channels:create', '--slug', 'ctl-tv', '--name', 'Bad\nTV'], 'invalid_name');
    const fighter = [
      '--country',
      'france',
      '--division',
      'kickboxing-pro-m-67kg',
      '--dob',
      '1990-01-01',
      '--email',
      'a@example.org',
      '--phone',
      '1',
      '--address',
      'x',
    ];
    await refused(['fighters:register', '--name', 'Zoltán\r\nKiss', ...fighter], 'invalid_name');
    await refused(['fighters:register', '--name', 'Zoltán Kiss', '--nickname', 'The\u0085Hammer', ...fighter], 'invalid_nickname');
    await refused(['events:create', '--name', 'Gala\u2028Night', '--country', 'france', '--date', '2027-01-01'], 'invalid_name');
    await refused(['events:create', '--name', 'Gala Night', '--city', 'Pa\tris', '--country', 'france', '--date', '2027-01-01'], 'invalid_city');
  });
});

describe('the studio (GraphQL)', () => {
  // NUL is refused before any resolver runs (400 invalid_string, src/graphql/input-guards.ts).
  it.each(BAD.filter((name) => !name.includes('\u0000')))('refuses the channel key name %j with invalid_name', async (name) => {
    const res = await gql('mutation($n: String!) { createChannelApiKey(channel: "demo-tv", name: $n, scopes: [READ]) { secret } }', { n: name });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(MESSAGE), extensions: { code: 'invalid_name' } });
  });

  it('refuses a broadcast title with a C1 control or a line separator with invalid_title', async () => {
    for (const title of ['Fight\u0085Night', 'Fight\u2028Night', 'Fight\r\nNight']) {
      const res = await gql('mutation($i: BroadcastInput!) { createBroadcast(channel: "demo-tv", input: $i) { id } }', {
        i: { title, source: 'YOUTUBE', sourceUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scheduledAt: '2030-01-01T20:00:00Z' },
      });
      expect(res.body.errors[0].extensions.code).toBe('invalid_title');
    }
  });
});

describe('the TV API', () => {
  it('refuses a title with a C1 control character or a Unicode line separator (422 invalid_title)', async () => {
    const tv = new TvClient(t.app);
    for (const title of ['Fight\u0085Night', 'Fight\u009bNight', 'Fight\u2029Night']) {
      const res = await tv.post('/broadcasts', tvKey, aBroadcast({ title }));
      expect([title, res.status, res.body.error]).toEqual([title, 422, 'invalid_title']);
    }
    const ok = await tv.post('/broadcasts', tvKey, aBroadcast({ title: 'Fight Night — Müller vs. Núñez' }));
    expect(ok.status).toBe(201);
  });
});
