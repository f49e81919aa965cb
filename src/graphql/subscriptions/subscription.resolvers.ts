import { Arg, Ctx, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { toGqlBroadcast } from '../broadcast.mapper';
import { signedIn, type GqlContext } from '../context';
import { Broadcast } from '../graphql.types';
import { GqlWebhookDelivery } from '../webhook.types';
import { toDelivery } from '../webhooks.resolvers';
import { liveContext, type LiveEvent } from './live-context';
import { wakeHealth } from './health-wake';
import type { LiveSubject } from './live-events';

type Args<T> = SubscribeResolverData<unknown, T, GqlContext>;

/** The stream of one subscription: the changes `matches` accepts, each checked against the access rule with the principal of the moment. */
function follow(ctx: GqlContext, channelId: string, matches: (subject: LiveSubject) => boolean): AsyncIterable<LiveEvent> {
  const { live } = liveContext(ctx);
  live.follows(channelId);
  return live.events.stream({ matches, principal: () => live.principal() });
}

/**
 * Each change runs its selection in a context of its own (fresh loaders, the principal of the
 * moment: ws-server.ts), primed with the telemetry loaded once for every subscriber.
 */
function freshLoaders(ctx: GqlContext, event: LiveEvent): void {
  liveContext(ctx);
  if (event.value.kind !== 'delivery') ctx.loaders.telemetry.prime(event.value.broadcast.id, event.value.telemetry);
}

/**
 * The studio's live updates (docs/studio-graphql.md#subscriptions), over graphql-ws on /graphql
 * (src/graphql/subscriptions/ws-server.ts). Subscribing checks `read` on the channel with the one
 * access rule (another channel is not found); so does every change before it is sent.
 */
@Resolver()
export class SubscriptionResolver {
  @Subscription(() => Broadcast, {
    description: "A channel's broadcasts changing (created, edited, scheduled, live, ended, replay ready).",
    subscribe: async ({ args, context }: Args<{ channelSlug: string }>) => {
      const channel = await context.services.studio.channelFor(signedIn(context), args.channelSlug, 'read');
      return follow(context, channel.id, (s) => s.kind === 'broadcast' && s.channelId === channel.id);
    },
  })
  broadcastUpdated(
    @Arg('channelSlug', { description: 'The channel slug.' }) _channelSlug: string,
    @Root() event: LiveEvent,
    @Ctx() ctx: GqlContext,
  ): Broadcast {
    freshLoaders(ctx, event);
    if (event.value.kind === 'delivery') throw new Error('a delivery on a broadcast stream');
    return toGqlBroadcast(event.value.broadcast, ctx.ingestServerUrl);
  }

  @Subscription(() => Broadcast, {
    description:
      "A broadcast's health reports, as the media-server callback posts them (and its own changes, which change its health): the Broadcast with its health field.",
    subscribe: async ({ args, context }: Args<{ broadcastId: string }>) => {
      const broadcast = await context.services.broadcasts.get(signedIn(context), args.broadcastId);
      const channelId = broadcast.channel.id;
      const stream = follow(context, channelId, (s) => (s.kind === 'health' || s.kind === 'broadcast') && s.id === broadcast.id);
      // a health that goes stale without a report changes then: the subscriber hears it
      wakeHealth(liveContext(context).live.events, channelId, broadcast, await context.loaders.telemetry.load(broadcast.id), context.clock.now());
      return stream;
    },
  })
  broadcastHealthChanged(
    @Arg('broadcastId', () => ID, { description: 'The broadcast id.' }) _broadcastId: string,
    @Root() event: LiveEvent,
    @Ctx() ctx: GqlContext,
  ): Broadcast {
    freshLoaders(ctx, event);
    if (event.value.kind === 'delivery') throw new Error('a delivery on a health stream');
    return toGqlBroadcast(event.value.broadcast, ctx.ingestServerUrl);
  }

  @Subscription(() => GqlWebhookDelivery, {
    description: "A channel's webhook deliveries created or attempted (each attempt), for the delivery log.",
    subscribe: async ({ args, context }: Args<{ channelSlug: string }>) => {
      const channel = await context.services.studio.channelFor(signedIn(context), args.channelSlug, 'read');
      return follow(context, channel.id, (s) => s.kind === 'delivery' && s.channelId === channel.id);
    },
  })
  webhookDeliveryUpdated(
    @Arg('channelSlug', { description: 'The channel slug.' }) _channelSlug: string,
    @Root() event: LiveEvent,
    @Ctx() ctx: GqlContext,
  ): GqlWebhookDelivery {
    freshLoaders(ctx, event);
    if (event.value.kind !== 'delivery') throw new Error('a broadcast on a delivery stream');
    return toDelivery(event.value.delivery);
  }
}
