import type { BroadcastRow } from './broadcast.row';
import type { BroadcastBody, PublicBroadcastBody } from './broadcast.schemas';

export { BROADCAST_COLUMNS, rowOf, type BroadcastRow } from './broadcast.row';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/**
 * The fields every broadcast answer has, typed by the broadcast schema (broadcast.schemas.ts, from
 * which the TV OpenAPI document is generated): a field the document lacks does not compile. The
 * row's vocabularies are strings the database constrains, narrowed here to the schema's literals.
 */
function common(r: BroadcastRow): Omit<BroadcastBody, 'ingest'> {
  return {
    id: r.id,
    slug: r.slug,
    channel: { slug: r.channel_slug, name: r.channel_name },
    title: r.title,
    source: r.source as BroadcastBody['source'],
    source_url: r.source_url,
    scheduled_at: iso(r.scheduled_at),
    started_at: isoOrNull(r.started_at),
    ended_at: isoOrNull(r.ended_at),
    state: r.state as BroadcastBody['state'],
    visibility: r.visibility as BroadcastBody['visibility'],
    discipline: r.discipline as BroadcastBody['discipline'],
    language: r.language,
    tags: r.tags,
    replay_url: r.replay_url,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/**
 * For the channel's own key (and the studio): an ingest broadcast shows its server URL, and its
 * stream key only in the one answer that creates or rotates it (docs/decisions.md).
 */
export function presentBroadcast(r: BroadcastRow, ingestServerUrl: string, streamKey?: string): BroadcastBody {
  const out: BroadcastBody = common(r);
  if (r.source === 'ingest') out.ingest = streamKey ? { server_url: ingestServerUrl, stream_key: streamKey } : { server_url: ingestServerUrl };
  return out;
}

/** For anyone: followers-only and pay-per-view are locked and hide their source (docs/decisions.md). */
export function presentPublicBroadcast(r: BroadcastRow): PublicBroadcastBody {
  const locked = r.visibility === 'followers' || r.visibility === 'ppv';
  return { ...common(r), source_url: locked ? null : r.source_url, replay_url: locked ? null : r.replay_url, locked };
}
