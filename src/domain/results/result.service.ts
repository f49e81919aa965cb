import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import type { Clock } from '../clock';
import { DomainError, notFound } from '../errors';
import { SportEvent } from '../events/event.entity';
import { Fighter } from '../fighters/fighter.entities';
import { sql, type UnitOfWork } from '../unit-of-work';
import { Bout } from './bout.entity';
import { isUuid } from '../ids';

export interface RecordResultInput {
  eventCode: string;
  /** The winner, or the first fighter of a draw / no contest. */
  winnerSlug: string;
  loserSlug: string;
  draw?: boolean;
  noContest?: boolean;
  method?: string | null;
  round?: number | null;
}

/** Bouts are recorded by the operator, then verified; only verified bouts count. */
export class ResultService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async record(actor: Actor, input: RecordResultInput, tx?: EntityManager): Promise<Bout> {
    return this.uow.run(tx, async (em, changed) => {
      const event = await em.findOne(SportEvent, { code: input.eventCode });
      if (!event) throw notFound(`event "${input.eventCode}"`);
      if (input.winnerSlug === input.loserSlug) throw new DomainError('invalid_fighters', 'a fighter cannot fight themself');
      const a = await em.findOne(Fighter, { slug: input.winnerSlug });
      const b = await em.findOne(Fighter, { slug: input.loserSlug });
      if (!a) throw notFound(`fighter "${input.winnerSlug}"`);
      if (!b) throw notFound(`fighter "${input.loserSlug}"`);
      if (a.division.id !== b.division.id) {
        throw new DomainError('invalid_division', `${a.slug} and ${b.slug} are not in the same division`);
      }
      if (input.draw && input.noContest) throw new DomainError('invalid_outcome', 'a bout is either a draw or a no contest');
      if (input.round != null && (!Number.isInteger(input.round) || input.round < 1 || input.round > 15)) {
        throw new DomainError('invalid_round', 'round must be an integer from 1 to 15');
      }
      const rows = await sql<{ n: number }[]>(em, `select coalesce(max("order"), 0)::int as n from bout where event_id = ?`, [event.id]);
      const bout = Object.assign(new Bout(), {
        event,
        order: rows[0].n + 1,
        division: a.division,
        fighterA: a,
        fighterB: b,
        outcome: input.draw ? 'draw' : input.noContest ? 'nc' : 'a',
        method: input.method?.trim().toUpperCase() || null,
        round: input.round ?? null,
        recordedAt: this.clock.now(),
      });
      em.persist(bout);
      audit(em, actor, 'results.record', bout.id, { event: event.code, a: a.slug, b: b.slug, outcome: bout.outcome });
      await em.flush();
      return bout;
    });
  }

  async verify(actor: Actor, boutId: string, tx?: EntityManager): Promise<Bout> {
    return this.uow.run(tx, async (em, changed) => {
      if (!isUuid(boutId)) throw new DomainError('invalid_id', 'a result id is a uuid');
      const bout = await em.findOne(Bout, { id: boutId }, { populate: ['event', 'fighterA', 'fighterB'] });
      if (!bout) throw notFound(`result "${boutId}"`);
      if (bout.verifiedAt) throw new DomainError('invalid_state', `result ${boutId} is already verified`);
      bout.verifiedAt = this.clock.now();
      audit(em, actor, 'results.verify', bout.id);
      await changed({ refresh: { bouts: [bout.id] }, events: [{ type: 'result.verified', boutId: bout.id }] });
      return bout;
    });
  }
}
