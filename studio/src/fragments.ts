import { graphql } from './gql';

/** The fields of a broadcast every screen shows, and its health: one selection, so that the cache fills both alike. */
export const BroadcastFields = graphql(`
  fragment BroadcastFields on Broadcast {
    id slug channelSlug title source sourceUrl scheduledAt startedAt endedAt state visibility discipline language tags replayUrl
    ingest { serverUrl streamKey }
  }
`);

export const HealthFields = graphql(`
  fragment HealthFields on Broadcast {
    health { signal bitrateKbps resolution fps viewers warnings { code message } updatedAt }
  }
`);

/** A delivery as the log shows it, with its attempts. */
export const DeliveryFields = graphql(`
  fragment DeliveryFields on WebhookDelivery {
    id eventId event status attempt nextAttemptAt replayOf lastStatusCode lastError createdAt completedAt
    attempts { attemptNo startedAt durationMs requestHeaders statusCode error responseExcerpt }
  }
`);
