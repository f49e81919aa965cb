import DataLoader from 'dataloader';
import type { BroadcastService } from '../domain/channels/broadcast.service';
import type { Telemetry } from '../domain/channels/broadcast-health';
import type { ChannelService } from '../domain/channels/channel.service';
import type { StudioQueries } from '../domain/channels/studio.queries';
import type { TvQueries } from '../domain/channels/tv.queries';
import type { Clock } from '../domain/clock';
import type { AuthFailureGuard } from '../http/authenticate';
import { DomainError } from '../domain/errors';
import type { StudioAuthService, StudioPrincipal } from '../domain/studio/studio-auth.service';
import type { ChannelWebhookService } from '../webhooks/channel-webhook.service';
import type { AnswerSlot } from './answer-cache';
import type { ChannelApiKey } from './graphql.types';

export interface Loaders {
  liveSlotsUsed: DataLoader<string, number>;
  telemetry: DataLoader<string, Telemetry | null>;
  /** A channel's keys, or its refusal (the loader rejects that key alone) for a role that may not manage keys. */
  apiKeys: DataLoader<string, ChannelApiKey[]>;
}

/** What the studio's resolvers call: services and queries, never the ORM. */
export interface StudioServices {
  studioAuth: StudioAuthService;
  channels: ChannelService;
  broadcasts: BroadcastService;
  channelWebhooks: ChannelWebhookService;
  tv: TvQueries;
  studio: StudioQueries;
}

export interface GqlContext {
  principal: StudioPrincipal | null;
  services: StudioServices;
  loaders: Loaders;
  clock: Clock;
  ingestServerUrl: string;
  /** The client's address, for the failed-sign-in budget. */
  clientIp: string;
  authFailures: AuthFailureGuard;
  /** Where this request's answer may be kept (src/graphql/answer-cache.ts); null when it may not. */
  answer: AnswerSlot | null;
}

/** The parts of the running service a request's context is made from (the container has them). */
export interface GqlDeps {
  services: Omit<StudioServices, 'tv' | 'studio'>;
  queries: { tv: TvQueries; studio: StudioQueries };
  clock: Clock;
  config: { ingest: { serverUrl: string } };
  authFailures: AuthFailureGuard;
}

export function signedIn(ctx: GqlContext): StudioPrincipal {
  if (!ctx.principal) throw unauthenticated();
  return ctx.principal;
}

const unauthenticated = () => new DomainError('unauthenticated', 'sign in first: send "Authorization: Bearer <session token>" (mutation login)');

/** One request's context: its principal, the services, and fresh loaders. */
export function contextFor(d: GqlDeps, principal: StudioPrincipal | null, clientIp: string, answer: AnswerSlot | null = null): GqlContext {
  const { studioAuth, channels, broadcasts, channelWebhooks } = d.services;
  return {
    principal,
    services: { studioAuth, channels, broadcasts, channelWebhooks, tv: d.queries.tv, studio: d.queries.studio },
    loaders: createLoaders(d.queries.studio, principal),
    clock: d.clock,
    ingestServerUrl: d.config.ingest.serverUrl,
    clientIp,
    authFailures: d.authFailures,
    answer,
  };
}

/** Fresh loaders per request: relations load in one statement per kind, whatever the counts (docs/decisions.md#studio-statements). */
export function createLoaders(studio: StudioQueries, principal: StudioPrincipal | null): Loaders {
  return {
    liveSlotsUsed: new DataLoader((keys) => studio.liveSlotsUsed(keys)),
    telemetry: new DataLoader((keys) => studio.telemetry(keys)),
    // the domain decides per channel; a DomainError in the answer rejects that channel's load only
    apiKeys: new DataLoader<string, ChannelApiKey[]>(async (keys) => (principal ? studio.apiKeys(principal, keys) : keys.map(() => unauthenticated()))),
  };
}
