import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { computeHealth, healthHoldsUntil } from '../domain/channels/broadcast-health';
import { LIVE_SLOTS } from '../domain/channels/channel.entities';
import { permissionsOf } from '../domain/channels/channel-access';
import { notFound } from '../domain/errors';
import { GraphQLError } from 'graphql';
import { DomainError } from '../domain/errors';
import { TooManyAuthFailures } from '../http/authenticate';
import type { BroadcastState } from '../domain/channels/broadcast.entities';
import type { ChannelScope } from '../domain/channels/channel.entities';
import { broadcastConnection } from './broadcast.connection';
import { toBroadcastInput, toBroadcastPatch, toGqlBroadcast } from './broadcast.mapper';
import { StudioAnswerCache } from './answer-cache';
import { signedIn, type GqlContext } from './context';
import { BroadcastStateEnum, ChannelScopeEnum } from './graphql.enums';
import {
  Broadcast,
  BroadcastConnection,
  BroadcastHealth,
  BroadcastInput,
  BroadcastPatch,
  ChannelApiKey,
  CreatedChannelApiKey,
  LiveSlots,
  Session,
  StudioChannel,
  Viewer,
} from './graphql.types';
import type { StudioChannelRow as ChannelRow } from '../domain/channels/studio.queries';

async function channelsOf(ctx: GqlContext, ids: string[]): Promise<ChannelRow[]> {
  return ctx.services.studio.channelsByIds(ids);
}

function toChannel(ctx: GqlContext, r: ChannelRow): StudioChannel {
  const role = signedIn(ctx).roles.get(r.id)!;
  return { id: r.id, slug: r.slug, name: r.name, plan: r.plan, billingState: r.billing_state, approved: r.approved, role, permissions: permissionsOf(role) };
}

@Resolver(() => Viewer)
export class ViewerResolver {
  @Query(() => Viewer, { description: 'The signed-in studio user.' })
  viewer(@Ctx() ctx: GqlContext): Viewer {
    const p = signedIn(ctx);
    return { id: p.userId, email: p.email };
  }

  @FieldResolver(() => [StudioChannel], { description: 'The channels this user holds a role on.' })
  async channels(@Ctx() ctx: GqlContext): Promise<StudioChannel[]> {
    return (await channelsOf(ctx, [...signedIn(ctx).roles.keys()])).map((r) => toChannel(ctx, r));
  }

  @Mutation(() => Session, { description: 'Signs in; the token is valid 12 hours.' })
  async login(
    @Arg('email', { description: 'The email the user signs in with.' }) email: string,
    @Arg('password', { description: 'The password.' }) password: string,
    @Ctx() ctx: GqlContext,
  ): Promise<Session> {
    // a wrong email or password is a failed authentication; past the client's budget: HTTP 429
    const s = await ctx.authFailures
      .attempt(
        ctx.clientIp,
        () => ctx.services.studioAuth.login(email, password),
        (err) => err instanceof DomainError && err.code === 'invalid_credentials',
      )
      .catch(asHttp429);
    return { token: s.token, expiresAt: s.expiresAt };
  }

  @Mutation(() => Boolean, { description: 'Ends this session.' })
  async logout(@Ctx() ctx: GqlContext): Promise<boolean> {
    await ctx.services.studioAuth.logout(signedIn(ctx).sessionId);
    return true;
  }
}

@Resolver(() => StudioChannel)
export class ChannelResolver {
  @Query(() => StudioChannel, { description: 'One channel the user holds a role on; any other slug is not_found.' })
  async channel(@Arg('slug', { description: 'The channel slug.' }) slug: string, @Ctx() ctx: GqlContext): Promise<StudioChannel> {
    return toChannel(ctx, await ctx.services.studio.channelFor(signedIn(ctx), slug, 'read'));
  }

