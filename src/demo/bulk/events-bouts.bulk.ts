import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../domain/errors';
import { EVENT_LEVELS } from '../../domain/reference/vocabulary';
import type { DemoBout, DemoEvent } from '../demo.types';
import { auditRow, insertAudit, type BulkContext, type BulkFighter } from './fighters.bulk';
import { type Cell, reserveSequence, unnestInsert } from './unnest-insert';

export interface BulkEvent {
  id: string;
  code: string;
}

/** EventService.create (and sanction) in bulk: the same codes, rows and audit entries. */
export async function insertEvents(em: EntityManager, ctx: BulkContext, events: readonly DemoEvent[]): Promise<BulkEvent[]> {
  let seq = await reserveSequence(em, 'event_code_seq', events.length);
  const rows: Cell[][] = [],
    audit: Cell[][] = [],
    out: BulkEvent[] = [];
  for (const e of events) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(e.date) || Number.isNaN(Date.parse(e.date))) throw new DomainError('invalid_date', 'event date must be YYYY-MM-DD');
    if (e.level != null && !EVENT_LEVELS.includes(e.level)) throw new DomainError('invalid_level', `level must be one of ${EVENT_LEVELS.join(', ')}`);
    if (!ctx.countryCodes.has(e.countrySlug)) throw new DomainError('invalid_country', `unknown country "${e.countrySlug}"`);
    const id = randomUUID();
    const code = `EV-${e.date.slice(0, 4)}-${String(seq++).padStart(4, '0')}`;
    rows.push([
      id,
      code,
      e.name.trim(),
      e.city?.trim() || null,
      e.countrySlug,
      e.date,
      e.level ?? null,
      e.status ?? 'scheduled',
      e.sanctioned ? ctx.now : null,
      ctx.now,
    ]);
    audit.push(auditRow(ctx, 'events.create', code));
    if (e.sanctioned) audit.push(auditRow(ctx, 'events.sanction', code));
    out.push({ id, code });
  }
  await unnestInsert(
    em,
    'event',
    [
      ['id', 'uuid'],
      ['code', 'text'],
      ['name', 'text'],
      ['city', 'text'],
      ['country_slug', 'text'],
      ['date', 'date'],
      ['level', 'text'],
      ['status', 'text'],
      ['sanctioned_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
    ],
    rows,
  );
  await insertAudit(em, audit);
  return out;
}

/**
 * ResultService.record (and verify) in bulk: both fighters in one division, the bout numbered
 * after the event's last one, the method upper-cased; the same rows and audit entries.
 * `cardSize` carries each event's bout count across chunks.
 */
export async function insertBouts(
  em: EntityManager,
  ctx: BulkContext,
  bouts: readonly DemoBout[],
  fighterOf: Map<string, BulkFighter>,
  eventOf: Map<string, BulkEvent>,
  cardSize: Map<string, number>,
): Promise<void> {
  const rows: Cell[][] = [],
    audit: Cell[][] = [];
  for (const b of bouts) {
    const event = eventOf.get(b.eventKey);
    const a = fighterOf.get(b.fighterA);
    const z = fighterOf.get(b.fighterB);
    if (!event || !a || !z) throw new DomainError('not_found', `bout ${b.eventKey}/${b.order}: unknown event or fighter`);
    if (a.id === z.id) throw new DomainError('invalid_fighters', 'a fighter cannot fight themself');
    if (a.divisionId !== z.divisionId) throw new DomainError('invalid_division', `${a.slug} and ${z.slug} are not in the same division`);
    if (b.round != null && (!Number.isInteger(b.round) || b.round < 1 || b.round > 15))
      throw new DomainError('invalid_round', 'round must be an integer from 1 to 15');
    const order = (cardSize.get(event.id) ?? 0) + 1;
    cardSize.set(event.id, order);
    const id = randomUUID();
    const outcome = b.outcome === 'draw' ? 'draw' : b.outcome === 'nc' ? 'nc' : 'a';
    rows.push([
      id,
      event.id,
      order,
      a.divisionId,
      a.id,
      z.id,
      outcome,
      b.method?.trim().toUpperCase() || null,
      b.round ?? null,
      ctx.now,
      b.verified ? ctx.now : null,
    ]);
    audit.push(auditRow(ctx, 'results.record', id, { event: event.code, a: a.slug, b: z.slug, outcome }));
    if (b.verified) audit.push(auditRow(ctx, 'results.verify', id));
  }
  await unnestInsert(
    em,
    'bout',
    [
      ['id', 'uuid'],
      ['event_id', 'uuid'],
      ['order', 'int'],
      ['division_id', 'text'],
      ['fighter_a_id', 'uuid'],
      ['fighter_b_id', 'uuid'],
      ['outcome', 'text'],
      ['method', 'text'],
      ['round', 'int'],
      ['recorded_at', 'timestamptz'],
      ['verified_at', 'timestamptz'],
    ],
    rows,
  );
  await insertAudit(em, audit);
}
