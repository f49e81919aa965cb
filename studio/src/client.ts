import { cacheExchange, type Cache } from '@urql/exchange-graphcache';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { Client, fetchExchange, mapExchange, subscriptionExchange } from 'urql';
import { setSession, type Session } from './session';

/** Objects without an id of their own: kept inside their parent in the normalized cache. */
const EMBEDDED = [
  'LiveSlots', 'BroadcastHealth', 'HealthWarning', 'Ingest', 'PageInfo', 'BroadcastConnection', 'BroadcastEdge', 'Session',
  'CreatedChannelApiKey', 'CreatedWebhookEndpoint', 'RotatedWebhookSecret', 'WebhookAttempt',
];

/** The keys of every cached entity of `typename` reachable from the queries' roots. */
function entitiesOf(cache: Cache, typename: string): string[] {
  const seen = new Set<string>();
  const walk = (key: string) => {
    for (const f of cache.inspectFields(key)) {
      const link = cache.resolve(key, f.fieldKey);
      for (const l of Array.isArray(link) ? link.flat(2) : [link]) {
        if (typeof l !== 'string' || seen.has(l) || !/^[A-Za-z]+:/.test(l)) continue;
        seen.add(l);
        walk(l);
      }
    }
  };
  walk('Query');
  return [...seen].filter((key) => key.startsWith(`${typename}:`));
}

/** Drops every cached value of `fields` on every cached entity of `typename`: the screens showing them ask again. */
function invalidate(cache: Cache, typename: string, ...fields: string[]): void {
  for (const key of entitiesOf(cache, typename)) {
    for (const f of cache.inspectFields(key)) if (fields.includes(f.fieldName)) cache.invalidate(key, f.fieldName, f.arguments ?? undefined);
  }
}

/** Whether a delivery is already listed in some endpoint's cached log (then the cache updates it in place). */
function listed(cache: Cache, id: string): boolean {
  const key = cache.keyOfEntity({ __typename: 'WebhookDelivery', id });
  return entitiesOf(cache, 'WebhookEndpoint').some((endpoint) => cache.inspectFields(endpoint)
    .filter((f) => f.fieldName === 'deliveries')
    .some((f) => {
      const list = cache.resolve(endpoint, f.fieldKey);
      return Array.isArray(list) && (list as unknown[]).includes(key);
    }));
}

const graphcache = () => cacheExchange({
  keys: Object.fromEntries(EMBEDDED.map((t) => [t, () => null])),
  updates: {
    Mutation: {
      createBroadcast: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'broadcasts'),
      goLive: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'broadcasts', 'liveSlots'),
      endBroadcast: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'broadcasts', 'liveSlots'),
      createChannelApiKey: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'apiKeys'),
      createWebhookEndpoint: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'webhookEndpoints'),
      deleteWebhookEndpoint: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'webhookEndpoints'),
      pingWebhookEndpoint: (_r, _a, cache) => invalidate(cache, 'WebhookEndpoint', 'deliveries'),
      redeliverWebhookDelivery: (_r, _a, cache) => invalidate(cache, 'WebhookEndpoint', 'deliveries'),
      recoverWebhookDeliveries: (_r, _a, cache) => invalidate(cache, 'WebhookEndpoint', 'deliveries'),
    },
    Subscription: {
      // a broadcast that changed state moves between the lists (which filter by state)
      broadcastUpdated: (_r, _a, cache) => invalidate(cache, 'StudioChannel', 'broadcasts', 'liveSlots'),
      // a known delivery is updated in place by the normalized cache; a new one joins its log
      webhookDeliveryUpdated: (r, _a, cache) => {
        const d = r.webhookDeliveryUpdated as { id?: string } | undefined;
        if (d?.id && !listed(cache, d.id)) invalidate(cache, 'WebhookEndpoint', 'deliveries');
      },
    },
  },
});

const SESSION_OVER = new Set(['unauthenticated', 'invalid_key']);

export interface StudioClient {
  client: Client;
  /** Closes the subscription socket. */
  close(): void;
}

/**
 * The GraphQL client of a session (or of nobody, for the sign-in screen): queries and mutations
 * over HTTP to /graphql, subscriptions over graphql-ws on the same path, the session token in
 * `connection_init`. A refusal of the session signs out.
 */
export function studioClient(session: Session | null): StudioClient {
  let ws: WsClient | null = null;
  if (session) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    ws = createWsClient({
      url,
      connectionParams: { token: session.token },
      lazy: true,
      retryAttempts: 20,
      // 4401: the session is over (signed out elsewhere, expired); 4403: a role was revoked; 4429: too many sockets
      shouldRetry: (e) => !(e && typeof e === 'object' && 'code' in e && [4400, 4401, 4403, 4429].includes((e as CloseEvent).code)),
      on: {
        closed: (e) => {
          if (e && typeof e === 'object' && 'code' in e && (e as CloseEvent).code === 4401) setSession(null);
        },
      },
    });
  }
  const client = new Client({
    url: '/graphql',
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: (): RequestInit => ({ headers: session ? { authorization: `Bearer ${session.token}` } : {} }),
    exchanges: [
      mapExchange({
        onError(error) {
          if (session && error.graphQLErrors.some((e) => SESSION_OVER.has(String(e.extensions?.code)))) setSession(null);
        },
      }),
      graphcache(),
      fetchExchange,
      ...(ws
        ? [subscriptionExchange({
            forwardSubscription(request) {
              const input = { ...request, query: request.query || '' };
              return {
                subscribe(sink) {
                  const unsubscribe = ws!.subscribe(input, sink);
                  return { unsubscribe };
                },
              };
            },
          })]
        : []),
    ],
  });
  return { client, close: () => void ws?.dispose() };
}
