import type { BroadcastRow } from '../domain/channels/broadcast.row';
import type { Broadcast, BroadcastInput, BroadcastPatch, BroadcastStateEnum, SourceEnum, VisibilityEnum } from './graphql.types';
import { isUuid } from '../domain/ids';
import type { Source, Visibility } from '../domain/channels/broadcast.entities';
import type { BroadcastInput as DomainBroadcastInput, BroadcastPatch as DomainBroadcastPatch } from '../domain/channels/broadcast.input';
import type { Discipline } from '../domain/reference/vocabulary';
import { readIsoTime } from '../http/iso-time';

export function toGqlBroadcast(r: BroadcastRow, ingestServerUrl: string, streamKey?: string): Broadcast {
  return {
    id: r.id, slug: r.slug, channelSlug: r.channel_slug, title: r.title, source: r.source as SourceEnum, sourceUrl: r.source_url,
    scheduledAt: new Date(r.scheduled_at), startedAt: r.started_at && new Date(r.started_at), endedAt: r.ended_at && new Date(r.ended_at),
    state: r.state as BroadcastStateEnum, visibility: r.visibility as VisibilityEnum, discipline: r.discipline, language: r.language,
    tags: r.tags, replayUrl: r.replay_url,
    ingest: r.source === 'ingest' ? { serverUrl: ingestServerUrl, streamKey: streamKey ?? null } : null,
  };
}

/**
 * The studio's input as the domain's typed input, field for field. GraphQL has checked the types;
 * the domain judges the values (a null where a value is needed included) after the access check,
 * with the TV API's codes. An unreadable time becomes an invalid Date, refused there in its turn.
 */
export function toBroadcastInput(input: BroadcastInput): DomainBroadcastInput {
  return toBroadcastPatch(input) as DomainBroadcastInput;
}

/** A change: the fields given (an omitted field is undefined, not null). */
export function toBroadcastPatch(input: BroadcastInput | BroadcastPatch): DomainBroadcastPatch {
  return {
    title: input.title,
    source: input.source as Source | undefined,
    sourceUrl: input.sourceUrl,
    scheduledAt: input.scheduledAt === undefined ? undefined : readIsoTime(input.scheduledAt),
    visibility: input.visibility as Visibility | undefined,
    discipline: input.discipline as Discipline | null | undefined,
    language: input.language,
    tags: input.tags,
  };
}

export function encodeCursor(r: BroadcastRow): string {
  return Buffer.from(`${new Date(r.scheduled_at).toISOString()}|${r.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { scheduledAt: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const scheduledAt = new Date(at ?? '');
  return Number.isNaN(scheduledAt.getTime()) || !isUuid(id ?? '') ? null : { scheduledAt, id };
}
