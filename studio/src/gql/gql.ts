/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Channel($slug: String!) {\n    channel(slug: $slug) {\n      id slug name plan billingState approved role permissions\n      liveSlots { used total }\n    }\n  }\n": typeof types.ChannelDocument,
    "\n  fragment BroadcastFields on Broadcast {\n    id slug channelSlug title source sourceUrl scheduledAt startedAt endedAt state visibility discipline language tags replayUrl\n    ingest { serverUrl streamKey }\n  }\n": typeof types.BroadcastFieldsFragmentDoc,
    "\n  fragment HealthFields on Broadcast {\n    health { signal bitrateKbps resolution fps viewers warnings { code message } updatedAt }\n  }\n": typeof types.HealthFieldsFragmentDoc,
    "\n  fragment DeliveryFields on WebhookDelivery {\n    id eventId event status attempt nextAttemptAt replayOf lastStatusCode lastError createdAt completedAt\n    attempts { attemptNo startedAt durationMs requestHeaders statusCode error responseExcerpt }\n  }\n": typeof types.DeliveryFieldsFragmentDoc,
    "\n  subscription BroadcastUpdated($slug: String!) {\n    broadcastUpdated(channelSlug: $slug) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n": typeof types.BroadcastUpdatedDocument,
    "\n  subscription BroadcastHealthChanged($id: ID!) {\n    broadcastHealthChanged(broadcastId: $id) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n": typeof types.BroadcastHealthChangedDocument,
    "\n  subscription WebhookDeliveryUpdated($slug: String!) {\n    webhookDeliveryUpdated(channelSlug: $slug) {\n      ...DeliveryFields\n    }\n  }\n": typeof types.WebhookDeliveryUpdatedDocument,
    "\n  mutation CreateBroadcast($slug: String!, $input: BroadcastInput!) {\n    createBroadcast(channel: $slug, input: $input) { ...BroadcastFields }\n  }\n": typeof types.CreateBroadcastDocument,
    "\n  mutation UpdateBroadcast($id: ID!, $input: BroadcastPatch!) {\n    updateBroadcast(id: $id, input: $input) { ...BroadcastFields }\n  }\n": typeof types.UpdateBroadcastDocument,
    "\n  query BroadcastDetail($slug: String!, $id: ID!) {\n    channel(slug: $slug) {\n      id\n      broadcast(id: $id) {\n        ...BroadcastFields\n        ...HealthFields\n      }\n    }\n  }\n": typeof types.BroadcastDetailDocument,
    "\n  mutation GoLive($id: ID!) { goLive(id: $id) { ...BroadcastFields } }\n": typeof types.GoLiveDocument,
    "\n  mutation EndBroadcast($id: ID!) { endBroadcast(id: $id) { ...BroadcastFields } }\n": typeof types.EndBroadcastDocument,
    "\n  mutation RotateStreamKey($id: ID!) { rotateStreamKey(id: $id) { id ingest { serverUrl streamKey } } }\n": typeof types.RotateStreamKeyDocument,
    "\n  query BroadcastList($slug: String!, $state: BroadcastState, $first: Int, $after: String) {\n    channel(slug: $slug) {\n      id\n      broadcasts(state: $state, first: $first, after: $after) {\n        edges { cursor node { id title state source scheduledAt startedAt endedAt visibility } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.BroadcastListDocument,
    "\n  query DeliveryLog($slug: String!) {\n    channel(slug: $slug) {\n      id\n      webhookEndpoints {\n        id url enabled\n        deliveries(first: 50) {\n          ...DeliveryFields\n        }\n      }\n    }\n  }\n": typeof types.DeliveryLogDocument,
    "\n  mutation RedeliverWebhookDelivery($id: ID!) { redeliverWebhookDelivery(id: $id) { id status } }\n": typeof types.RedeliverWebhookDeliveryDocument,
    "\n  mutation RecoverWebhookDeliveries($endpoint: ID!, $since: DateTimeISO!, $until: DateTimeISO) {\n    recoverWebhookDeliveries(endpoint: $endpoint, since: $since, until: $until) { id }\n  }\n": typeof types.RecoverWebhookDeliveriesDocument,
    "\n  query ChannelKeys($slug: String!) {\n    channel(slug: $slug) { id apiKeys { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n": typeof types.ChannelKeysDocument,
    "\n  mutation CreateChannelKey($slug: String!, $name: String!, $scopes: [ChannelScope!]!) {\n    createChannelApiKey(channel: $slug, name: $name, scopes: $scopes) { secret key { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n": typeof types.CreateChannelKeyDocument,
    "\n  mutation RevokeChannelKey($slug: String!, $id: ID!) {\n    revokeChannelApiKey(channel: $slug, id: $id) { id revokedAt }\n  }\n": typeof types.RevokeChannelKeyDocument,
    "\n  query MyChannels {\n    viewer { id email channels { id slug name role } }\n  }\n": typeof types.MyChannelsDocument,
    "\n  mutation SignOut { logout }\n": typeof types.SignOutDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    login(email: $email, password: $password) { token expiresAt }\n  }\n": typeof types.SignInDocument,
    "\n  query WebhookEndpoints($slug: String!) {\n    channel(slug: $slug) { id webhookEndpoints { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n": typeof types.WebhookEndpointsDocument,
    "\n  mutation CreateWebhookEndpoint($slug: String!, $url: String!, $events: [ChannelWebhookEvent!]!) {\n    createWebhookEndpoint(channel: $slug, url: $url, events: $events) { secret endpoint { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n": typeof types.CreateWebhookEndpointDocument,
    "\n  mutation SetWebhookEndpointEnabled($id: ID!, $enabled: Boolean!) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { id enabled disabledReason }\n  }\n": typeof types.SetWebhookEndpointEnabledDocument,
    "\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": typeof types.DeleteWebhookEndpointDocument,
    "\n  mutation RotateWebhookSecret($id: ID!, $switchAt: DateTimeISO) {\n    rotateWebhookSecret(id: $id, switchAt: $switchAt) { secret switchAt endpoint { id secretSwitchAt } }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  mutation PingWebhookEndpoint($id: ID!) { pingWebhookEndpoint(id: $id) { id status event createdAt } }\n": typeof types.PingWebhookEndpointDocument,
};
const documents: Documents = {
    "\n  query Channel($slug: String!) {\n    channel(slug: $slug) {\n      id slug name plan billingState approved role permissions\n      liveSlots { used total }\n    }\n  }\n": types.ChannelDocument,
    "\n  fragment BroadcastFields on Broadcast {\n    id slug channelSlug title source sourceUrl scheduledAt startedAt endedAt state visibility discipline language tags replayUrl\n    ingest { serverUrl streamKey }\n  }\n": types.BroadcastFieldsFragmentDoc,
    "\n  fragment HealthFields on Broadcast {\n    health { signal bitrateKbps resolution fps viewers warnings { code message } updatedAt }\n  }\n": types.HealthFieldsFragmentDoc,
    "\n  fragment DeliveryFields on WebhookDelivery {\n    id eventId event status attempt nextAttemptAt replayOf lastStatusCode lastError createdAt completedAt\n    attempts { attemptNo startedAt durationMs requestHeaders statusCode error responseExcerpt }\n  }\n": types.DeliveryFieldsFragmentDoc,
    "\n  subscription BroadcastUpdated($slug: String!) {\n    broadcastUpdated(channelSlug: $slug) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n": types.BroadcastUpdatedDocument,
    "\n  subscription BroadcastHealthChanged($id: ID!) {\n    broadcastHealthChanged(broadcastId: $id) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n": types.BroadcastHealthChangedDocument,
    "\n  subscription WebhookDeliveryUpdated($slug: String!) {\n    webhookDeliveryUpdated(channelSlug: $slug) {\n      ...DeliveryFields\n    }\n  }\n": types.WebhookDeliveryUpdatedDocument,
    "\n  mutation CreateBroadcast($slug: String!, $input: BroadcastInput!) {\n    createBroadcast(channel: $slug, input: $input) { ...BroadcastFields }\n  }\n": types.CreateBroadcastDocument,
    "\n  mutation UpdateBroadcast($id: ID!, $input: BroadcastPatch!) {\n    updateBroadcast(id: $id, input: $input) { ...BroadcastFields }\n  }\n": types.UpdateBroadcastDocument,
    "\n  query BroadcastDetail($slug: String!, $id: ID!) {\n    channel(slug: $slug) {\n      id\n      broadcast(id: $id) {\n        ...BroadcastFields\n        ...HealthFields\n      }\n    }\n  }\n": types.BroadcastDetailDocument,
    "\n  mutation GoLive($id: ID!) { goLive(id: $id) { ...BroadcastFields } }\n": types.GoLiveDocument,
    "\n  mutation EndBroadcast($id: ID!) { endBroadcast(id: $id) { ...BroadcastFields } }\n": types.EndBroadcastDocument,
    "\n  mutation RotateStreamKey($id: ID!) { rotateStreamKey(id: $id) { id ingest { serverUrl streamKey } } }\n": types.RotateStreamKeyDocument,
    "\n  query BroadcastList($slug: String!, $state: BroadcastState, $first: Int, $after: String) {\n    channel(slug: $slug) {\n      id\n      broadcasts(state: $state, first: $first, after: $after) {\n        edges { cursor node { id title state source scheduledAt startedAt endedAt visibility } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.BroadcastListDocument,
    "\n  query DeliveryLog($slug: String!) {\n    channel(slug: $slug) {\n      id\n      webhookEndpoints {\n        id url enabled\n        deliveries(first: 50) {\n          ...DeliveryFields\n        }\n      }\n    }\n  }\n": types.DeliveryLogDocument,
    "\n  mutation RedeliverWebhookDelivery($id: ID!) { redeliverWebhookDelivery(id: $id) { id status } }\n": types.RedeliverWebhookDeliveryDocument,
    "\n  mutation RecoverWebhookDeliveries($endpoint: ID!, $since: DateTimeISO!, $until: DateTimeISO) {\n    recoverWebhookDeliveries(endpoint: $endpoint, since: $since, until: $until) { id }\n  }\n": types.RecoverWebhookDeliveriesDocument,
    "\n  query ChannelKeys($slug: String!) {\n    channel(slug: $slug) { id apiKeys { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n": types.ChannelKeysDocument,
    "\n  mutation CreateChannelKey($slug: String!, $name: String!, $scopes: [ChannelScope!]!) {\n    createChannelApiKey(channel: $slug, name: $name, scopes: $scopes) { secret key { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n": types.CreateChannelKeyDocument,
    "\n  mutation RevokeChannelKey($slug: String!, $id: ID!) {\n    revokeChannelApiKey(channel: $slug, id: $id) { id revokedAt }\n  }\n": types.RevokeChannelKeyDocument,
    "\n  query MyChannels {\n    viewer { id email channels { id slug name role } }\n  }\n": types.MyChannelsDocument,
    "\n  mutation SignOut { logout }\n": types.SignOutDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    login(email: $email, password: $password) { token expiresAt }\n  }\n": types.SignInDocument,
    "\n  query WebhookEndpoints($slug: String!) {\n    channel(slug: $slug) { id webhookEndpoints { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n": types.WebhookEndpointsDocument,
    "\n  mutation CreateWebhookEndpoint($slug: String!, $url: String!, $events: [ChannelWebhookEvent!]!) {\n    createWebhookEndpoint(channel: $slug, url: $url, events: $events) { secret endpoint { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n": types.CreateWebhookEndpointDocument,
    "\n  mutation SetWebhookEndpointEnabled($id: ID!, $enabled: Boolean!) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { id enabled disabledReason }\n  }\n": types.SetWebhookEndpointEnabledDocument,
    "\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": types.DeleteWebhookEndpointDocument,
    "\n  mutation RotateWebhookSecret($id: ID!, $switchAt: DateTimeISO) {\n    rotateWebhookSecret(id: $id, switchAt: $switchAt) { secret switchAt endpoint { id secretSwitchAt } }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  mutation PingWebhookEndpoint($id: ID!) { pingWebhookEndpoint(id: $id) { id status event createdAt } }\n": types.PingWebhookEndpointDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Channel($slug: String!) {\n    channel(slug: $slug) {\n      id slug name plan billingState approved role permissions\n      liveSlots { used total }\n    }\n  }\n"): (typeof documents)["\n  query Channel($slug: String!) {\n    channel(slug: $slug) {\n      id slug name plan billingState approved role permissions\n      liveSlots { used total }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BroadcastFields on Broadcast {\n    id slug channelSlug title source sourceUrl scheduledAt startedAt endedAt state visibility discipline language tags replayUrl\n    ingest { serverUrl streamKey }\n  }\n"): (typeof documents)["\n  fragment BroadcastFields on Broadcast {\n    id slug channelSlug title source sourceUrl scheduledAt startedAt endedAt state visibility discipline language tags replayUrl\n    ingest { serverUrl streamKey }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HealthFields on Broadcast {\n    health { signal bitrateKbps resolution fps viewers warnings { code message } updatedAt }\n  }\n"): (typeof documents)["\n  fragment HealthFields on Broadcast {\n    health { signal bitrateKbps resolution fps viewers warnings { code message } updatedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DeliveryFields on WebhookDelivery {\n    id eventId event status attempt nextAttemptAt replayOf lastStatusCode lastError createdAt completedAt\n    attempts { attemptNo startedAt durationMs requestHeaders statusCode error responseExcerpt }\n  }\n"): (typeof documents)["\n  fragment DeliveryFields on WebhookDelivery {\n    id eventId event status attempt nextAttemptAt replayOf lastStatusCode lastError createdAt completedAt\n    attempts { attemptNo startedAt durationMs requestHeaders statusCode error responseExcerpt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription BroadcastUpdated($slug: String!) {\n    broadcastUpdated(channelSlug: $slug) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n"): (typeof documents)["\n  subscription BroadcastUpdated($slug: String!) {\n    broadcastUpdated(channelSlug: $slug) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription BroadcastHealthChanged($id: ID!) {\n    broadcastHealthChanged(broadcastId: $id) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n"): (typeof documents)["\n  subscription BroadcastHealthChanged($id: ID!) {\n    broadcastHealthChanged(broadcastId: $id) {\n      ...BroadcastFields\n      ...HealthFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription WebhookDeliveryUpdated($slug: String!) {\n    webhookDeliveryUpdated(channelSlug: $slug) {\n      ...DeliveryFields\n    }\n  }\n"): (typeof documents)["\n  subscription WebhookDeliveryUpdated($slug: String!) {\n    webhookDeliveryUpdated(channelSlug: $slug) {\n      ...DeliveryFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateBroadcast($slug: String!, $input: BroadcastInput!) {\n    createBroadcast(channel: $slug, input: $input) { ...BroadcastFields }\n  }\n"): (typeof documents)["\n  mutation CreateBroadcast($slug: String!, $input: BroadcastInput!) {\n    createBroadcast(channel: $slug, input: $input) { ...BroadcastFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateBroadcast($id: ID!, $input: BroadcastPatch!) {\n    updateBroadcast(id: $id, input: $input) { ...BroadcastFields }\n  }\n"): (typeof documents)["\n  mutation UpdateBroadcast($id: ID!, $input: BroadcastPatch!) {\n    updateBroadcast(id: $id, input: $input) { ...BroadcastFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BroadcastDetail($slug: String!, $id: ID!) {\n    channel(slug: $slug) {\n      id\n      broadcast(id: $id) {\n        ...BroadcastFields\n        ...HealthFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query BroadcastDetail($slug: String!, $id: ID!) {\n    channel(slug: $slug) {\n      id\n      broadcast(id: $id) {\n        ...BroadcastFields\n        ...HealthFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GoLive($id: ID!) { goLive(id: $id) { ...BroadcastFields } }\n"): (typeof documents)["\n  mutation GoLive($id: ID!) { goLive(id: $id) { ...BroadcastFields } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EndBroadcast($id: ID!) { endBroadcast(id: $id) { ...BroadcastFields } }\n"): (typeof documents)["\n  mutation EndBroadcast($id: ID!) { endBroadcast(id: $id) { ...BroadcastFields } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateStreamKey($id: ID!) { rotateStreamKey(id: $id) { id ingest { serverUrl streamKey } } }\n"): (typeof documents)["\n  mutation RotateStreamKey($id: ID!) { rotateStreamKey(id: $id) { id ingest { serverUrl streamKey } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BroadcastList($slug: String!, $state: BroadcastState, $first: Int, $after: String) {\n    channel(slug: $slug) {\n      id\n      broadcasts(state: $state, first: $first, after: $after) {\n        edges { cursor node { id title state source scheduledAt startedAt endedAt visibility } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query BroadcastList($slug: String!, $state: BroadcastState, $first: Int, $after: String) {\n    channel(slug: $slug) {\n      id\n      broadcasts(state: $state, first: $first, after: $after) {\n        edges { cursor node { id title state source scheduledAt startedAt endedAt visibility } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeliveryLog($slug: String!) {\n    channel(slug: $slug) {\n      id\n      webhookEndpoints {\n        id url enabled\n        deliveries(first: 50) {\n          ...DeliveryFields\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DeliveryLog($slug: String!) {\n    channel(slug: $slug) {\n      id\n      webhookEndpoints {\n        id url enabled\n        deliveries(first: 50) {\n          ...DeliveryFields\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverWebhookDelivery($id: ID!) { redeliverWebhookDelivery(id: $id) { id status } }\n"): (typeof documents)["\n  mutation RedeliverWebhookDelivery($id: ID!) { redeliverWebhookDelivery(id: $id) { id status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecoverWebhookDeliveries($endpoint: ID!, $since: DateTimeISO!, $until: DateTimeISO) {\n    recoverWebhookDeliveries(endpoint: $endpoint, since: $since, until: $until) { id }\n  }\n"): (typeof documents)["\n  mutation RecoverWebhookDeliveries($endpoint: ID!, $since: DateTimeISO!, $until: DateTimeISO) {\n    recoverWebhookDeliveries(endpoint: $endpoint, since: $since, until: $until) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChannelKeys($slug: String!) {\n    channel(slug: $slug) { id apiKeys { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n"): (typeof documents)["\n  query ChannelKeys($slug: String!) {\n    channel(slug: $slug) { id apiKeys { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateChannelKey($slug: String!, $name: String!, $scopes: [ChannelScope!]!) {\n    createChannelApiKey(channel: $slug, name: $name, scopes: $scopes) { secret key { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n"): (typeof documents)["\n  mutation CreateChannelKey($slug: String!, $name: String!, $scopes: [ChannelScope!]!) {\n    createChannelApiKey(channel: $slug, name: $name, scopes: $scopes) { secret key { id name prefix scopes createdAt revokedAt lastUsedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeChannelKey($slug: String!, $id: ID!) {\n    revokeChannelApiKey(channel: $slug, id: $id) { id revokedAt }\n  }\n"): (typeof documents)["\n  mutation RevokeChannelKey($slug: String!, $id: ID!) {\n    revokeChannelApiKey(channel: $slug, id: $id) { id revokedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyChannels {\n    viewer { id email channels { id slug name role } }\n  }\n"): (typeof documents)["\n  query MyChannels {\n    viewer { id email channels { id slug name role } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOut { logout }\n"): (typeof documents)["\n  mutation SignOut { logout }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn($email: String!, $password: String!) {\n    login(email: $email, password: $password) { token expiresAt }\n  }\n"): (typeof documents)["\n  mutation SignIn($email: String!, $password: String!) {\n    login(email: $email, password: $password) { token expiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpoints($slug: String!) {\n    channel(slug: $slug) { id webhookEndpoints { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n"): (typeof documents)["\n  query WebhookEndpoints($slug: String!) {\n    channel(slug: $slug) { id webhookEndpoints { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhookEndpoint($slug: String!, $url: String!, $events: [ChannelWebhookEvent!]!) {\n    createWebhookEndpoint(channel: $slug, url: $url, events: $events) { secret endpoint { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n"): (typeof documents)["\n  mutation CreateWebhookEndpoint($slug: String!, $url: String!, $events: [ChannelWebhookEvent!]!) {\n    createWebhookEndpoint(channel: $slug, url: $url, events: $events) { secret endpoint { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhookEndpointEnabled($id: ID!, $enabled: Boolean!) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { id enabled disabledReason }\n  }\n"): (typeof documents)["\n  mutation SetWebhookEndpointEnabled($id: ID!, $enabled: Boolean!) {\n    updateWebhookEndpoint(id: $id, enabled: $enabled) { id enabled disabledReason }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"): (typeof documents)["\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($id: ID!, $switchAt: DateTimeISO) {\n    rotateWebhookSecret(id: $id, switchAt: $switchAt) { secret switchAt endpoint { id secretSwitchAt } }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($id: ID!, $switchAt: DateTimeISO) {\n    rotateWebhookSecret(id: $id, switchAt: $switchAt) { secret switchAt endpoint { id secretSwitchAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PingWebhookEndpoint($id: ID!) { pingWebhookEndpoint(id: $id) { id status event createdAt } }\n"): (typeof documents)["\n  mutation PingWebhookEndpoint($id: ID!) { pingWebhookEndpoint(id: $id) { id status event createdAt } }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;