import fc from 'fast-check';
import { admin } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { registerEndpoint, seedBasics, WEBHOOK_ENV } from '../../helpers/webhooks';

/**
 * The operator's commands fed odd dates (docs/decisions.md#date-range): each one is done (exit 0)
 * or refused with a clear message (exit 1 or 2); none throws, and no output ever quotes SQL, a
 * driver's message or a key's hash (year 0000 used to reach PostgreSQL and print its error with
 * the statement and its parameters).
 */

let t: TestApp;
let endpointId: string;
beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_ENV });
  await seedBasics(t.c);
  endpointId = (await registerEndpoint(t.c, 'http://127.0.0.1:9/hook', ['event.sanctioned'])).id;
});
afterAll(() => t?.close());

const oddDates = fc.oneof(
  fc.constantFrom(
    '0000-01-01',
    '0000-12-31',
    '0000-00-00',
    '0001-01-01',
    '9999-12-31',
    '10000-01-01',
    '+010000-01-01',
    '-000001-01-01',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '+275760-09-13T00:00:00Z',
    '2026-02-30',
    '2026-13-01',
    '2026-06-15T25:00:00Z',
    '1e3',
    '',
    ' ',
    'now',
  ),
  fc
    .tuple(fc.integer({ min: -2, max: 12_000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${y < 0 ? '-' : ''}${String(Math.abs(y)).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
);

const commands: [string, (date: string) => string[]][] = [
  ['events:create --date', (d) => ['events:create', '--name', 'Odd Cup', '--country', 'germany', '--date', d, '--level', 'national']],
  ['keys:issue --expires', (d) => ['keys:issue', '--partner', 'acme-media', '--name', 'odd', '--scopes', 'rankings.read', '--expires', d]],
  ['webhooks:rotate-secret --switch-at', (d) => ['webhooks:rotate-secret', endpointId, '--switch-at', d]],
  ['deliveries:recover --since', (d) => ['deliveries:recover', '--endpoint', endpointId, '--since', d]],
];

const LEAKS = /select |insert |update |values \(|\$\d|[0-9a-f]{64}|out of range|date\/time field|stack|at .*\.ts:/i;

it.each(commands)('%s: every odd date is done or refused clearly, never an internal error', async (_name, argv) => {
  const seen: Record<number, number> = {};
  await fc.assert(
    fc.asyncProperty(oddDates, async (date) => {
      const out = await admin(t.c, ...argv(date));
      seen[out.code] = (seen[out.code] ?? 0) + 1;
      expect([date, out.code === 0 || out.code === 1 || out.code === 2]).toEqual([date, true]);
      expect([date, out.stderr]).not.toEqual([date, expect.stringMatching(LEAKS)]);
      expect([date, out.stderr]).not.toEqual([date, expect.stringContaining('error: internal')]);
      if (out.code === 1) expect(out.stderr).toMatch(/^error: invalid_\w+: /);
    }),
    { seed: 16, numRuns: 60, endOnFailure: true },
  );
  expect(seen[1]).toBeGreaterThan(0);
});

it('year 0000 is refused with the range in the message, the first and last storable days are taken', async () => {
  const refused = await admin(t.c, 'events:create', '--name', 'Year Zero', '--country', 'germany', '--date', '0000-01-01');
  expect(refused).toMatchObject({ code: 1, stdout: '' });
  expect(refused.stderr).toBe('error: invalid_date: event date must be a date YYYY-MM-DD from 0001-01-01 to 9999-12-31\n');
  const key = await admin(t.c, 'keys:issue', '--partner', 'acme-media', '--name', 'zero', '--scopes', 'rankings.read', '--expires', '0000-01-01');
  expect(key.code).toBe(1);
  expect(key.stderr).toMatch(/^error: invalid_expires: --expires must be an ISO 8601 date or time from 0001-01-01 to 9999-12-31/);
  expect((await admin(t.c, 'events:create', '--name', 'Last Day', '--country', 'germany', '--date', '9999-12-31')).code).toBe(0);
  expect((await admin(t.c, 'keys:issue', '--partner', 'acme-media', '--name', 'far', '--scopes', 'rankings.read', '--expires', '9999-12-31')).code).toBe(0);
});
