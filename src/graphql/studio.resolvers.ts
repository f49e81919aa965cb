import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { computeHealth, healthHoldsUntil } from '../domain/channels/broadcast-health';
import { rowOf } from '../domain/channels/broadcast.row';
import { LIVE_SLOTS } from '../domain/channels/channel.entities';
import { GraphQLError } from 'graphql';
import { DomainError } from '../domain/errors';
import { TooManyAuthFailures } from '../http/authenticate';
import { decodeCursor, encodeCursor, toBroadcastInput, toBroadcastPatch, toGqlBroadcast } from './broadcast.mapper';
import { StudioAnswerCache } from './answer-cache';
import { signedIn, type GqlContext } from './context';
import {
  Broadcast, BroadcastConnection, BroadcastHealth, BroadcastInput, BroadcastPatch, BroadcastStateEnum, ChannelApiKey,
  ChannelScopeEnum, CreatedChannelApiKey, LiveSlots, RoleEnum, Session, StudioChannel, Viewer,
} from './graphql.types';
import type { StudioChannelRow as ChannelRow } from '../domain/channels/studio.queries';

async function channelsOf(ctx: GqlContext, ids: string[]): Promise<ChannelRow[]> {
  return ctx.services.studio.channelsByIds(ids);
}

function toChannel(ctx: GqlContext, r: ChannelRow): StudioChannel {
  return { id: r.id, slug: r.slug, name: r.name, plan: r.plan, billingState: r.billing_state, approved: r.approved, role: signedIn(ctx).roles.get(r.id) as RoleEnum };
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
  async login(@Arg('email') email: string, @Arg('password') password: string, @Ctx() ctx: GqlContext): Promise<Session> {
    // a wrong email or password is a failed authentication; past the client's budget: HTTP 429
    const s = await ctx.authFailures.attempt(ctx.clientIp, () => ctx.services.studioAuth.login(email, password),
      (err) => err instanceof DomainError && err.code === 'invalid_credentials').catch(asHttp429);
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
  @Query(() => StudioChannel)
  async channel(@Arg('slug') slug: string, @Ctx() ctx: GqlContext): Promise<StudioChannel> {
    return toChannel(ctx, await ctx.services.studio.channelFor(signedIn(ctx), slug, 'read'));
  }

  @FieldResolver(() => LiveSlots)
  async liveSlots(@Root() channel: StudioChannel, @Ctx() ctx: GqlContext): Promise<LiveSlots> {
    return { used: await ctx.loaders.liveSlotsUsed.load(channel.id), total: LIVE_SLOTS[channel.plan as keyof typeof LIVE_SLOTS] };
  }

  @FieldResolver(() => BroadcastConnection)
  async broadcasts(
    @Root() channel: StudioChannel,
    @Ctx() ctx: GqlContext,
    @Arg('state', () => BroadcastStateEnum, { nullable: true }) state?: BroadcastStateEnum,
    @Arg('first', () => Int, { defaultValue: 20 }) first = 20,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<BroadcastConnection> {
    if (first < 1 || first > 100) throw new DomainError('invalid_first', 'first must be from 1 to 100');
    const cursor = after ? decodeCursor(after) : undefined;
    if (after && !cursor) throw new DomainError('invalid_after', 'after is not a cursor of this connection');
    const rows = await ctx.services.tv.channelBroadcasts(channel.id, { state, first: first + 1, after: cursor ?? undefined });
    const page = rows.slice(0, first);
    return {
      edges: page.map((r) => ({ cursor: encodeCursor(r), node: toGqlBroadcast(r, ctx.ingestServerUrl) })),
      pageInfo: { hasNextPage: rows.length > first, endCursor: page.length ? encodeCursor(page[page.length - 1]) : null },
    };
  }

  @FieldResolver(() => [ChannelApiKey], { nullable: true, description: 'Owners and managers only: null with a forbidden error for other roles, so one channel does not fail a whole dashboard.' })
  async apiKeys(@Root() channel: StudioChannel, @Ctx() ctx: GqlContext): Promise<ChannelApiKey[]> {
    signedIn(ctx);
    return ctx.loaders.apiKeys.load(channel.id);
  }

  @Mutation(() => CreatedChannelApiKey, { description: 'A key for /api/tv, shown once. Owners and managers.' })
  async createChannelApiKey(
    @Arg('channel') slug: string, @Arg('name') name: string, @Arg('scopes', () => [ChannelScopeEnum]) scopes: ChannelScopeEnum[], @Ctx() ctx: GqlContext,
  ): Promise<CreatedChannelApiKey> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'keys');
    const { key, token } = await ctx.services.channels.createKey(p, { channelId: channel.id, name, scopes });
    return { secret: token, key: { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, createdAt: key.createdAt, revokedAt: null, lastUsedAt: null } };
  }

  @Mutation(() => ChannelApiKey, { description: 'Revokes a key: it stops working on /api/tv at once.' })
  async revokeChannelApiKey(@Arg('channel') slug: string, @Arg('id', () => ID) id: string, @Ctx() ctx: GqlContext): Promise<ChannelApiKey> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'keys');
    const key = await ctx.services.channels.revokeKey(p, channel.id, id);
    return { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, createdAt: key.createdAt, revokedAt: key.revokedAt, lastUsedAt: key.lastUsedAt };
  }
}

