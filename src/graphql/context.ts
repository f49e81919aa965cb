import DataLoader from 'dataloader';
import type { Container } from '../container';
import type { Telemetry } from '../domain/channels/broadcast-health';
import { DomainError } from '../domain/errors';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import type { ChannelApiKey } from './graphql.types';

export interface Loaders {
  liveSlotsUsed: DataLoader<string, number>;
  telemetry: DataLoader<string, Telemetry | null>;
  apiKeys: DataLoader<string, ChannelApiKey[]>;
}

export interface GqlContext {
  c: Container;
  principal: StudioPrincipal | null;
  loaders: Loaders;
  /** The client's address, for the failed-sign-in budget. */
  clientIp: string;
}

export function signedIn(ctx: GqlContext): StudioPrincipal {
  if (!ctx.principal) throw new DomainError('unauthenticated', 'sign in first: send "Authorization: Bearer <session token>" (mutation login)');
  return ctx.principal;
}

const ids = (keys: readonly string[]) => `{${keys.join(',')}}`;

/** Fresh loaders per request: relations load in one statement per kind, whatever the counts (D9.5). */
export function createLoaders(c: Container): Loaders {
  const conn = () => c.orm.em.getConnection('read');
  return {
    liveSlotsUsed: new DataLoader(async (keys) => {
      const rows = await conn().execute<{ channel_id: string; n: number }[]>(
        `select channel_id, count(*)::int as n from broadcast where state = 'live' and channel_id = any(?::uuid[]) group by channel_id`, [ids(keys)]);
      const by = new Map(rows.map((r) => [r.channel_id, r.n]));
      return keys.map((k) => by.get(k) ?? 0);
    }),
    telemetry: new DataLoader(async (keys) => {
      const rows = await conn().execute<(Telemetry & { broadcast_id: string })[]>(
        `select broadcast_id, publishing, bitrate_kbps, resolution, fps, viewers, reported_at from broadcast_telemetry where broadcast_id = any(?::uuid[])`, [ids(keys)]);
      const by = new Map(rows.map((r) => [r.broadcast_id, r]));
      return keys.map((k) => by.get(k) ?? null);
    }),
    apiKeys: new DataLoader(async (keys) => {
      const rows = await conn().execute<{ id: string; channel_id: string; name: string; prefix: string; scopes: string[]; created_at: Date; revoked_at: Date | null; last_used_at: Date | null }[]>(
        `select id, channel_id, name, prefix, scopes, created_at, revoked_at, last_used_at from channel_api_key where channel_id = any(?::uuid[]) order by created_at, id`, [ids(keys)]);
      return keys.map((k) => rows.filter((r) => r.channel_id === k).map((r) => ({
        id: r.id, name: r.name, prefix: r.prefix, scopes: r.scopes, createdAt: new Date(r.created_at), revokedAt: r.revoked_at && new Date(r.revoked_at), lastUsedAt: r.last_used_at && new Date(r.last_used_at),
      })));
    }),
  };
}
