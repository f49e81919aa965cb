import type { EntityManager } from '@mikro-orm/postgresql';
import { changeEffects } from './change-effects';
import type { DomainEvent } from './domain-events';

/**
 * The one place a write's side effects run (docs/adr/0012-unit-of-work.md), against an
 * EntityManager that records what reaches the database: the order matters to users (the read
 * model must be refreshed before the outbox builds a payload from it, and the announcement must
 * ride on the same transaction so it is heard on commit only).
 */
function recordingEm() {
  const log: string[] = [];
  const tx = {}; // the transaction's context object
  const em = {
    flush: async () => {
      log.push('flush');
    },
    getTransactionContext: () => tx,
    getConnection: () => ({
      execute: async (query: string, _params: unknown[], _method: string, ctx: unknown) => {
        if (ctx !== tx) throw new Error('a statement ran outside the transaction');
        const notify = /pg_notify\('svc_changes', '(\w+)'\)/.exec(query);
        log.push(
          notify
            ? `notify ${notify[1]}`
            : query.startsWith('update result_row')
              ? 'sync result rows'
              : query.includes('fighter_card')
                ? 'refresh cards'
                : 'sql',
        );
        return [];
      },
    }),
    getEventManager: () => ({ getSubscribers: () => [] }),
  };
  return { em: em as unknown as EntityManager, log };
}

const issued: DomainEvent = { type: 'licence.issued', licenceId: 'l1' };

describe('changeEffects', () => {
  it('flushes, refreshes the read model, announces (catalog follows a refresh), then hands the events to the outbox, on the transaction', async () => {
    const { em, log } = recordingEm();
    const published: string[] = [];
    const effects = changeEffects({
      publish: async (e, events) => {
        expect(e).toBe(em);
        published.push(...events.map((x) => x.type));
        log.push('publish');
      },
    });
    await effects.apply(em, { refresh: { fighters: ['f1', 'f1'] }, topics: ['partner_keys'], events: [issued] });
    // The fighters' result rows take their cards' columns (a page of the feed reads no card).
    expect(log).toEqual(['flush', 'refresh cards', 'sync result rows', 'notify partner_keys', 'notify catalog', 'publish']);
    expect(published).toEqual(['licence.issued']);
  });

  it('sends a topic once per transaction, and runs nothing but the flush for an empty change', async () => {
    const { em, log } = recordingEm();
    const effects = changeEffects();
    await effects.apply(em, { topics: ['catalog', 'tv'] });
    await effects.apply(em, { topics: ['catalog'] });
    await effects.apply(em, {});
    expect(log).toEqual(['flush', 'notify catalog', 'notify tv', 'flush', 'flush']);
  });
});
