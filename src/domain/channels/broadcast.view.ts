import type { BroadcastRow } from './broadcast.row';

export { BROADCAST_COLUMNS, rowOf, type BroadcastRow } from './broadcast.row';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function common(r: BroadcastRow) {
  return {
    id: r.id,
    slug: r.slug,
    channel: { slug: r.channel_slug, name: r.channel_name },
    title: r.title,
    source: r.source,
    source_url: r.source_url,
    scheduled_at: iso(r.scheduled_at),
    started_at: iso(r.started_at),
    ended_at: iso(r.ended_at),
    state: r.state,
    visibility: r.visibility,
    discipline: r.discipline,
    language: r.language,
    tags: r.tags,
    replay_url: r.replay_url,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/**
 * For the channel's own key (and the studio): an ingest broadcast shows its server URL, and its
 * stream key only in the one answer that creates or rotates it (D5.4).
 */
export function presentBroadcast(r: BroadcastRow, ingestServerUrl: string, streamKey?: string) {
  const out: Record<string, unknown> = common(r);
  if (r.source === 'ingest') out.ingest = streamKey ? { server_url: ingestServerUrl, stream_key: streamKey } : { server_url: ingestServerUrl };
  return out;
}

/** For anyone: followers-only and pay-per-view are locked and hide their source (D5.8). */
export function presentPublicBroadcast(r: BroadcastRow) {
  const locked = r.visibility === 'followers' || r.visibility === 'ppv';
  return { ...common(r), source_url: locked ? null : r.source_url, replay_url: locked ? null : r.replay_url, locked };
}
