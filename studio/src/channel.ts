import { useQuery } from 'urql';
import { graphql } from './gql';
import type { ChannelPermission } from './gql/graphql';

export const ChannelQuery = graphql(`
  query Channel($slug: String!) {
    channel(slug: $slug) {
      id slug name plan billingState approved role permissions
      liveSlots { used total }
    }
  }
`);

/** The channel a screen shows, and what the signed-in role may do there (read from the API, not decided here). */
export function useChannel(slug: string) {
  const [result] = useQuery({ query: ChannelQuery, variables: { slug } });
  const channel = result.data?.channel ?? null;
  const can = (p: ChannelPermission) => !!channel?.permissions.includes(p);
  return { channel, can, fetching: result.fetching, error: result.error };
}

export const PLAN_NAMES = { FREE: 'Free', PRO: 'Pro', BROADCASTER: 'Broadcaster' } as const;
export const ROLE_NAMES = { OWNER: 'Owner', MANAGER: 'Manager', EDITOR: 'Editor', VIEWER: 'Viewer' } as const;
export const BILLING_NAMES = { ACTIVE: 'Active', TRIALING: 'Trialing', PAST_DUE: 'Past due', CANCELED: 'Canceled' } as const;
