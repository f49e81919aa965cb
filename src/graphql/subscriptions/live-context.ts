import type { BroadcastRecord } from '../../domain/channels/broadcast.entities';
import type { Telemetry } from '../../domain/channels/broadcast-health';
import { GraphQLError } from 'graphql';
import type { DeliveryView } from '../../webhooks/delivery-log.service';
import type { StudioPrincipal } from '../../domain/studio/studio-auth.service';
import type { GqlContext } from '../context';
import type { LiveEvents, LiveSubject } from './live-events';

/** A changed row as loaded once for all its subscribers. */
export type LiveRecord =
  | { kind: 'broadcast' | 'health'; broadcast: BroadcastRecord; telemetry: Telemetry | null }
  | { kind: 'delivery'; delivery: DeliveryView };

/** What a subscription's stream hands to its resolver for each change. */
export interface LiveEvent {
  subject: LiveSubject;
  value: LiveRecord;
}

/** The socket a subscription runs on, as its resolvers see it. */
export interface LiveSocketView {
  /** The changes heard by this instance. */
  events: LiveEvents<LiveRecord>;
  /** Records the channel this subscription follows: a role revoked there closes the socket. */
  follows(channelId: string): void;
  /** The socket's principal now (re-read when sessions or roles change). */
  principal(): StudioPrincipal | null;
}

/** A subscription's context: the studio's context (made afresh for each change) and its socket. */
export interface LiveContext extends GqlContext {
  live: LiveSocketView;
}

/** The context of a subscription; a subscription reached any other way (HTTP) is refused in words. */
export function liveContext(ctx: GqlContext): LiveContext {
  const live = (ctx as Partial<LiveContext>).live;
  // Apollo answers the HTTP request with the status of extensions.http (and formatError drops it)
  if (!live) {
    throw new GraphQLError('subscriptions run over WebSocket on /graphql (graphql-ws, the graphql-transport-ws protocol), not over HTTP', {
      extensions: { code: 'websocket_required', http: { status: 400 } },
    });
  }
  return ctx as LiveContext;
}
