/**
 * Every named shape of the TV API, in the order of the document's `components/schemas`, and the
 * answer envelopes: the OpenAPI document (../openapi-tv.document.ts) is generated from this map.
 */
import { z } from 'zod';
import {
  Broadcast,
  BroadcastWithoutStreamKey,
  BroadcastWithStreamKey,
  ChannelRef,
  Health,
  HealthWarning,
  Ingest,
  PublicBroadcast,
} from '../../domain/channels/broadcast.schemas';
import { ErrorBody, PageMeta } from '../../http/schemas';
import { ChannelDetail, Me, PublicChannel } from './channel.schemas';
import { BroadcastCreate, BroadcastUpdate } from './request.schemas';

const single = (data: z.ZodType, description: string) => z.strictObject({ data }).meta({ description });
const page = (item: z.ZodType, itemsDescription: string, description: string) =>
  z.strictObject({ meta: PageMeta, data: z.array(item).meta({ description: itemsDescription }) }).meta({ description });

export const PublicBroadcastListResponse = page(PublicBroadcast, 'The broadcasts of this page.', 'A page of broadcasts.');
export const PublicChannelListResponse = page(PublicChannel, 'The channels of this page.', 'A page of approved channels.');

export const TV_COMPONENTS: Record<string, z.ZodType> = {
  ChannelRef,
  Ingest,
  Broadcast,
  BroadcastWithoutStreamKey,
  BroadcastWithStreamKey,
  PublicBroadcast,
  PublicChannel,
  ChannelDetail,
  Me,
  HealthWarning,
  Health,
  Meta: PageMeta,
  Error: ErrorBody,
  BroadcastCreate,
  BroadcastUpdate,
  PublicBroadcastListResponse,
  PublicBroadcastResponse: single(PublicBroadcast, 'One broadcast, as the public sees it.'),
  PublicChannelListResponse,
  ChannelDetailResponse: single(ChannelDetail, 'One channel with its broadcasts.'),
  MeResponse: single(Me, "The key's channel."),
  BroadcastResponse: single(Broadcast, "One broadcast of the key's channel."),
  BroadcastTransitionResponse: single(BroadcastWithoutStreamKey, 'The broadcast after the transition.'),
  StreamKeyResponse: single(BroadcastWithStreamKey, 'The broadcast with its new stream key.'),
  HealthResponse: single(Health, 'The health report.'),
};
