import type { Discipline } from '../reference/vocabulary';
import type { BroadcastRecord, BroadcastState, Source, Visibility } from './broadcast.entities';

export type { BroadcastRecord } from './broadcast.entities';

/**
 * The one read shape of a broadcast (BroadcastRecord, broadcast.entities.ts) from SQL: a read
 * that bypasses the ORM selects these columns (`b` the broadcast, `c` its channel) and hands the
 * row to `recordOf`; a loaded entity is a record already. The doors and the webhooks map the
 * record, never the row (the TV view and the channel events: broadcast.view.ts; the studio:
 * graphql/broadcast.mapper.ts).
 */
export const BROADCAST_RECORD_COLUMNS = `b.id, b.slug, b.title, b.source, b.source_url, b.scheduled_at, b.started_at, b.ended_at, b.state, b.visibility,
  b.discipline, b.language, b.tags, b.replay_url, b.created_at, b.updated_at, c.slug as channel_slug, c.name as channel_name`;

/** A row of BROADCAST_RECORD_COLUMNS, as the driver returns it. */
export interface BroadcastRecordRow {
  id: string;
  slug: string;
  title: string;
  source: Source;
  source_url: string | null;
  scheduled_at: Date | string;
  started_at: Date | string | null;
  ended_at: Date | string | null;
  state: BroadcastState;
  visibility: Visibility;
  discipline: Discipline | null;
  language: string;
  tags: string[];
  replay_url: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  channel_slug: string;
  channel_name: string;
}

const at = (v: Date | string): Date => new Date(v);
const atOrNull = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

export function recordOf(r: BroadcastRecordRow): BroadcastRecord {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    source: r.source,
    sourceUrl: r.source_url,
    scheduledAt: at(r.scheduled_at),
    startedAt: atOrNull(r.started_at),
    endedAt: atOrNull(r.ended_at),
    state: r.state,
    visibility: r.visibility,
    discipline: r.discipline,
    language: r.language,
    tags: r.tags,
    replayUrl: r.replay_url,
    createdAt: at(r.created_at),
    updatedAt: at(r.updated_at),
    channel: { slug: r.channel_slug, name: r.channel_name },
  };
}
