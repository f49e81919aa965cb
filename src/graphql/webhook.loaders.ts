import DataLoader from 'dataloader';
import type { DomainError } from '../domain/errors';
import type { AttemptView, DeliveryView } from '../webhooks/delivery-log.service';
import type { ChannelEndpointView } from '../webhooks/channel-webhook.service';
import { signedIn, type GqlContext } from './context';

export interface WebhookLoaders {
  /** channel id -> its endpoints */
  endpoints: DataLoader<string, ChannelEndpointView[]>;
  /** endpoint id -> its newest `first` deliveries (one loader, so one statement, per value of `first`) */
  deliveries(first: number): DataLoader<string, DeliveryView[]>;
  /** delivery id -> its attempts */
  attempts: DataLoader<string, AttemptView[]>;
}

const perRequest = new WeakMap<GqlContext, WebhookLoaders>();

/** Keys in order: a refused or unknown key gets its DomainError, which DataLoader rejects that key with. */
const inOrder = <T>(keys: readonly string[], found: Map<string, T[] | DomainError>) => keys.map((k) => found.get(k) ?? []);

/**
 * The webhook loaders of this request, made on first use: each batches every key of the query
 * into one domain call (one SQL statement), which also checks the user's role (docs/decisions.md#studio-statements).
 */
export function webhookLoaders(ctx: GqlContext): WebhookLoaders {
  const existing = perRequest.get(ctx);
  if (existing) return existing;
  const principal = signedIn(ctx);
  const service = ctx.services.channelWebhooks;
  const byFirst = new Map<number, DataLoader<string, DeliveryView[]>>();
  const loaders: WebhookLoaders = {
    endpoints: new DataLoader<string, ChannelEndpointView[]>(async (keys) => inOrder(keys, await service.endpointsOf(principal, keys))),
    deliveries(first) {
      const loader =
        byFirst.get(first) ?? new DataLoader<string, DeliveryView[]>(async (keys) => inOrder(keys, await service.deliveriesOf(principal, keys, first)));
      byFirst.set(first, loader);
      return loader;
    },
    attempts: new DataLoader<string, AttemptView[]>(async (keys) => inOrder(keys, await service.attemptsOf(principal, keys))),
  };
  perRequest.set(ctx, loaders);
  return loaders;
}
