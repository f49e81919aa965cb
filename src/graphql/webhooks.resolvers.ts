import { DateTimeISOResolver } from 'graphql-scalars';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { AttemptView, DeliveryView } from '../webhooks/delivery-log.service';
import type { ChannelEndpointView } from '../webhooks/channel-webhook.service';
import { signedIn, type GqlContext } from './context';
import { StudioChannel } from './graphql.types';
import { webhookLoaders } from './webhook.loaders';
import { ChannelWebhookEventEnum, type ChannelWebhookEvent } from './graphql.enums';
import { CreatedWebhookEndpoint, GqlWebhookAttempt, GqlWebhookDelivery, GqlWebhookEndpoint, RotatedWebhookSecret } from './webhook.types';

/**
 * The channel's webhook endpoints and delivery log (docs/decisions.md#studio-schema). Who may do what is decided in the
 * domain, by ChannelWebhookService and the studio's channel look-up with the one access rule
 * (every role reads; owner and manager change); this layer only maps.
 */

// A channel endpoint's events, and so its deliveries' events, are checked against the channel events when written.
const toEndpoint = (e: ChannelEndpointView): GqlWebhookEndpoint => ({
  id: e.id,
  url: e.url,
  events: e.events as ChannelWebhookEvent[],
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  disabledAt: e.disabledAt,
  failingSince: e.failingSince,
  ratePerSecond: e.ratePerSecond,
  secretSwitchAt: e.secretSwitchAt,
  createdAt: e.createdAt,
});

export const toDelivery = (d: DeliveryView): GqlWebhookDelivery => ({
  id: d.id,
  eventId: d.event_id,
  event: d.event as ChannelWebhookEvent,
  status: d.status,
  attempt: d.attempt,
  nextAttemptAt: d.status === 'pending' ? d.next_attempt_at : null,
  replayOf: d.replay_of,
  lastStatusCode: d.last_status_code,
  lastError: d.last_error,
  createdAt: d.created_at,
  completedAt: d.completed_at,
});

const toAttempt = (a: AttemptView): GqlWebhookAttempt => ({
  attemptNo: a.attempt_no,
  startedAt: a.started_at,
  durationMs: a.duration_ms,
  requestHeaders: a.request_headers,
  statusCode: a.status_code,
  error: a.error,
  responseExcerpt: a.response_excerpt,
});

const service = (ctx: GqlContext) => ctx.services.channelWebhooks;

@Resolver(() => StudioChannel)
export class ChannelWebhooksResolver {
  @FieldResolver(() => [GqlWebhookEndpoint], { description: "The channel's webhook endpoints, oldest first. Every role reads them." })
  async webhookEndpoints(@Root() channel: StudioChannel, @Ctx() ctx: GqlContext): Promise<GqlWebhookEndpoint[]> {
    return (await webhookLoaders(ctx).endpoints.load(channel.id)).map(toEndpoint);
  }
}

@Resolver(() => GqlWebhookEndpoint)
export class WebhookEndpointResolver {
  @FieldResolver(() => [GqlWebhookDelivery], { description: 'The delivery log, newest first (first: 1 to 100).' })
  async deliveries(
    @Root() endpoint: GqlWebhookEndpoint,
    @Ctx() ctx: GqlContext,
    @Arg('first', () => Int, { defaultValue: 20, description: 'How many of the newest deliveries, 1 to 100.' }) first: number,
  ): Promise<GqlWebhookDelivery[]> {
    return (await webhookLoaders(ctx).deliveries(first).load(endpoint.id)).map(toDelivery);
  }

  @Mutation(() => CreatedWebhookEndpoint, { description: 'A new endpoint. The secret is shown once. Owners and managers.' })
  async createWebhookEndpoint(
    @Arg('channel', { description: 'The channel slug.' }) slug: string,
    @Arg('url', { description: 'The https URL to POST deliveries to (invalid_url).' }) url: string,
    @Arg('events', () => [ChannelWebhookEventEnum], { description: 'The events to receive, at least one.' }) events: ChannelWebhookEvent[],
    @Ctx() ctx: GqlContext,
  ): Promise<CreatedWebhookEndpoint> {
    const p = signedIn(ctx);
    const channel = await ctx.services.studio.channelFor(p, slug, 'webhooks');
    const created = await service(ctx).create(p, channel.id, { url, events });
    return { endpoint: toEndpoint(created.endpoint), secret: created.secret };
  }

