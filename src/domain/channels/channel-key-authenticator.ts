import type { Connection } from '@mikro-orm/core';
import { TtlCache } from '../../lib/ttl-cache';
import { DomainError } from '../errors';
import { hashToken } from '../partners/api-key.token';

export interface ChannelPrincipal {
  kind: 'channel';
  keyId: string;
  keyName: string;
  keyPrefix: string;
  channelId: string;
  scopes: readonly string[];
}

interface Row {
  id: string;
  name: string;
  prefix: string;
  channel_id: string;
  scopes: string[];
  revoked_at: Date | null;
}

/** Resolves a channel key (`ck_...`) to its channel; cached for the read-cache time like partner keys. */
export class ChannelKeyAuthenticator {
  private readonly rows: TtlCache<Row | null>;

  constructor(private readonly connection: () => Connection, ttlMs: number) {
    this.rows = new TtlCache(ttlMs, 10_000);
  }

  async authenticate(token: string): Promise<ChannelPrincipal> {
    const row = await this.rows.get(token, async () => {
      const rows = await this.connection().execute<Row[]>(
        `select id, name, prefix, channel_id, scopes, revoked_at from channel_api_key where hash = ?`, [hashToken(token)]);
      return rows[0] ?? null;
    });
    if (!row) throw new DomainError('invalid_key', 'the channel key is not recognised');
    if (row.revoked_at) throw new DomainError('invalid_key', 'the channel key has been revoked');
    return { kind: 'channel', keyId: row.id, keyName: row.name, keyPrefix: row.prefix, channelId: row.channel_id, scopes: row.scopes };
  }
}