  @FieldResolver(() => LiveSlots, { description: 'How many broadcasts the channel may have live at once, and how many are.' })
  async liveSlots(@Root() channel: StudioChannel, @Ctx() ctx: GqlContext): Promise<LiveSlots> {
    return { used: await ctx.loaders.liveSlotsUsed.load(channel.id), total: LIVE_SLOTS[channel.plan] };
  }

  @FieldResolver(() => BroadcastConnection, {
    description: "The channel's broadcasts, newest scheduled first: `first` (1 to 100, default 20) after `after`, or `last` before `before`.",
  })
  async broadcasts(
    @Root() channel: StudioChannel,
    @Ctx() ctx: GqlContext,
    @Arg('state', () => BroadcastStateEnum, { nullable: true, description: 'Only broadcasts in this state.' }) state?: BroadcastState | null,
    @Arg('first', () => Int, { nullable: true, description: 'Page forward: this many broadcasts (1 to 100); 20 when neither first nor last is given.' }) first?:
      | number
      | null,
    @Arg('after', () => String, { nullable: true, description: 'Page forward: the broadcasts after this cursor (an endCursor).' }) after?: string | null,
    @Arg('last', () => Int, { nullable: true, description: 'Page backward: this many broadcasts (1 to 100), the last ones before `before`.' }) last?:
      | number
      | null,
    @Arg('before', () => String, { nullable: true, description: 'Page backward: the broadcasts before this cursor (a startCursor).' }) before?: string | null,
  ): Promise<BroadcastConnection> {
    return broadcastConnection(ctx.services.studio, channel.id, state ?? undefined, { first, after, last, before }, ctx.ingestServerUrl);
  }

  @FieldResolver(() => Broadcast, { description: 'One broadcast of this channel; an id of another channel is not_found.' })
  async broadcast(
    @Root() channel: StudioChannel,
    @Arg('id', () => ID, { description: 'The broadcast id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<Broadcast> {
    const b = await ctx.services.broadcasts.get(signedIn(ctx), id);
    if (b.channel.id !== channel.id) throw notFound('broadcast');
    return toGqlBroadcast(b, ctx.ingestServerUrl);
  }

  @FieldResolver(() => [ChannelApiKey], {
    nullable: true,
    description:
      "The channel's API keys, revoked ones included. Owners and managers only: null with a forbidden error for other roles, so one channel does not fail a whole dashboard.",
  })
  async apiKeys(@Root() channel: StudioChannel, @Ctx() ctx: GqlContext): Promise<ChannelApiKey[]> {
    signedIn(ctx);
    return ctx.loaders.apiKeys.load(channel.id);
  }

  @Mutation(() => CreatedChannelApiKey, { description: 'A key for /api/tv, shown once. Owners and managers.' })
  async createChannelApiKey(
    @Arg('channel', { description: 'The channel slug.' }) slug: string,
    @Arg('name', { description: 'A name to recognise the key by, 1 to 100 characters.' }) name: string,
    @Arg('scopes', () => [ChannelScopeEnum], { description: 'What the key may do.' }) scopes: ChannelScope[],
    @Ctx() ctx: GqlContext,
  ): Promise<CreatedChannelApiKey> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'keys');
    const { key, token } = await ctx.services.channels.createKey(p, { channelId: channel.id, name, scopes });
    return {
      secret: token,
      key: { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, createdAt: key.createdAt, revokedAt: null, lastUsedAt: null },
    };
  }

