import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { BROADCAST_STATES, BROADCAST_TITLE_MAX, type BroadcastState, type Source, type Visibility } from '../domain/channels/broadcast.entities';
import { BROADCAST_DECLARATIONS, type BroadcastField, EDITABLE_BROADCAST_FIELDS } from '../domain/channels/broadcast.fields';
import type { Signal } from '../domain/channels/broadcast-health';
import type { BillingState, ChannelScope, Plan, Role } from '../domain/channels/channel.entities';
import type { Permission } from '../domain/channels/channel-access';
import type { Discipline } from '../domain/reference/vocabulary';
import {
  BillingStateEnum,
  BroadcastStateEnum,
  ChannelPermissionEnum,
  ChannelScopeEnum,
  DisciplineEnum,
  PlanEnum,
  RoleEnum,
  SignalEnum,
  SourceEnum,
  VisibilityEnum,
  wireName,
} from './graphql.enums';

@ObjectType({ description: 'A signed-in studio session.' })
export class Session {
  @Field({ description: 'The session token (st_...): send it as "Authorization: Bearer <token>" to /graphql. Shown once.' }) token!: string;
  @Field(() => DateTimeISOResolver, { description: 'When the session ends (12 hours after sign-in).' }) expiresAt!: Date;
}

@ObjectType({ description: "A channel's live slots: how many broadcasts it may have live at once, and how many are." })
export class LiveSlots {
  @Field(() => Int, { description: 'Broadcasts live now.' }) used!: number;
  @Field(() => Int, { description: 'Broadcasts the plan allows live at once (FREE 1, PRO 3, BROADCASTER 10).' }) total!: number;
}

@ObjectType({ description: 'Where an ingest broadcast is pushed to.' })
export class Ingest {
  @Field({ description: 'The media server URL to push the stream to (rtmp://, rtmps:// or srt://).' }) serverUrl!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The stream key: only in the answer that creates the broadcast or switches it to ingest, null afterwards.',
  })
  streamKey!: string | null;
}

@ObjectType({ description: 'Something wrong with a broadcast right now.' })
export class HealthWarning {
  @Field({ description: 'What is wrong: no_signal_while_live, low_bitrate or low_fps.' }) code!: string;
  @Field({ description: 'The same in a sentence, with the figures.' }) message!: string;
}

@ObjectType({ description: "A broadcast's health: its signal and the media server's latest metrics." })
export class BroadcastHealth {
  @Field(() => SignalEnum, { description: 'Whether the video is arriving.' }) signal!: Signal;
  @Field(() => Int, { nullable: true, description: 'Bitrate in kbit/s; null without a fresh report or for an external source.' }) bitrateKbps!: number | null;
  @Field(() => String, { nullable: true, description: 'Resolution, e.g. 1920x1080; null without a fresh report.' }) resolution!: string | null;
  @Field(() => Float, { nullable: true, description: 'Frames per second; null without a fresh report.' }) fps!: number | null;
  @Field(() => Int, { nullable: true, description: 'Viewers now; null without a fresh report.' }) viewers!: number | null;
  @Field(() => [HealthWarning], { description: 'What is wrong right now; empty when all is well.' }) warnings!: HealthWarning[];
  @Field(() => DateTimeISOResolver, { nullable: true, description: "When the media server's latest report arrived; null if none ever did." })
  updatedAt!: Date | null;
}

