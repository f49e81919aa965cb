import type { BroadcastRecord } from './broadcast.record';
import type { BroadcastBody, PublicBroadcastBody } from './broadcast.schemas';

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The TV API's snake_case view of the domain's broadcast (BroadcastRecord: a loaded entity, or a
 * row read by SQL through `recordOf`), the one mapping of that shape: the TV answers and the
 * channel events' payloads (webhooks) both send it. Typed by the broadcast schema
 * (broadcast.schemas.ts, from which the TV OpenAPI document is generated): a field the document
 * lacks does not compile, and a field added to the record reaches the view only through here.
 */
function common(r: BroadcastRecord): Omit<BroadcastBody, 'ingest'> {
  return {
    id: r.id,
    slug: r.slug,
    channel: { slug: r.channel.slug, name: r.channel.name },
    title: r.title,
    source: r.source,
    source_url: r.sourceUrl,
    scheduled_at: r.scheduledAt.toISOString(),
    started_at: isoOrNull(r.startedAt),
    ended_at: isoOrNull(r.endedAt),
    state: r.state,
    visibility: r.visibility,
    discipline: r.discipline,
    language: r.language,
    tags: r.tags,
    replay_url: r.replayUrl,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/**
 * For the channel's own key (and the studio): an ingest broadcast shows its server URL, and its
 * stream key only in the one answer that creates or rotates it (docs/decisions.md).
 */
export function presentBroadcast(r: BroadcastRecord, ingestServerUrl: string, streamKey?: string): BroadcastBody {
  const out: BroadcastBody = common(r);
  if (r.source === 'ingest') out.ingest = streamKey ? { server_url: ingestServerUrl, stream_key: streamKey } : { server_url: ingestServerUrl };
  return out;
}

/** For anyone: followers-only and pay-per-view are locked and hide their source (docs/decisions.md). */
export function presentPublicBroadcast(r: BroadcastRecord): PublicBroadcastBody {
  const locked = r.visibility === 'followers' || r.visibility === 'ppv';
  return { ...common(r), source_url: locked ? null : r.sourceUrl, replay_url: locked ? null : r.replayUrl, locked };
}
