import 'reflect-metadata';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { BroadcastResolver, ChannelResolver, ViewerResolver } from './studio.resolvers';
import { ChannelWebhooksResolver, WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks.resolvers';

let built: GraphQLSchema | null = null;

/** The studio schema, built once from the resolvers (code first). */
export function studioSchema(): GraphQLSchema {
  built ??= buildSchemaSync({ resolvers: [ViewerResolver, ChannelResolver, BroadcastResolver, ChannelWebhooksResolver, WebhookEndpointResolver, WebhookDeliveryResolver], validate: false });
  return built;
}

/** The SDL checked in as schema/studio.graphql (docs/decisions.md#studio-sdl). */
export function renderStudioSdl(): string {
  return `${printSchema(studioSchema())}\n`;
}