  @Mutation(() => ChannelApiKey, { description: 'Revokes a key: it stops working on /api/tv at once. Owners and managers.' })
  async revokeChannelApiKey(
    @Arg('channel', { description: 'The channel slug.' }) slug: string,
    @Arg('id', () => ID, { description: 'The key id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<ChannelApiKey> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'keys');
    const key = await ctx.services.channels.revokeKey(p, channel.id, id);
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: key.scopes,
      createdAt: key.createdAt,
      revokedAt: key.revokedAt,
      lastUsedAt: key.lastUsedAt,
    };
  }
}

@Resolver(() => Broadcast)
export class BroadcastResolver {
  @FieldResolver(() => BroadcastHealth, { description: 'Its signal, metrics and warnings now (ingest metrics come from the media server).' })
  async health(@Root() b: Broadcast, @Ctx() ctx: GqlContext): Promise<BroadcastHealth> {
    const telemetry = await ctx.loaders.telemetry.load(b.id);
    const now = ctx.clock.now();
    const h = computeHealth(b, telemetry, now);
    StudioAnswerCache.holdUntil(ctx.answer, healthHoldsUntil(b, telemetry, now));
    return {
      signal: h.signal,
      bitrateKbps: h.bitrate_kbps,
      resolution: h.resolution,
      fps: h.fps,
      viewers: h.viewers,
      warnings: h.warnings,
      updatedAt: h.updated_at ? new Date(h.updated_at) : null,
    };
  }

  @Mutation(() => Broadcast, { description: 'Creates a broadcast (the TV API rules and error codes); an ingest one shows its stream key once.' })
  async createBroadcast(
    @Arg('channel', { description: 'The channel slug.' }) slug: string,
    @Arg('input', { description: 'The broadcast.' }) input: BroadcastInput,
    @Ctx() ctx: GqlContext,
  ): Promise<Broadcast> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'broadcasts');
    const r = await ctx.services.broadcasts.create(p, channel.id, toBroadcastInput(input));
    return toGqlBroadcast(r.broadcast, ctx.ingestServerUrl, r.streamKey);
  }

  @Mutation(() => Broadcast, {
    description: 'Changes a broadcast (the TV API rules: what may change depends on its state); switching to INGEST shows the new stream key once.',
  })
  async updateBroadcast(
    @Arg('id', () => ID, { description: 'The broadcast id.' }) id: string,
    @Arg('input', { description: 'The fields to change.' }) input: BroadcastPatch,
    @Ctx() ctx: GqlContext,
  ): Promise<Broadcast> {
    const r = await ctx.services.broadcasts.update(signedIn(ctx), id, toBroadcastPatch(input));
    return toGqlBroadcast(r.broadcast, ctx.ingestServerUrl, r.streamKey);
  }

  @Mutation(() => Broadcast, {
    description:
      'Starts a SCHEDULED broadcast: needs billing ACTIVE or TRIALING (billing_inactive), a plan that allows the source (plan_forbids_source) and a free live slot (no_live_slot).',
  })
  async goLive(@Arg('id', () => ID, { description: 'The broadcast id.' }) id: string, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    return toGqlBroadcast(await ctx.services.broadcasts.goLive(signedIn(ctx), id), ctx.ingestServerUrl);
  }

  @Mutation(() => Broadcast, {
    description:
      'A new stream key for an INGEST broadcast, shown this once in ingest.streamKey; the old one stops working at once (invalid_state for other sources).',
  })
  async rotateStreamKey(@Arg('id', () => ID, { description: 'The broadcast id.' }) id: string, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    const r = await ctx.services.broadcasts.rotateStreamKey(signedIn(ctx), id);
    return toGqlBroadcast(r.broadcast, ctx.ingestServerUrl, r.streamKey);
  }

  @Mutation(() => Broadcast, { description: 'Ends a LIVE broadcast: it becomes a REPLAY (an ingest one stays ENDED until its recording is ready).' })
  async endBroadcast(@Arg('id', () => ID, { description: 'The broadcast id.' }) id: string, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    return toGqlBroadcast(await ctx.services.broadcasts.end(signedIn(ctx), id), ctx.ingestServerUrl);
  }
}

/** Apollo sends a resolver error's `extensions.http` as the response's status and headers. */
function asHttp429(err: unknown): never {
  if (!(err instanceof TooManyAuthFailures)) throw err;
  throw new GraphQLError(err.message, {
    extensions: { code: 'rate_limited', http: { status: 429, headers: new Map([['retry-after', String(err.retryAfter)]]) } },
  });
}
