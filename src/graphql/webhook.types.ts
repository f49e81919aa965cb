import { DateTimeISOResolver, JSONObjectResolver } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { DeliveryStatus } from '../webhooks/webhook.entities';
import { ChannelWebhookEventEnum, WebhookDeliveryStatusEnum, type ChannelWebhookEvent } from './graphql.enums';

@ObjectType('WebhookEndpoint', {
  description: "One of the channel's webhook receivers. Its secret is shown only when it is created or rotated.",
})
export class GqlWebhookEndpoint {
  @Field(() => ID, { description: 'The endpoint id (a uuid).' }) id!: string;
  @Field({ description: 'The https URL deliveries are POSTed to.' }) url!: string;
  @Field(() => [ChannelWebhookEventEnum], { description: 'The events it receives (PING is sent by the Test button whatever it subscribed to).' })
  events!: ChannelWebhookEvent[];
  @Field({ description: 'Whether deliveries are sent to it.' }) enabled!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'Why the endpoint is disabled (in the studio, the receiver answered 410 Gone, or every delivery failed for 5 days).',
  })
  disabledReason!: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was disabled; null while enabled.' }) disabledAt!: Date | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description:
      'Since when every delivery that ended has failed (out of attempts, or 410 Gone) with none succeeding; null while healthy. After 5 days of it the endpoint is disabled; enabling it again starts afresh.',
  })
  failingSince!: Date | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'The most deliveries per second this endpoint receives, over every worker, set by the operator (`webhooks:set-rate`); null when there is no limit. Deliveries held back by it wait without spending an attempt. Read-only here.',
  })
  ratePerSecond!: number | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the last rotated secret takes (or took) over signing; until then the previous one signs.',
  })
  secretSwitchAt!: Date | null;
  @Field(() => DateTimeISOResolver, { description: 'When it was created.' }) createdAt!: Date;
}

@ObjectType('WebhookAttempt', { description: 'One attempt of a delivery, as the delivery log keeps it.' })
export class GqlWebhookAttempt {
  @Field(() => Int, { description: 'The attempt number, from 1 to 5.' }) attemptNo!: number;
  @Field(() => DateTimeISOResolver, { description: 'When the attempt started.' }) startedAt!: Date;
  @Field(() => Int, { description: 'How long it took, in milliseconds.' }) durationMs!: number;
  @Field(() => JSONObjectResolver, { description: 'The request headers sent, name to value (X-SVC-Delivery, X-SVC-Signature, ...).' })
  requestHeaders!: Record<string, string>;
  @Field(() => Int, { nullable: true, description: "The receiver's status code; null when no answer came (see error)." }) statusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'Why no answer came (time-out, refused connection, ...); null when one did.' }) error!: string | null;
  @Field(() => String, { nullable: true, description: 'The first 4 KiB of the response body.' }) responseExcerpt!: string | null;
}

@ObjectType('WebhookDelivery', { description: 'One event sent to one endpoint: an attempt series under one X-SVC-Delivery id.' })
export class GqlWebhookDelivery {
  @Field(() => ID, { description: 'The delivery id (a uuid), sent as X-SVC-Delivery.' }) id!: string;
  @Field({ description: 'The payload id (evt_...); a redelivery keeps it.' }) eventId!: string;
  @Field(() => ChannelWebhookEventEnum, { description: 'The event sent.' }) event!: ChannelWebhookEvent;
  @Field(() => WebhookDeliveryStatusEnum, { description: 'Where the delivery stands.' }) status!: DeliveryStatus;
  @Field(() => Int, { description: 'Attempts made so far.' }) attempt!: number;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'While pending: when the next attempt is due.' }) nextAttemptAt!: Date | null;
  @Field(() => ID, { nullable: true, description: 'The delivery this one redelivers (sent as X-SVC-Replay-Of).' }) replayOf!: string | null;
  @Field(() => Int, { nullable: true, description: "The receiver's status code at the latest attempt." }) lastStatusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'Why the latest attempt got no answer, if it did not.' }) lastError!: string | null;
  @Field(() => DateTimeISOResolver, {
    description:
      "When the delivery was created: for an event's own delivery, the time of the change (the payload's created_at, however late a worker fanned it out); for a redelivery or a recovery, the time it was asked for. The log is newest first by it.",
  })
  createdAt!: Date;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it succeeded or failed for good.' }) completedAt!: Date | null;
}

@ObjectType({ description: 'A new webhook endpoint, with its signing secret shown this once.' })
export class CreatedWebhookEndpoint {
  @Field(() => GqlWebhookEndpoint, { description: 'The endpoint as it will be listed.' }) endpoint!: GqlWebhookEndpoint;
  @Field({ description: 'The signing secret (whsec_...), shown this once.' }) secret!: string;
}

@ObjectType({ description: "An endpoint's new signing secret, shown this once." })
export class RotatedWebhookSecret {
  @Field(() => GqlWebhookEndpoint, { description: 'The endpoint, with its new secretSwitchAt.' }) endpoint!: GqlWebhookEndpoint;
  @Field({ description: 'The new signing secret (whsec_...), shown this once.' }) secret!: string;
  @Field(() => DateTimeISOResolver, { description: 'When the new secret starts signing; the old one signs until then.' }) switchAt!: Date;
}
