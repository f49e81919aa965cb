import { useSubscription } from 'urql';
import { graphql } from './gql';

/**
 * The studio's live updates: GraphQL subscriptions over graphql-ws on /graphql. Each result goes
 * into the normalized cache (client.ts), which updates every screen showing the same broadcast or
 * delivery; no screen polls or reloads.
 */
const BroadcastUpdated = graphql(`
  subscription BroadcastUpdated($slug: String!) {
    broadcastUpdated(channelSlug: $slug) {
      ...BroadcastFields
      ...HealthFields
    }
  }
`);

const HealthChanged = graphql(`
  subscription BroadcastHealthChanged($id: ID!) {
    broadcastHealthChanged(broadcastId: $id) {
      ...BroadcastFields
      ...HealthFields
    }
  }
`);

const DeliveryUpdated = graphql(`
  subscription WebhookDeliveryUpdated($slug: String!) {
    webhookDeliveryUpdated(channelSlug: $slug) {
      ...DeliveryFields
    }
  }
`);

/** A channel's broadcasts changing state (the lists, the live slots). */
export const useLiveBroadcasts = (slug: string) => useSubscription({ query: BroadcastUpdated, variables: { slug } });

/** One broadcast's health reports. */
export const useLiveHealth = (id: string) => useSubscription({ query: HealthChanged, variables: { id } });

/** A channel's deliveries and their attempts. */
export const useLiveDeliveries = (slug: string) => useSubscription({ query: DeliveryUpdated, variables: { slug } });
