import type { BroadcastRecord } from '../domain/channels/broadcast.entities';
import type { BroadcastInput as DomainBroadcastInput, BroadcastPatch as DomainBroadcastPatch } from '../domain/channels/broadcast.input';
import { readIsoTime } from '../http/iso-time';
import type { Broadcast, BroadcastInput, BroadcastPatch } from './graphql.types';

/**
 * The domain's broadcast as the studio's GraphQL object, field for field: the one mapping of this
 * door (the TV API's snake_case view is another door's). Enum fields keep the domain's values; the
 * GraphQL enums show them in upper case.
 */
export function toGqlBroadcast(b: BroadcastRecord, ingestServerUrl: string, streamKey?: string): Broadcast {
  return {
    id: b.id,
    slug: b.slug,
    channelSlug: b.channel.slug,
    title: b.title,
    source: b.source,
    sourceUrl: b.sourceUrl,
    scheduledAt: b.scheduledAt,
    startedAt: b.startedAt,
    endedAt: b.endedAt,
    state: b.state,
    visibility: b.visibility,
    discipline: b.discipline,
    language: b.language,
    tags: b.tags,
    replayUrl: b.replayUrl,
    ingest: b.source === 'ingest' ? { serverUrl: ingestServerUrl, streamKey: streamKey ?? null } : null,
  };
}

/**
 * The studio's input as the domain's typed input, field for field. GraphQL has checked the types
 * (and turned enum names into the domain's values); the domain judges the values (a null where a
 * value is needed included) after the access check, with the TV API's codes. An unreadable time
 * becomes an invalid Date, refused there in its turn.
 */
export function toBroadcastInput(input: BroadcastInput): DomainBroadcastInput {
  return toBroadcastPatch(input) as DomainBroadcastInput;
}

/** A change: the fields given (an omitted field is undefined, not null). */
export function toBroadcastPatch(input: BroadcastInput | BroadcastPatch): DomainBroadcastPatch {
  return {
    title: input.title,
    source: input.source,
    sourceUrl: input.sourceUrl,
    scheduledAt: input.scheduledAt === undefined ? undefined : readIsoTime(input.scheduledAt),
    visibility: input.visibility,
    discipline: input.discipline,
    language: input.language,
    tags: input.tags,
  };
}
