/**
 * The studio dashboard query: a channel with its live slots, 50 broadcasts with their health,
 * its keys, and its webhook endpoints with recent deliveries and their attempts.
 */
export const DASHBOARD = `query($slug: String!) { channel(slug: $slug) {
  slug plan billingState liveSlots { used total }
  broadcasts(first: 50) { edges { cursor node { id title state source ingest { serverUrl }
    health { signal bitrateKbps viewers warnings { code message } } } } pageInfo { hasNextPage } }
  apiKeys { id name prefix scopes revokedAt }
  webhookEndpoints { id url events enabled deliveries(first: 10) { id event status attempts { attemptNo statusCode durationMs } } }
} }`;
