import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType, Float } from 'type-graphql';

export enum BroadcastStateEnum { scheduled = 'scheduled', live = 'live', ended = 'ended', replay = 'replay' }
export enum SourceEnum { youtube = 'youtube', vimeo = 'vimeo', hls = 'hls', mp4 = 'mp4', ingest = 'ingest' }
export enum VisibilityEnum { public = 'public', unlisted = 'unlisted', followers = 'followers', ppv = 'ppv' }
export enum RoleEnum { owner = 'owner', manager = 'manager', editor = 'editor', viewer = 'viewer' }
export enum ChannelScopeEnum { read = 'read', broadcasts_write = 'broadcasts:write' }
registerEnumType(BroadcastStateEnum, { name: 'BroadcastState', description: 'scheduled -> live -> ended -> replay' });
registerEnumType(SourceEnum, { name: 'BroadcastSource' });
registerEnumType(VisibilityEnum, { name: 'Visibility' });
registerEnumType(RoleEnum, { name: 'Role', description: 'owner and manager manage keys, webhooks and broadcasts; editor manages broadcasts; viewer reads' });
registerEnumType(ChannelScopeEnum, { name: 'ChannelScope', valuesConfig: { broadcasts_write: { description: 'broadcasts:write' } } });

@ObjectType()
export class Session {
  @Field({ description: 'The session token (st_...): send it as "Authorization: Bearer <token>" to /graphql. Shown once.' }) token!: string;
  @Field(() => DateTimeISOResolver) expiresAt!: Date;
}

@ObjectType()
export class LiveSlots {
  @Field(() => Int) used!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class Ingest {
  @Field() serverUrl!: string;
  @Field(() => String, { nullable: true, description: 'Only in the answer that creates or rotates it.' }) streamKey!: string | null;
}

@ObjectType()
export class HealthWarning {
  @Field() code!: string;
  @Field() message!: string;
}

@ObjectType()
export class BroadcastHealth {
  @Field({ description: 'receiving, no_signal, or external (a non-ingest source)' }) signal!: string;
  @Field(() => Int, { nullable: true }) bitrateKbps!: number | null;
  @Field(() => String, { nullable: true }) resolution!: string | null;
  @Field(() => Float, { nullable: true }) fps!: number | null;
  @Field(() => Int, { nullable: true }) viewers!: number | null;
  @Field(() => [HealthWarning]) warnings!: HealthWarning[];
  @Field(() => DateTimeISOResolver, { nullable: true }) updatedAt!: Date | null;
}

@ObjectType()
export class Broadcast {
  @Field(() => ID) id!: string;
  @Field() slug!: string;
  @Field() channelSlug!: string;
  @Field() title!: string;
  @Field(() => SourceEnum) source!: SourceEnum;
  @Field(() => String, { nullable: true }) sourceUrl!: string | null;
  @Field(() => DateTimeISOResolver) scheduledAt!: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) startedAt!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) endedAt!: Date | null;
  @Field(() => BroadcastStateEnum) state!: BroadcastStateEnum;
  @Field(() => VisibilityEnum) visibility!: VisibilityEnum;
  @Field(() => String, { nullable: true }) discipline!: string | null;
  @Field() language!: string;
  @Field(() => [String]) tags!: string[];
  @Field(() => String, { nullable: true }) replayUrl!: string | null;
  @Field(() => Ingest, { nullable: true }) ingest!: Ingest | null;
}

@ObjectType()
export class PageInfo {
  @Field() hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ObjectType()
export class BroadcastEdge {
  @Field() cursor!: string;
  @Field(() => Broadcast) node!: Broadcast;
}

@ObjectType()
export class BroadcastConnection {
  @Field(() => [BroadcastEdge]) edges!: BroadcastEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType()
export class ChannelApiKey {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'The first characters of the key, to recognise it.' }) prefix!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => DateTimeISOResolver) createdAt!: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) revokedAt!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) lastUsedAt!: Date | null;
}

@ObjectType()
export class CreatedChannelApiKey {
  @Field(() => ChannelApiKey) key!: ChannelApiKey;
  @Field({ description: 'The key itself (ck_...), shown this once.' }) secret!: string;
}

@ObjectType({ description: 'A channel the signed-in user holds a role on.' })
export class StudioChannel {
  @Field(() => ID) id!: string;
  @Field() slug!: string;
  @Field() name!: string;
  @Field() plan!: string;
  @Field() billingState!: string;
  @Field() approved!: boolean;
  @Field(() => RoleEnum) role!: RoleEnum;
}

@ObjectType()
export class Viewer {
  @Field(() => ID) id!: string;
  @Field() email!: string;
}

@InputType({ description: 'The TV API creation fields; errors carry the same codes in extensions.code.' })
export class BroadcastInput {
  @Field() title!: string;
  @Field(() => SourceEnum) source!: SourceEnum;
  @Field(() => String, { nullable: true }) sourceUrl?: string | null;
  @Field({ description: 'ISO 8601 with an offset' }) scheduledAt!: string;
  @Field(() => VisibilityEnum, { nullable: true }) visibility?: VisibilityEnum;
  @Field(() => String, { nullable: true }) discipline?: string | null;
  @Field({ nullable: true }) language?: string;
  @Field(() => [String], { nullable: true }) tags?: string[];
}

@InputType()
export class BroadcastPatch {
  @Field({ nullable: true }) title?: string;
  @Field(() => SourceEnum, { nullable: true }) source?: SourceEnum;
  @Field(() => String, { nullable: true }) sourceUrl?: string | null;
  @Field({ nullable: true }) scheduledAt?: string;
  @Field(() => VisibilityEnum, { nullable: true }) visibility?: VisibilityEnum;
  @Field(() => String, { nullable: true }) discipline?: string | null;
  @Field({ nullable: true }) language?: string;
  @Field(() => [String], { nullable: true }) tags?: string[];
}