@ObjectType({ description: "A broadcast of one of the user's channels, as the TV API's channel endpoints show it." })
export class Broadcast {
  @Field(() => ID, { description: 'The broadcast id (a uuid), as in /api/tv/broadcasts/{id}.' }) id!: string;
  @Field({ description: 'The public slug, as in /api/tv/broadcasts/{slug}.' }) slug!: string;
  @Field({ description: "The slug of the broadcast's channel." }) channelSlug!: string;
  @Field({ description: `The title, 1 to ${BROADCAST_TITLE_MAX} characters.` }) title!: string;
  @Field(() => SourceEnum, { description: 'Where the video comes from.' }) source!: Source;
  @Field(() => String, { nullable: true, description: 'The video URL; null for an ingest broadcast.' }) sourceUrl!: string | null;
  @Field(() => DateTimeISOResolver, { description: 'When it is to start.' }) scheduledAt!: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it went live.' }) startedAt!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it ended.' }) endedAt!: Date | null;
  @Field(() => BroadcastStateEnum, { description: 'Where it is in its life.' }) state!: BroadcastState;
  @Field(() => VisibilityEnum, { description: 'Who may watch it.' }) visibility!: Visibility;
  @Field(() => DisciplineEnum, { nullable: true, description: 'The discipline shown, if any.' }) discipline!: Discipline | null;
  @Field({ description: 'The commentary language, ISO 639-1 (e.g. en).' }) language!: string;
  @Field(() => [String], { description: 'Up to 10 tags of a-z, 0-9 and -.' }) tags!: string[];
  @Field(() => String, { nullable: true, description: 'The replay URL once the replay is ready.' }) replayUrl!: string | null;
  @Field(() => Ingest, { nullable: true, description: 'Where to push the stream: ingest broadcasts only.' }) ingest!: Ingest | null;
}

@ObjectType({ description: 'Where a page of a connection lies in the whole list (the Relay PageInfo).' })
export class PageInfo {
  @Field({ description: 'Whether items follow this page (forward: more after endCursor; backward: items after `before`).' }) hasNextPage!: boolean;
  @Field({ description: 'Whether items precede this page (backward: more before startCursor; forward: items up to `after`).' }) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: "The first edge's cursor: pass it as `before` for the previous page; null when the page is empty." })
  startCursor!: string | null;
  @Field(() => String, { nullable: true, description: "The last edge's cursor: pass it as `after` for the next page; null when the page is empty." })
  endCursor!: string | null;
}

@ObjectType({ description: 'A broadcast in a connection, with its cursor.' })
export class BroadcastEdge {
  @Field({ description: 'Where this broadcast stands in the list: pass it as `after` or `before`.' }) cursor!: string;
  @Field(() => Broadcast, { description: 'The broadcast.' }) node!: Broadcast;
}

@ObjectType({ description: "A page of a channel's broadcasts, newest scheduled first (a Relay connection)." })
export class BroadcastConnection {
  @Field(() => [BroadcastEdge], { description: 'The broadcasts of this page, in list order.' }) edges!: BroadcastEdge[];
  @Field(() => PageInfo, { description: 'Where this page lies in the list.' }) pageInfo!: PageInfo;
}

@ObjectType({ description: 'A channel API key for /api/tv; the key itself is shown only when it is created.' })
export class ChannelApiKey {
  @Field(() => ID, { description: 'The key id (a uuid), to revoke it.' }) id!: string;
  @Field({ description: 'The name given at creation.' }) name!: string;
  @Field({ description: 'The first characters of the key, to recognise it.' }) prefix!: string;
  @Field(() => [ChannelScopeEnum], { description: 'What the key may do.' }) scopes!: ChannelScope[];
  @Field(() => DateTimeISOResolver, { description: 'When it was created.' }) createdAt!: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was revoked; null while it works.' }) revokedAt!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was last used on /api/tv.' }) lastUsedAt!: Date | null;
}

@ObjectType({ description: 'A new channel API key, with the key shown this once.' })
export class CreatedChannelApiKey {
  @Field(() => ChannelApiKey, { description: 'The key as it will be listed.' }) key!: ChannelApiKey;
  @Field({ description: 'The key itself (ck_...), shown this once.' }) secret!: string;
}

