import type { EntityManager } from '@mikro-orm/postgresql';
import { announceChange } from '../db/announce-change';
import { refreshReadModel } from './catalog/read-model/read-model.refresh';
import { noEvents, type DomainEventSink } from './domain-events';
import type { ChangeTopic } from '../ports/change-feed';
import type { Change, ChangeEffects } from './unit-of-work';

/**
 * The one place the side effects of a write run, on its transaction, in this order: what the
 * entities changed is flushed; the read model is refreshed (so the payloads and the next reads
 * of the same transaction see it); the topics are announced (a NOTIFY delivered on commit, this
 * instance's feed bumped right after it; the `catalog` topic follows any refresh); the domain
 * events go to the outbox (`sink.publish`, which builds the payloads from the refreshed state).
 */
export function changeEffects(sink: DomainEventSink = noEvents): ChangeEffects {
  return {
    async apply(em: EntityManager, change: Change): Promise<void> {
      await em.flush();
      if (change.refresh) await refreshReadModel(em, change.refresh);
      const topics = new Set<ChangeTopic>(change.topics);
      if (change.refresh) topics.add('catalog');
      if (topics.size) await announceChange(em, ...topics);
      if (change.events?.length) await sink.publish(em, [...change.events]);
    },
  };
}
