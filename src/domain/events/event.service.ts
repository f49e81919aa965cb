import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import type { Clock } from '../clock';
import { DomainError, notFound } from '../errors';
import { Country } from '../reference/reference.entities';
import { EVENT_LEVELS, EVENT_STATUSES } from '../reference/vocabulary';
import { nextSequenceValue, type UnitOfWork } from '../unit-of-work';
import { SportEvent, type EventLevel, type EventStatus } from './event.entity';
import { refuseControlCharacters } from '../text';
import { DATE_RANGE_TEXT, isStorableDate } from '../date-range';

export interface CreateEventInput {
  name: string;
  city?: string | null;
  countrySlug: string;
  date: string;
  level?: EventLevel | null;
  status?: EventStatus;
}

export class EventService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, input: CreateEventInput, tx?: EntityManager): Promise<SportEvent> {
    refuseControlCharacters(input.name, 'name');
    refuseControlCharacters(input.city, 'city');
    return this.uow.run(tx, async (em, changed) => {
      if (!isStorableDate(input.date)) throw new DomainError('invalid_date', `event date must be a date YYYY-MM-DD ${DATE_RANGE_TEXT}`);
      if (input.level != null && !EVENT_LEVELS.includes(input.level)) {
        throw new DomainError('invalid_level', `level must be one of ${EVENT_LEVELS.join(', ')}`);
      }
      const country = await em.findOne(Country, { slug: input.countrySlug });
      if (!country) throw new DomainError('invalid_country', `unknown country "${input.countrySlug}"`);
      const seq = await nextSequenceValue(em, 'event_code_seq');
      const event = Object.assign(new SportEvent(), {
        code: `EV-${input.date.slice(0, 4)}-${String(seq).padStart(4, '0')}`,
        name: input.name.trim(),
        city: input.city?.trim() || null,
        country,
        date: input.date,
        level: input.level ?? null,
        status: input.status ?? 'scheduled',
      });
      em.persist(event);
      audit(em, actor, 'events.create', event.code);
      await em.flush();
      return event;
    });
  }

  async sanction(actor: Actor, code: string, tx?: EntityManager): Promise<SportEvent> {
    return this.uow.run(tx, async (em, changed) => {
      const event = await this.byCode(em, code);
      if (event.sanctionedAt) throw new DomainError('invalid_state', `event ${code} is already sanctioned`);
      event.sanctionedAt = this.clock.now();
      audit(em, actor, 'events.sanction', code);
      await changed({ refresh: { events: [event.id] }, events: [{ type: 'event.sanctioned', eventId: event.id }] });
      return event;
    });
  }

  async setStatus(actor: Actor, code: string, status: EventStatus, tx?: EntityManager): Promise<SportEvent> {
    return this.uow.run(tx, async (em, changed) => {
      if (!(EVENT_STATUSES as readonly string[]).includes(status))
        throw new DomainError('invalid_status', `status must be one of ${EVENT_STATUSES.join(', ')}`);
      const event = await this.byCode(em, code);
      event.status = status;
      audit(em, actor, 'events.set-status', code, { status });
      await changed({ refresh: { eventDetails: [event.id] } });
      return event;
    });
  }

  private async byCode(em: EntityManager, code: string): Promise<SportEvent> {
    const event = await em.findOne(SportEvent, { code });
    if (!event) throw notFound(`event "${code}"`);
    return event;
  }
}
