import type { BroadcastRow } from '../domain/channels/broadcast.row';
import type { Broadcast, BroadcastInput, BroadcastPatch, BroadcastStateEnum, SourceEnum, VisibilityEnum } from './graphql.types';
import { isUuid } from '../domain/ids';

export function toGqlBroadcast(r: BroadcastRow, ingestServerUrl: string, streamKey?: string): Broadcast {
  return {
    id: r.id, slug: r.slug, channelSlug: r.channel_slug, title: r.title, source: r.source as SourceEnum, sourceUrl: r.source_url,
    scheduledAt: new Date(r.scheduled_at), startedAt: r.started_at && new Date(r.started_at), endedAt: r.ended_at && new Date(r.ended_at),
    state: r.state as BroadcastStateEnum, visibility: r.visibility as VisibilityEnum, discipline: r.discipline, language: r.language,
    tags: r.tags, replayUrl: r.replay_url,
    ingest: r.source === 'ingest' ? { serverUrl: ingestServerUrl, streamKey: streamKey ?? null } : null,
  };
}

/** The studio's fields in the TV API's shape, so both doors share one validation and its codes. */
export function toTvBody(input: BroadcastInput | BroadcastPatch): Record<string, unknown> {
  const map: Record<string, string> = { title: 'title', source: 'source', sourceUrl: 'source_url', scheduledAt: 'scheduled_at', visibility: 'visibility', discipline: 'discipline', language: 'language', tags: 'tags' };
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(map)) {
    const v = (input as Record<string, unknown>)[from];
    if (v !== undefined) out[to] = v;
  }
  return out;
}

export function encodeCursor(r: BroadcastRow): string {
  return Buffer.from(`${new Date(r.scheduled_at).toISOString()}|${r.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { scheduledAt: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const scheduledAt = new Date(at ?? '');
  return Number.isNaN(scheduledAt.getTime()) || !isUuid(id ?? '') ? null : { scheduledAt, id };
}
