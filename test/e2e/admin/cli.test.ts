import { getPartner } from '../../helpers/partner-client';
import { admin, adminJson, adminProcess } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld, KEYS, testClock, TODAY, type World } from '../../helpers/world';
import { addDays } from '../../../src/domain/clock';

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await startTestApp({ clock: testClock });
  world = await buildWorld(t.c);
});
afterAll(() => t?.close());

describe('the operator command line', () => {
  it('lists its commands, with the docs/decisions.md#operator names', async () => {
    const out = await admin(t.c, '--help');
    expect(out.code).toBe(0);
    for (const name of [
      'partners:create',
      'partners:suspend',
      'partners:reinstate',
      'keys:issue',
      'keys:revoke',
      'keys:list',
      'webhooks:register',
      'webhooks:rotate-secret',
      'webhooks:disable',
      'webhooks:list',
      'webhooks:set-rate',
      'deliveries:list',
      'deliveries:replay',
      'deliveries:recover',
      'fighters:register',
      'licences:issue',
      'licences:suspend',
      'licences:reinstate',
      'events:create',
      'events:sanction',
      'results:record',
      'results:verify',
      'rankings:publish',
    ]) {
      expect(out.stdout).toContain(name);
    }
  });

  it('exits non-zero with a clear message on bad input', async () => {
    expect(await admin(t.c, 'nope:nope')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "nope:nope"') });
    expect(await admin(t.c, 'partners:create', '--slug', 'x-y')).toMatchObject({ code: 2, stderr: expect.stringContaining('--name is required') });
    expect(await admin(t.c, 'partners:create', '--slug', 'x', '--name', 'N', '--bogus', '1')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('bogus'),
    });
    expect(await admin(t.c, 'keys:issue', '--partner', 'acme-media', '--name', 'k', '--scopes', 'rankings.write')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('invalid_scopes'),
    });
    expect(await admin(t.c, 'licences:suspend', 'no-such-fighter')).toMatchObject({ code: 1, stderr: expect.stringContaining('not_found') });
    expect(await admin(t.c, 'partners:suspend')).toMatchObject({ code: 2, stderr: expect.stringContaining('expected SLUG') });
    expect(await admin(t.c, 'rankings:publish', '--as-of', 'yesterday')).toMatchObject({ code: 2 });
  });

  it('issues a key once, which works on the partner API, and revokes it', async () => {
    await adminJson(t.c, 'partners:create', '--slug', 'stats-co', '--name', 'Stats Co');
    const issued = await adminJson(t.c, 'keys:issue', '--partner', 'stats-co', '--name', 'prod', '--scopes', 'rankings.read,fighters.read', '--limit', '120');
    expect(issued.key).toMatch(/^pk_[0-9A-Za-z]{40}$/);
    const me = await getPartner(t.app, '/me', issued.key);
    expect(me.body.data).toMatchObject({ name: 'prod', partner: { slug: 'stats-co', status: 'active' }, rate_limit_per_minute: 120 });
    const listed = await adminJson(t.c, 'keys:list', '--partner', 'stats-co');
    expect(JSON.stringify(listed)).not.toContain(issued.key);
    expect(listed.keys[0]).toMatchObject({ id: issued.id, prefix: issued.key.slice(0, 8), request_count: 1 });
    await adminJson(t.c, 'keys:revoke', issued.id);
    expect((await getPartner(t.app, '/me', issued.key)).status).toBe(401);
  });

  it('suspends and reinstates a partner: its keys stop and start working', async () => {
    await adminJson(t.c, 'partners:suspend', 'acme-media');
    expect((await getPartner(t.app, '/me', KEYS.full)).body.error).toBe('invalid_key');
    await adminJson(t.c, 'partners:reinstate', 'acme-media');
    expect((await getPartner(t.app, '/me', KEYS.full)).status).toBe(200);
  });

  it('records and verifies a result and publishes a run: the partner API shows the new result, points, ranks and movement', async () => {
    const event = await adminJson(
      t.c,
      'events:create',
      '--name',
      'Cup of Tomorrow',
      '--country',
      'france',
      '--date',
      addDays(TODAY, -1),
      '--level',
      'worldcup',
      '--status',
      'completed',
    );
    await adminJson(t.c, 'events:sanction', event.event.code);
    const recorded = await adminJson(
      t.c,
      'results:record',
      '--event',
      event.event.code,
      '--winner',
      world.slugs.chiaki,
      '--loser',
      world.slugs.bela,
      '--method',
      'TKO',
      '--round',
      '2',
    );
    const before = await getPartner(t.app, `/results?event=${event.event.code}`, KEYS.full);
    expect(before.body.meta.total).toBe(0);
    await adminJson(t.c, 'results:verify', recorded.result.id);
    const after = await getPartner(t.app, `/results?event=${event.event.code}`, KEYS.full);
    expect(after.body.data.map((r: any) => [r.fighter.slug, r.result, r.points.total])).toEqual([
      [world.slugs.chiaki, 'W', 30],
      [world.slugs.bela, 'L', 5],
    ]);
    const published = await adminJson(t.c, 'rankings:publish', '--as-of', addDays(TODAY, 1));
    expect(published).toMatchObject({ as_of: addDays(TODAY, 1), previous_as_of: TODAY });
    t.c.readContext.invalidate();
    const rankings = await getPartner(t.app, '/rankings?disc=kickboxing&cat=pro&g=f&wc=60kg', KEYS.full);
    expect(rankings.body.as_of).toBe(addDays(TODAY, 1));
    const chiaki = rankings.body.data.find((r: any) => r.fighter.slug === world.slugs.chiaki);
    // 6 (world loss) + 30 (worldcup TKO win) = 36: first, up from fourth.
    expect(chiaki).toMatchObject({ rank: 1, points: 36, movement: 3 });
  });

  it('audits every change with who, what and when', async () => {
    const audit = await adminJson(t.c, 'audit:list', '--limit', '200');
    const actions = audit.entries.filter((e: any) => e.actor === 'operator:tester').map((e: any) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'partners.create',
        'keys.issue',
        'keys.revoke',
        'partners.suspend',
        'partners.reinstate',
        'events.create',
        'events.sanction',
        'results.record',
        'results.verify',
        'rankings.publish',
      ]),
    );
  });

  it('runs as a real process against the database, printing JSON with --json', async () => {
    const out = await adminProcess(t.db.url, ['partners:list', '--json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).partners.map((p: any) => p.slug)).toEqual(expect.arrayContaining(['acme-media', 'gone-bets']));
    const bad = await adminProcess(t.db.url, ['licences:issue', 'nobody']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('fighter "nobody" not found');
  }, 60_000);
});