@Resolver(() => Broadcast)
export class BroadcastResolver {
  @FieldResolver(() => BroadcastHealth)
  async health(@Root() b: Broadcast, @Ctx() ctx: GqlContext): Promise<BroadcastHealth> {
    const telemetry = await ctx.loaders.telemetry.load(b.id);
    const now = ctx.clock.now();
    const h = computeHealth(b, telemetry, now);
    StudioAnswerCache.holdUntil(ctx.answer, healthHoldsUntil(b, telemetry, now));
    return { signal: h.signal, bitrateKbps: h.bitrate_kbps, resolution: h.resolution, fps: h.fps, viewers: h.viewers, warnings: h.warnings, updatedAt: h.updated_at ? new Date(h.updated_at) : null };
  }

  @Mutation(() => Broadcast, { description: 'Creates a broadcast (the TV API rules and error codes); an ingest one shows its stream key once.' })
  async createBroadcast(@Arg('channel') slug: string, @Arg('input') input: BroadcastInput, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'broadcasts');
    const r = await ctx.services.broadcasts.create(p, channel.id, toBroadcastInput(input));
    return toGqlBroadcast(rowOf(r.broadcast), ctx.ingestServerUrl, r.streamKey);
  }

  @Mutation(() => Broadcast)
  async updateBroadcast(@Arg('id', () => ID) id: string, @Arg('input') input: BroadcastPatch, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    const r = await ctx.services.broadcasts.update(signedIn(ctx), id, toBroadcastPatch(input));
    return toGqlBroadcast(rowOf(r.broadcast), ctx.ingestServerUrl, r.streamKey);
  }

  @Mutation(() => Broadcast)
  async goLive(@Arg('id', () => ID) id: string, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    return toGqlBroadcast(rowOf(await ctx.services.broadcasts.goLive(signedIn(ctx), id)), ctx.ingestServerUrl);
  }

  @Mutation(() => Broadcast)
  async endBroadcast(@Arg('id', () => ID) id: string, @Ctx() ctx: GqlContext): Promise<Broadcast> {
    return toGqlBroadcast(rowOf(await ctx.services.broadcasts.end(signedIn(ctx), id)), ctx.ingestServerUrl);
  }
}

/** Apollo sends a resolver error's `extensions.http` as the response's status and headers. */
function asHttp429(err: unknown): never {
  if (!(err instanceof TooManyAuthFailures)) throw err;
  throw new GraphQLError(err.message, {
    extensions: { code: 'rate_limited', http: { status: 429, headers: new Map([['retry-after', String(err.retryAfter)]]) } },
  });
}
