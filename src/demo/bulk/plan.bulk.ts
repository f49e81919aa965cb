import type { EntityManager } from '@mikro-orm/postgresql';
import type { Container } from '../../container';
import { DomainError } from '../../domain/errors';
import { sql } from '../../domain/unit-of-work';
import type { SeedPhase, SeedProgressListener } from '../../startup/startup-state';
import type { DemoPlan } from '../demo.types';
import { insertBouts, insertEvents, type BulkEvent } from './events-bouts.bulk';
import { insertFighters, type BulkContext, type BulkFighter } from './fighters.bulk';

const CHUNK: Record<'fighters' | 'events' | 'bouts', number> = { fighters: 5_000, events: 5_000, bouts: 20_000 };
/** The webhook events the one-by-one calls would emit; the bulk path writes no outbox rows. */
const PARTNER_EVENTS = ['licence.issued', 'licence.suspended', 'event.sanctioned', 'result.verified'];

/**
 * Writes a plan's fighters (with licences and certificates), events and bouts in bulk, chunk by
 * chunk (one transaction each), reporting progress after each. The rows are those the domain
 * services would write, their rules applied in memory; the reference data must be in place.
 */
export async function writeFightersEventsBouts(c: Container, plan: DemoPlan, onProgress: SeedProgressListener): Promise<void> {
  const em0 = c.orm.em.fork() as EntityManager;
  const subscribed = await sql<{ n: number }[]>(em0,
    `select count(*)::int as n from webhook_endpoint where enabled and partner_id is not null and events && ?::text[]`, [`{${PARTNER_EVENTS.join(',')}}`]);
  if (subscribed[0].n > 0) throw new DomainError('invalid_state', 'bulk seeding writes no webhook events: remove the partner webhook endpoints first');
  const countries = await sql<{ slug: string; code: string }[]>(em0, `select slug, code from country`);
  const divisions = await sql<{ id: string }[]>(em0, `select id from division`);
  const slugs = await sql<{ slug: string }[]>(em0, `select slug from fighter`);
  const ctx: BulkContext = {
    actor: 'demo-seed', today: plan.today, now: c.clock.now(),
    countryCodes: new Map(countries.map((x) => [x.slug, x.code])), divisions: new Set(divisions.map((d) => d.id)), slugs: new Set(slugs.map((x) => x.slug)),
  };
  const fighterOf = new Map<string, BulkFighter>();
  await inChunks(c, 'fighters', plan.fighters, onProgress, async (chunk, em) => {
    const written = await insertFighters(em, ctx, chunk);
    chunk.forEach((f, i) => fighterOf.set(f.key, written[i]));
  });
  const eventOf = new Map<string, BulkEvent>();
  await inChunks(c, 'events', plan.events, onProgress, async (chunk, em) => {
    const written = await insertEvents(em, ctx, chunk);
    chunk.forEach((e, i) => eventOf.set(e.key, written[i]));
  });
  const cardSize = new Map<string, number>();
  await inChunks(c, 'bouts', plan.bouts, onProgress, (chunk, em) => insertBouts(em, ctx, chunk, fighterOf, eventOf, cardSize));
}

async function inChunks<T>(
  c: Container, phase: SeedPhase & keyof typeof CHUNK, items: readonly T[], onProgress: SeedProgressListener,
  fn: (chunk: readonly T[], em: EntityManager) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += CHUNK[phase]) {
    onProgress({ phase, done: i, total: items.length });
    await c.orm.em.fork().transactional((em) => fn(items.slice(i, i + CHUNK[phase]), em as EntityManager));
  }
  onProgress({ phase, done: items.length, total: items.length });
}
