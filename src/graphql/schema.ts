import 'reflect-metadata';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { IDEMPOTENT_MUTATION_SENTENCE, IDEMPOTENT_MUTATIONS, idempotentMutationsSentence } from './idempotent-mutations';
import { BroadcastResolver, ChannelResolver, ViewerResolver } from './studio.resolvers';
import { ChannelWebhooksResolver, WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks.resolvers';
import { SubscriptionResolver } from './subscriptions/subscription.resolvers';

let built: GraphQLSchema | null = null;

/** type-graphql has no option for the root types' descriptions; they are set on the built schema. */
const ROOT_DESCRIPTIONS = {
  query: 'What a signed-in studio user reads: their channels, broadcasts, keys, webhook endpoints and delivery log.',
  mutation: 'Signing in and out, and the changes a studio user makes to their channels (each checked against their role).',
  subscription: 'Live changes of the channels a signed-in studio user holds a role on, over WebSocket (graphql-ws) on /graphql.',
};

/**
 * type-graphql asks for a PubSub as soon as a schema has subscriptions, even when each one brings
 * its own `subscribe` (ours read the change feed: src/graphql/subscriptions); none uses topics.
 */
const NO_TOPICS = {
  publish(): never {
    throw new Error('the studio subscriptions use no PubSub topics: they follow the change feed');
  },
  subscribe(): never {
    throw new Error('the studio subscriptions use no PubSub topics: they follow the change feed');
  },
};

/** The studio schema, built once from the resolvers (code first). */
export function studioSchema(): GraphQLSchema {
  if (built) return built;
  built = buildSchemaSync({
    resolvers: [
      ViewerResolver,
      ChannelResolver,
      BroadcastResolver,
      ChannelWebhooksResolver,
      WebhookEndpointResolver,
      WebhookDeliveryResolver,
      SubscriptionResolver,
    ],
    validate: false,
    pubSub: NO_TOPICS,
  });
  built.getQueryType()!.description = ROOT_DESCRIPTIONS.query;
  const mutation = built.getMutationType()!;
  // Which mutations take Idempotency-Key is the middleware's list: the descriptions say it from there.
  mutation.description = `${ROOT_DESCRIPTIONS.mutation} ${idempotentMutationsSentence()}`;
  for (const [name, field] of Object.entries(mutation.getFields())) {
    if (IDEMPOTENT_MUTATIONS.has(name)) field.description = `${field.description ?? ''} ${IDEMPOTENT_MUTATION_SENTENCE}`.trim();
  }
  built.getSubscriptionType()!.description = ROOT_DESCRIPTIONS.subscription;
  return built;
}

/** The SDL checked in as schema/studio.graphql (docs/decisions.md#studio-sdl). */
export function renderStudioSdl(): string {
  return `${printSchema(studioSchema())}\n`;
}