@ObjectType({ description: 'A channel the signed-in user holds a role on.' })
export class StudioChannel {
  @Field(() => ID, { description: 'The channel id (a uuid).' }) id!: string;
  @Field({ description: 'The channel slug, as in /api/tv/channels/{slug}.' }) slug!: string;
  @Field({ description: 'The channel name.' }) name!: string;
  @Field(() => PlanEnum, { description: 'The plan: live slots and sources allowed.' }) plan!: Plan;
  @Field(() => BillingStateEnum, { description: 'The billing state: going live needs ACTIVE or TRIALING.' }) billingState!: BillingState;
  @Field({ description: 'Whether the operator approved the channel (an unapproved one is never listed publicly).' }) approved!: boolean;
  @Field(() => RoleEnum, { description: "The signed-in user's role on this channel." }) role!: Role;
  @Field(() => [ChannelPermissionEnum], { description: 'What that role may do here: a client shows only the controls these allow.' })
  permissions!: readonly Permission[];
}

@ObjectType({ description: 'The signed-in studio user.' })
export class Viewer {
  @Field(() => ID, { description: 'The user id (a uuid).' }) id!: string;
  @Field({ description: 'The email the user signs in with.' }) email!: string;
}

/** The studio writes a value of the domain's lists as its GraphQL enum value: `INGEST`. */
const gqlWords = (value: string) => `\`${wireName(value)}\``;
const STATES_EDITING = (field: BroadcastField) => BROADCAST_STATES.filter((s) => EDITABLE_BROADCAST_FIELDS[s].includes(field));

/**
 * A broadcast input field's description, from the domain's declaration (broadcast.fields.ts) with
 * its error code; for a change, the states in which it may change when not all.
 */
function about(field: BroadcastField, mode: 'create' | 'update'): string {
  const { describe, name } = BROADCAST_DECLARATIONS[field];
  const states = STATES_EDITING(field);
  const when = mode === 'update' && states.length < BROADCAST_STATES.length ? ` Changes only while ${states.map(gqlWords).join(' or ')}.` : '';
  return `${describe(gqlWords)}${when} Refused with \`invalid_${name}\`.`;
}

@InputType({ description: 'A new broadcast: the TV API creation fields; errors carry the same codes in extensions.code.' })
export class BroadcastInput {
  @Field({ description: about('title', 'create') }) title!: string;
  @Field(() => SourceEnum, { description: about('source', 'create') }) source!: Source;
  @Field(() => String, { nullable: true, description: about('sourceUrl', 'create') }) sourceUrl?: string | null;
  @Field({ description: about('scheduledAt', 'create') }) scheduledAt!: string;
  @Field(() => VisibilityEnum, { nullable: true, description: about('visibility', 'create') }) visibility?: Visibility;
  @Field(() => DisciplineEnum, { nullable: true, description: about('discipline', 'create') }) discipline?: Discipline | null;
  @Field({ nullable: true, description: about('language', 'create') }) language?: string;
  @Field(() => [String], { nullable: true, description: about('tags', 'create') }) tags?: string[];
}

@InputType({
  description:
    'A change to a broadcast: the fields given change (the tags given replace the current ones; a null discipline clears it), ' +
    'the others stay. Which fields may change depends on the state (invalid_state).',
})
export class BroadcastPatch {
  @Field({ nullable: true, description: about('title', 'update') }) title?: string;
  @Field(() => SourceEnum, { nullable: true, description: about('source', 'update') }) source?: Source;
  @Field(() => String, { nullable: true, description: about('sourceUrl', 'update') }) sourceUrl?: string | null;
  @Field({ nullable: true, description: about('scheduledAt', 'update') }) scheduledAt?: string;
  @Field(() => VisibilityEnum, { nullable: true, description: about('visibility', 'update') }) visibility?: Visibility;
  @Field(() => DisciplineEnum, { nullable: true, description: about('discipline', 'update') }) discipline?: Discipline | null;
  @Field({ nullable: true, description: about('language', 'update') }) language?: string;
  @Field(() => [String], { nullable: true, description: about('tags', 'update') }) tags?: string[];
}
