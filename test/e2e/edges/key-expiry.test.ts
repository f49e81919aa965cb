import type { Clock } from '../../../src/domain/clock';
import { admin, adminJson } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * docs/decisions.md#keys: a key cannot be issued already expired. The expiry must lie ahead of
 * the service's clock (pinned here), whichever way it is written; the refusal stores nothing.
 */

const NOW = new Date('2030-06-01T12:00:00Z');
const clock: Clock = { now: () => new Date(NOW), today: () => '2030-06-01' };
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
  await adminJson(t.c, 'partners:create', '--slug', 'expiry-co', '--name', 'Expiry Co');
});
afterAll(() => t?.close());

const keys = async () => (await adminJson<{ keys: unknown[] }>(t.c, 'keys:list', '--partner', 'expiry-co')).keys.length;
const issue = (expires: string) =>
  admin(t.c, 'keys:issue', '--partner', 'expiry-co', '--name', `k ${expires}`, '--scopes', 'rankings.read', '--expires', expires);

describe('keys:issue --expires', () => {
  it.each(['2020-01-01', '2030-05-31', '2030-06-01', '2030-06-01T11:59:59Z', '2030-06-01T12:00:00Z', '2030-06-01T13:00:00+02:00'])(
    'refuses %s, at or before now, with invalid_expires and issues nothing',
    async (expires) => {
      const before = await keys();
      const out = await issue(expires);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(
        /^error: invalid_expires: the expiry .* is not in the future \(now 2030-06-01T12:00:00.000Z\): a key cannot be issued already expired/,
      );
      expect(out.stdout).toBe('');
      expect(await keys()).toBe(before);
    },
  );

  it.each(['2030-06-01T12:00:01Z', '2030-06-02', '2031-01-01T00:00:00+14:00'])('issues a key expiring %s, which works until then', async (expires) => {
    const out = await issue(expires);
    expect(out.code).toBe(0);
    const key = out.stdout.match(/pk_[A-Za-z0-9]{40}/)![0];
    expect((await t.c.keys.authenticate(key)).kind).toBe('partner');
  });

  it('issues a key without expiry', async () => {
    const out = await admin(t.c, 'keys:issue', '--partner', 'expiry-co', '--name', 'forever', '--scopes', 'rankings.read', '--json');
    expect(JSON.parse(out.stdout).expires_at).toBeNull();
  });
});