  @Mutation(() => GqlWebhookEndpoint, { description: 'Changes the url, the events or enabled (give at least one). Owners and managers.' })
  async updateWebhookEndpoint(
    @Arg('id', () => ID, { description: 'The endpoint id.' }) id: string,
    @Ctx() ctx: GqlContext,
    @Arg('url', () => String, { nullable: true, description: 'A new https URL.' }) url?: string | null,
    @Arg('events', () => [ChannelWebhookEventEnum], { nullable: true, description: 'The events to receive instead, at least one.' }) events?:
      | ChannelWebhookEvent[]
      | null,
    @Arg('enabled', () => Boolean, { nullable: true, description: 'False stops deliveries; true resumes them.' }) enabled?: boolean | null,
  ): Promise<GqlWebhookEndpoint> {
    return toEndpoint(await service(ctx).update(signedIn(ctx), id, { url, events, enabled }));
  }

  @Mutation(() => Boolean, { description: 'Deletes the endpoint: nothing more is sent to it, waiting deliveries fail. Owners and managers.' })
  async deleteWebhookEndpoint(@Arg('id', () => ID, { description: 'The endpoint id.' }) id: string, @Ctx() ctx: GqlContext): Promise<boolean> {
    await service(ctx).remove(signedIn(ctx), id);
    return true;
  }

  @Mutation(() => RotatedWebhookSecret, {
    description: 'A new secret, shown once; the old one keeps signing until switchAt (default 24 hours from now). Owners and managers.',
  })
  async rotateWebhookSecret(
    @Arg('id', () => ID, { description: 'The endpoint id.' }) id: string,
    @Ctx() ctx: GqlContext,
    @Arg('switchAt', () => DateTimeISOResolver, { nullable: true, description: 'When the new secret takes over signing; 24 hours from now when omitted.' })
    switchAt?: Date | null,
  ): Promise<RotatedWebhookSecret> {
    const r = await service(ctx).rotateSecret(signedIn(ctx), id, switchAt);
    return { endpoint: toEndpoint(r.endpoint), secret: r.secret, switchAt: r.switchAt };
  }

  @Mutation(() => GqlWebhookDelivery, { description: 'The Test button: sends a ping event to this endpoint, whatever it subscribed to. Owners and managers.' })
  async pingWebhookEndpoint(@Arg('id', () => ID, { description: 'The endpoint id.' }) id: string, @Ctx() ctx: GqlContext): Promise<GqlWebhookDelivery> {
    return toDelivery(await service(ctx).ping(signedIn(ctx), id));
  }
}

@Resolver(() => GqlWebhookDelivery)
export class WebhookDeliveryResolver {
  @FieldResolver(() => [GqlWebhookAttempt], { description: 'Every attempt, in order.' })
  async attempts(@Root() delivery: GqlWebhookDelivery, @Ctx() ctx: GqlContext): Promise<GqlWebhookAttempt[]> {
    return (await webhookLoaders(ctx).attempts.load(delivery.id)).map(toAttempt);
  }

  @Mutation(() => GqlWebhookDelivery, {
    description: 'Sends a delivery again: a new delivery id, X-SVC-Replay-Of the original, the same payload id. Owners and managers.',
  })
  async redeliverWebhookDelivery(@Arg('id', () => ID, { description: 'The delivery id.' }) id: string, @Ctx() ctx: GqlContext): Promise<GqlWebhookDelivery> {
    return toDelivery(await service(ctx).redeliver(signedIn(ctx), id));
  }

  @Mutation(() => [GqlWebhookDelivery], {
    description: 'Sends again every failed delivery of the endpoint created from since (until: before then). Owners and managers.',
  })
  async recoverWebhookDeliveries(
    @Arg('endpoint', () => ID, { description: 'The endpoint id.' }) endpointId: string,
    @Arg('since', () => DateTimeISOResolver, { description: 'The earliest creation time of the deliveries to send again.' }) since: Date,
    @Ctx() ctx: GqlContext,
    @Arg('until', () => DateTimeISOResolver, { nullable: true, description: 'Only deliveries created before this time; now when omitted.' })
    until?: Date | null,
  ): Promise<GqlWebhookDelivery[]> {
    return (await service(ctx).recover(signedIn(ctx), endpointId, since, until)).map(toDelivery);
  }
}
