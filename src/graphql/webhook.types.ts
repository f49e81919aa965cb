import { DateTimeISOResolver, JSONObjectResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum WebhookDeliveryStatusEnum { pending = 'pending', sending = 'sending', succeeded = 'succeeded', failed = 'failed' }
registerEnumType(WebhookDeliveryStatusEnum, {
  name: 'WebhookDeliveryStatus',
  description: 'pending (waiting for its next attempt), sending, succeeded (a 2xx answer), failed (five attempts, or 410 Gone)',
});

@ObjectType('WebhookEndpoint', {
  description: "One of the channel's webhook receivers. Events: broadcast.scheduled, broadcast.live, broadcast.ended, replay.ready, ping. Its secret is shown only when it is created or rotated.",
})
export class GqlWebhookEndpoint {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field() enabled!: boolean;
  @Field(() => String, { nullable: true, description: 'Why the endpoint is disabled (in the studio, or the receiver answered 410 Gone).' }) disabledReason!: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the last rotated secret takes (or took) over signing; until then the previous one signs.' })
  secretSwitchAt!: Date | null;
  @Field(() => DateTimeISOResolver) createdAt!: Date;
}

@ObjectType('WebhookAttempt', { description: 'One attempt of a delivery, as the delivery log keeps it.' })
export class GqlWebhookAttempt {
  @Field(() => Int) attemptNo!: number;
  @Field(() => DateTimeISOResolver) startedAt!: Date;
  @Field(() => Int) durationMs!: number;
  @Field(() => JSONObjectResolver, { description: 'The request headers sent, name to value (X-SVC-Delivery, X-SVC-Signature, ...).' })
  requestHeaders!: Record<string, string>;
  @Field(() => Int, { nullable: true, description: "The receiver's status code; null when no answer came (see error)." }) statusCode!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { nullable: true, description: 'The first 4 KiB of the response body.' }) responseExcerpt!: string | null;
}

@ObjectType('WebhookDelivery', { description: 'One event sent to one endpoint: an attempt series under one X-SVC-Delivery id.' })
export class GqlWebhookDelivery {
  @Field(() => ID) id!: string;
  @Field({ description: 'The payload id (evt_...); a redelivery keeps it.' }) eventId!: string;
  @Field({ description: 'The event type, e.g. broadcast.live or ping.' }) event!: string;
  @Field(() => WebhookDeliveryStatusEnum) status!: WebhookDeliveryStatusEnum;
  @Field(() => Int, { description: 'Attempts made so far.' }) attempt!: number;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'While pending: when the next attempt is due.' }) nextAttemptAt!: Date | null;
  @Field(() => ID, { nullable: true, description: 'The delivery this one redelivers (sent as X-SVC-Replay-Of).' }) replayOf!: string | null;
  @Field(() => Int, { nullable: true }) lastStatusCode!: number | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => DateTimeISOResolver) createdAt!: Date;
  @Field(() => DateTimeISOResolver, { nullable: true }) completedAt!: Date | null;
}

@ObjectType()
export class CreatedWebhookEndpoint {
  @Field(() => GqlWebhookEndpoint) endpoint!: GqlWebhookEndpoint;
  @Field({ description: 'The signing secret (whsec_...), shown this once.' }) secret!: string;
}

@ObjectType()
export class RotatedWebhookSecret {
  @Field(() => GqlWebhookEndpoint) endpoint!: GqlWebhookEndpoint;
  @Field({ description: 'The new signing secret (whsec_...), shown this once.' }) secret!: string;
  @Field(() => DateTimeISOResolver, { description: 'When the new secret starts signing; the old one signs until then.' }) switchAt!: Date;
}
