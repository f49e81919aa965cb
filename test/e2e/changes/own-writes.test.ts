import { startTestApp, type TestApp } from '../../helpers/test-app';
import { buildWorld } from '../../helpers/world';

/**
 * The writing instance bumps its own feed when its transaction commits, before the write's
 * promise resolves: it never depends on its NOTIFY coming back through LISTEN (which is fast
 * enough to hide a missing bump, except under load). Transactions run on forks whose event
 * manager is a clone, which once made the bump miss.
 */
let a: TestApp;
beforeAll(async () => {
  a = await startTestApp({ env: { AUTH_CACHE_TTL_MS: '60000' } });
  await buildWorld(a.c);
});
afterAll(() => a?.close());

it("moves the topic's version by the time the write returns, every time", async () => {
  const actor = { id: 'test' };
  for (let i = 0; i < 20; i++) {
    const issued = await a.c.services.partners.issueKey(actor, { partnerSlug: 'acme-media', name: `own ${i}`, scopes: ['rankings.read'] });
    const before = a.c.changes.version('partner_keys');
    await a.c.services.partners.revokeKey(actor, issued.key.id);
    expect([i, a.c.changes.version('partner_keys') > before]).toEqual([i, true]);
  }
});
