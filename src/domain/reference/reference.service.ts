import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import type { UnitOfWork } from '../unit-of-work';
import { Continent, Country, Division } from './reference.entities';

export interface ReferenceData {
  continents: { slug: string; name: string }[];
  countries: { slug: string; name: string; code: string; continent: string }[];
  divisions: { id: string; discipline: string; category: string; gender: string; weightClass: string; label: string; sortOrder: number }[];
}

/** Continents, countries and divisions: reference data the operator loads and extends. */
export class ReferenceService {
  constructor(private readonly uow: UnitOfWork) {}

  async upsert(actor: Actor, data: ReferenceData, tx?: EntityManager): Promise<void> {
    await this.uow.run(tx, async (em, changed) => {
      for (const c of data.continents) await em.upsert(Continent, c);
      for (const c of data.countries) {
        await em.upsert(Country, { slug: c.slug, name: c.name, code: c.code, continent: c.continent });
      }
      for (const d of data.divisions) await em.upsert(Division, d);
      audit(em, actor, 'reference.upsert', null, {
        continents: data.continents.length,
        countries: data.countries.length,
        divisions: data.divisions.length,
      });
      await changed({ refresh: { referenceNames: true } });
    });
  }
}
