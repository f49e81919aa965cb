import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import type { BoutMethod } from './demo.types';
import { DEMO_RECORDS } from './demo-records';

/**
 * The demo's one fixed-date event (demo-records.ts): the documents' `/events/{code}` example must
 * name an event on any day the demo starts, and a code carries its event's year and the code
 * sequence's next value. The seed creates this card before any other event (so it takes the
 * sequence's first value: `EV-2026-0001`), through the operator's services, and records and
 * verifies its bouts once the fighters exist. Everything else in the calendar stays dated relative
 * to today.
 */
const EVENT = { name: 'Berlin Kickboxing Masters 2026', city: 'Berlin', countrySlug: 'germany', date: '2026-11-14', level: 'international' } as const;

/**
 * Its card: licensed adults of these divisions, those whose current licence covered the day first
 * (every one of them while the demo starts within a licence's term of the day; later, the card
 * still fills), then by slug, paired in order.
 */
const CARD: readonly { division: string; bouts: number }[] = [
  { division: 'kickboxing-pro-m-67kg', bouts: 3 },
  { division: 'kickboxing-pro-f-60kg', bouts: 2 },
];
const METHODS: readonly [BoutMethod, number | null][] = [
  ['UD', null],
  ['KO', 2],
  ['SD', null],
  ['TKO', 3],
  ['UD', null],
];

/** Creates the event (completed and sanctioned once its day has passed); first of all events. */
export async function createFixtureEvent(c: Container, actor: Actor): Promise<void> {
  const past = EVENT.date < c.clock.today();
  const event = await c.services.events.create(actor, { ...EVENT, status: past ? 'completed' : 'scheduled' });
  if (event.code !== DEMO_RECORDS.eventCode) {
    throw new Error(`the demo's fixture event is ${event.code}, not ${DEMO_RECORDS.eventCode}: it must be the first event of the database`);
  }
  await c.services.events.sanction(actor, event.code);
}

/** Records and verifies its card (nothing when its day is still to come). */
export async function recordFixtureResults(c: Container, actor: Actor): Promise<void> {
  if (EVENT.date >= c.clock.today()) return;
  const conn = c.orm.em.getConnection();
  let n = 0;
  for (const { division, bouts } of CARD) {
    const fighters = await conn.execute<{ slug: string }[]>(
      `select f.slug from fighter f
         join fighter_identity fi on fi.fighter_id = f.id
         left join licence l on l.fighter_id = f.id and l.current
        where f.division_id = ? and f.status = 'licensed' and fi.date_of_birth <= (?::date - interval '18 years')::date
        order by (l.state = 'active' and l.issued_on <= ?::date and l.valid_until >= ?::date) desc nulls last, f.slug
        limit ?`,
      [division, EVENT.date, EVENT.date, EVENT.date, bouts * 2],
    );
    for (let i = 0; i + 1 < fighters.length; i += 2, n += 1) {
      const [method, round] = METHODS[n % METHODS.length];
      const bout = await c.services.results.record(actor, {
        eventCode: DEMO_RECORDS.eventCode,
        winnerSlug: fighters[i].slug,
        loserSlug: fighters[i + 1].slug,
        method,
        round,
      });
      await c.services.results.verify(actor, bout.id);
    }
  }
}
