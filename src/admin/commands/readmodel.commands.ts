import type { EntityManager } from '@mikro-orm/postgresql';
import { audit } from '../../domain/audit/audit.log';
import { rebuildReadModel } from '../../domain/catalog/read-model/read-model.refresh';
import { sql } from '../../domain/unit-of-work';
import type { Command } from '../command';

export const readModelCommands: Command[] = [
  {
    name: 'readmodel:rebuild',
    summary: 'rebuild the partner read model (fighter cards, result rows) from the source tables',
    examples: [''],
    async run({ c, actor }) {
      const counts = await c.orm.em.fork().transactional(async (tx) => {
        const em = tx as EntityManager;
        await rebuildReadModel(em);
        audit(em, actor, 'readmodel.rebuild', null);
        await em.flush();
        const [row] = await sql<{ cards: number; results: number }[]>(
          em,
          `select (select count(*) from fighter_card)::int as cards, (select count(*) from result_row)::int as results`,
        );
        return row;
      });
      return { json: { rebuilt: true, ...counts }, text: `rebuilt: ${counts.cards} fighter cards, ${counts.results} result rows` };
    },
  },
];
