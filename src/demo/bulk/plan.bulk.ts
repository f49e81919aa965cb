import type { EntityManager } from '@mikro-orm/postgresql';
import type { Container } from '../../container';
import { DomainError } from '../../domain/errors';
import { PARTNER_EVENTS as PARTNER_EVENT_NAMES } from '../../webhooks/event-catalog';
import { sql } from '../../domain/unit-of-work';
import type { SeedPhase, SeedProgressListener } from '../../startup/startup-state';
import type { DemoBout, DemoEvent, DemoFighter, DemoPlan } from '../demo.types';
import { insertBouts, insertEvents, type BulkEvent } from './events-bouts.bulk';
import { insertFighters, type BulkContext, type BulkFighter } from './fighters.bulk';

const CHUNK: Record<'fighters' | 'events' | 'bouts', number> = { fighters: 5_000, events: 5_000, bouts: 20_000 };
/** The webhook events the one-by-one calls would emit; the bulk path writes no outbox rows. */
const PARTNER_EVENTS = PARTNER_EVENT_NAMES.filter((e) => e !== 'ranking.published');

/**
 * Writes fighters (with licences and certificates), events and bouts in bulk, chunk by chunk
 * (one transaction each), reporting progress after each. The rows are those the domain services
 * would write, their rules applied in memory; the reference data must be in place. Events may
 * be written before the fighters and bouts that use them (the scale data set writes its whole
 * calendar first, then one copy of the model at a time); fighters before their bouts.
 */
export class BulkWriter {
  private readonly fighterOf = new Map<string, BulkFighter>();
  private readonly eventOf = new Map<string, BulkEvent>();
  /** Each event's bout count so far, so that chunks go on numbering its card. */
  private readonly cardSize = new Map<string, number>();

  private constructor(
    private readonly c: Container,
    private readonly ctx: BulkContext,
    private readonly onProgress: SeedProgressListener,
  ) {}

  static async open(c: Container, today: string, onProgress: SeedProgressListener): Promise<BulkWriter> {
    const em0 = c.orm.em.fork() as EntityManager;
    const subscribed = await sql<{ n: number }[]>(
      em0,
      `select count(*)::int as n from webhook_endpoint where enabled and partner_id is not null and events && ?::text[]`,
      [`{${PARTNER_EVENTS.join(',')}}`],
    );
    if (subscribed[0].n > 0) throw new DomainError('invalid_state', 'bulk seeding writes no webhook events: remove the partner webhook endpoints first');
    const countries = await sql<{ slug: string; code: string }[]>(em0, `select slug, code from country`);
    const divisions = await sql<{ id: string }[]>(em0, `select id from division`);
    const slugs = await sql<{ slug: string }[]>(em0, `select slug from fighter`);
    return new BulkWriter(
      c,
      {
        actor: 'demo-seed',
        today,
        now: c.clock.now(),
        countryCodes: new Map(countries.map((x) => [x.slug, x.code])),
        divisions: new Set(divisions.map((d) => d.id)),
        slugs: new Set(slugs.map((x) => x.slug)),
      },
      onProgress,
    );
  }

  async fighters(fighters: readonly DemoFighter[], progress = true): Promise<void> {
    await this.inChunks('fighters', fighters, progress, async (chunk, em) => {
      const written = await insertFighters(em, this.ctx, chunk);
      chunk.forEach((f, i) => {
        this.fighterOf.set(f.key, written[i]);
      });
    });
  }

  async events(events: readonly DemoEvent[], progress = true): Promise<void> {
    await this.inChunks('events', events, progress, async (chunk, em) => {
      const written = await insertEvents(em, this.ctx, chunk);
      chunk.forEach((e, i) => {
        this.eventOf.set(e.key, written[i]);
      });
    });
  }

  async bouts(bouts: readonly DemoBout[], progress = true): Promise<void> {
    await this.inChunks('bouts', bouts, progress, (chunk, em) => insertBouts(em, this.ctx, chunk, this.fighterOf, this.eventOf, this.cardSize));
  }

  /** Lets go of fighters no later bout will name (the scale data set's copies never meet). */
  forgetFighters(): void {
    this.fighterOf.clear();
  }

  private async inChunks<T>(
    phase: SeedPhase & keyof typeof CHUNK,
    items: readonly T[],
    progress: boolean,
    fn: (chunk: readonly T[], em: EntityManager) => Promise<void>,
  ): Promise<void> {
    for (let i = 0; i < items.length; i += CHUNK[phase]) {
      if (progress) this.onProgress({ phase, done: i, total: items.length });
      await this.c.orm.em.fork().transactional((em) => fn(items.slice(i, i + CHUNK[phase]), em as EntityManager));
    }
    if (progress) this.onProgress({ phase, done: items.length, total: items.length });
  }
}

/** The demo's plan, whole: fighters, then events, then bouts. */
export async function writeFightersEventsBouts(c: Container, plan: DemoPlan, onProgress: SeedProgressListener): Promise<void> {
  const writer = await BulkWriter.open(c, plan.today, onProgress);
  await writer.fighters(plan.fighters);
  await writer.events(plan.events);
  await writer.bouts(plan.bouts);
}
