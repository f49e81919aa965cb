import type { Broadcast } from './broadcast.entities';

/** A broadcast as read by SQL or loaded as an entity: what the presenters need. */
export interface BroadcastRow {
  id: string;
  slug: string;
  channel_slug: string;
  channel_name: string;
  title: string;
  source: string;
  source_url: string | null;
  scheduled_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  state: string;
  visibility: string;
  discipline: string | null;
  language: string;
  tags: string[];
  replay_url: string | null;
  created_at: Date;
  updated_at: Date;
}

export const BROADCAST_COLUMNS = `b.id, b.slug, c.slug as channel_slug, c.name as channel_name, b.title, b.source, b.source_url,
  b.scheduled_at, b.started_at, b.ended_at, b.state, b.visibility, b.discipline, b.language, b.tags, b.replay_url,
  b.created_at, b.updated_at`;

export function rowOf(b: Broadcast): BroadcastRow {
  return {
    id: b.id, slug: b.slug, channel_slug: b.channel.slug, channel_name: b.channel.name, title: b.title, source: b.source,
    source_url: b.sourceUrl, scheduled_at: b.scheduledAt, started_at: b.startedAt, ended_at: b.endedAt, state: b.state,
    visibility: b.visibility, discipline: b.discipline, language: b.language, tags: b.tags, replay_url: b.replayUrl,
    created_at: b.createdAt, updated_at: b.updatedAt,
  };
}
