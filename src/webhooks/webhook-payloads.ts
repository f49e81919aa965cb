import type { EntityManager } from '@mikro-orm/postgresql';
import { eventColumns, fighterColumns, fighterJoins, PARAMS_CTE, type EventRow, type FighterRow } from '../domain/catalog/fighter-summary.sql';
import type { FighterSummaryBody } from '../domain/catalog/view.schemas';
import type { ReadContext } from '../domain/catalog/read-context';
import { ResultQueries } from '../domain/catalog/results.queries';
import { addYears, type Clock } from '../domain/clock';
import type { DomainEvent } from '../domain/domain-events';
import { sql } from '../domain/unit-of-work';
import { fighterApiUrl } from '../domain/catalog/api-urls';
import { presentDivision, presentEvent, presentFighterSummary, presentResult } from '../domain/catalog/views';
import { BROADCAST_RECORD_COLUMNS, recordOf, type BroadcastRecordRow } from '../domain/channels/broadcast.record';
import { presentBroadcast } from '../domain/channels/broadcast.view';
import type { Payload } from './event-catalog';
import { txConnection } from './tx-connection';

export type { Payload };

interface LicenceRow extends FighterRow {
  licence_no: string;
  valid_until: string | null;
  verified_at: Date | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();
/** A licence is valid through the last day of its validity. */
const endOfDay = (date: string | null) => (date ? `${date}T23:59:59.000Z` : null);

/**
 * Builds webhook data (docs/decisions.md#payloads) from domain events: in the change's own
 * transaction, or for a ranking publication's chunks in a worker's transaction after the commit
 * (outbox.ts). Nothing about a minor is ever sent: events whose subject is a minor produce no
 * payload at all.
 */
export class WebhookPayloads {
  constructor(
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly ingestServerUrl: string,
  ) {}

  /** The payloads of `events`, which happened at `at` (the time of the change, for `suspended_at` and the like). */
  async build(em: EntityManager, events: DomainEvent[], at: Date = this.clock.now()): Promise<Payload[]> {
    const ctx = await this.context(em);
    const out: Payload[] = [];
    for (const event of events) out.push(...(await this.one(em, ctx, event, at)));
    return out;
  }

  private async one(em: EntityManager, ctx: ReadContext, event: DomainEvent, at: Date): Promise<Payload[]> {
    const params = [ctx.today, ctx.adultCutoff];
    switch (event.type) {
      case 'licence.issued':
      case 'licence.suspended': {
        const [row] = await sql<LicenceRow[]>(
          em,
          `${PARAMS_CTE} select l.licence_no, l.valid_until::text as valid_until, l.verified_at, ${fighterColumns()}
             from p cross join licence l join fighter f on f.id = l.fighter_id ${fighterJoins()} where l.id = ?`,
          [...params, event.licenceId],
        );
        if (!row || row.f_minor) return [];
        const fighter = { slug: row.f_slug, name: row.f_name, country: row.c_slug, fighter_code: row.f_fighter_code, licence_no: row.licence_no };
        const url = this.fighterUrl(row.f_slug);
        if (event.type === 'licence.suspended') {
          return [
            {
              type: event.type,
              data: {
                fighter,
                status: row.f_status as FighterSummaryBody['status'],
                licence_status: row.f_licence_status as FighterSummaryBody['licence_status'],
                suspended_at: iso(at),
                url,
              },
            },
          ];
        }
        return [
          {
            type: event.type,
            data: {
              fighter,
              division: presentDivision(row),
              status: row.f_status as FighterSummaryBody['status'],
              licence_status: row.f_licence_status as FighterSummaryBody['licence_status'],
              issued_at: iso(row.verified_at ?? at),
              valid_until: endOfDay(row.valid_until),
              url,
            },
          },
        ];
      }
      case 'event.sanctioned': {
        const [row] = await sql<(EventRow & { sanctioned_at: Date })[]>(em, `select ${eventColumns()}, e.sanctioned_at from event e where e.id = ?`, [
          event.eventId,
        ]);
        return row ? [{ type: event.type, data: { ...presentEvent(row, this.publicUrl), sanctioned_at: iso(row.sanctioned_at) } }] : [];
      }
      case 'result.verified': {
        const rows = await new ResultQueries(txConnection(em)).forBout(ctx, event.boutId);
        return rows.map((r) => ({ type: event.type, data: { ...presentResult(r, ctx.asOf, this.publicUrl), verified_at: iso(r.verified_at) } }));
      }
      case 'ranking.published': {
        if (event.changes.length === 0) return [];
        const rows = await sql<(FighterRow & { division_label: string })[]>(
          em,
          `${PARAMS_CTE} select ${fighterColumns()} from p cross join fighter f ${fighterJoins()} where f.id = any(?::uuid[])`,
          [...params, `{${event.changes.map((c) => c.fighterId).join(',')}}`],
        );
        const byId = new Map(rows.filter((r) => !r.f_minor).map((r) => [r.f_id, r]));
        return event.changes
          .filter((c) => byId.has(c.fighterId))
          .map((c) => {
            const row = byId.get(c.fighterId)!;
            return {
              type: event.type,
              data: {
                fighter: presentFighterSummary(row),
                division: presentDivision(row),
                as_of: event.asOf,
                rank: c.rank,
                previous_rank: c.previousRank,
                movement: c.movement,
                points: c.points,
                url: this.fighterUrl(row.f_slug),
              },
            };
          });
      }
      default: {
        // every broadcast event (BroadcastEventType): its data is the broadcast, as its channel's key sees it
        const [row] = await sql<BroadcastRecordRow[]>(
          em,
          `select ${BROADCAST_RECORD_COLUMNS} from broadcast b join channel c on c.id = b.channel_id where b.id = ?`,
          [event.broadcastId],
        );
        return row ? [{ type: event.type, data: { broadcast: presentBroadcast(recordOf(row), this.ingestServerUrl) } }] : [];
      }
    }
  }

  private async context(em: EntityManager): Promise<ReadContext> {
    const today = this.clock.today();
    const [run] = await sql<{ id: string; as_of: string }[]>(em, `select id, as_of::text as as_of from ranking_run order by as_of desc limit 1`);
    return { runId: run?.id ?? null, asOf: run?.as_of ?? today, today, adultCutoff: addYears(today, -18) };
  }

  private fighterUrl(slug: string): string {
    return fighterApiUrl(this.publicUrl, slug);
  }
}
