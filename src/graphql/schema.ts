import 'reflect-metadata';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { BroadcastResolver, ChannelResolver, ViewerResolver } from './studio.resolvers';
import { ChannelWebhooksResolver, WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks.resolvers';

let built: GraphQLSchema | null = null;

/** type-graphql has no option for the root types' descriptions; they are set on the built schema. */
const ROOT_DESCRIPTIONS = {
  query: 'What a signed-in studio user reads: their channels, broadcasts, keys, webhook endpoints and delivery log.',
  mutation: 'Signing in and out, and the changes a studio user makes to their channels (each checked against their role).',
};

/** The studio schema, built once from the resolvers (code first). */
export function studioSchema(): GraphQLSchema {
  if (built) return built;
  built = buildSchemaSync({ resolvers: [ViewerResolver, ChannelResolver, BroadcastResolver, ChannelWebhooksResolver, WebhookEndpointResolver, WebhookDeliveryResolver], validate: false });
  built.getQueryType()!.description = ROOT_DESCRIPTIONS.query;
  built.getMutationType()!.description = ROOT_DESCRIPTIONS.mutation;
  return built;
}

/** The SDL checked in as schema/studio.graphql (docs/decisions.md#studio-sdl). */
export function renderStudioSdl(): string {
  return `${printSchema(studioSchema())}\n`;
}
