import { notifyChangeSql } from '../../src/db/change-feed';
import type { ChangeTopic } from '../../src/ports/change-feed';
import type { TestApp } from './test-app';

/**
 * Waits until the instance's LISTEN feed has heard every notification committed so far. A write
 * bumps its own instance's feed at commit, then its NOTIFY comes back through LISTEN and bumps it
 * again, a moment later (longer under load): an answer cached between the two is reloaded once.
 * A test that checks an answer is kept (no statement, answered at once) waits here before the
 * answer is first asked. PostgreSQL delivers a session's notifications in commit order, so once
 * the marker (a bump of `marker`, which itself empties that topic's caches: call this before the
 * test caches anything of it) is heard, every earlier one has been.
 */
export async function feedCaughtUp(t: TestApp, marker: ChangeTopic = 'partner_keys'): Promise<void> {
  const before = t.c.changes.version(marker);
  await t.c.orm.em.getConnection().execute(notifyChangeSql(marker));
  for (let tries = 0; t.c.changes.version(marker) === before; tries++) {
    if (tries > 1000) throw new Error(`the change feed did not hear ${marker} within 5 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
