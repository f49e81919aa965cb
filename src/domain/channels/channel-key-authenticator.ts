import type { Connection } from '@mikro-orm/core';
import { LocalChangeFeed, type ChangeFeed } from '../../db/change-feed';
import { VersionedCache } from '../../lib/versioned-cache';
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

/**
 * Resolves a channel key (`ck_...`) to its channel. Like partner keys: cached by the token's
 * SHA-256, unknown keys included, until the `channel_keys` topic changes on any instance.
 */
export class ChannelKeyAuthenticator {
  private readonly rows: VersionedCache<Row | null>;

  constructor(
    private readonly connection: () => Connection,
    fallbackTtlMs: number,
    changes: Pick<ChangeFeed, 'version' | 'live'> = new LocalChangeFeed(),
  ) {
    this.rows = new VersionedCache({ feed: changes, topics: ['channel_keys'], fallbackTtlMs, maxEntries: 10_000 });
  }

  async authenticate(token: string): Promise<ChannelPrincipal> {
    const hash = hashToken(token);
    const row = await this.rows.get(hash, async () => {
      const rows = await this.connection().execute<Row[]>(`select id, name, prefix, channel_id, scopes, revoked_at from channel_api_key where hash = ?`, [
        hash,
      ]);
      return rows[0] ?? null;
    });
    if (!row) throw new DomainError('invalid_key', 'the channel key is not recognised');
    if (row.revoked_at) throw new DomainError('invalid_key', 'the channel key has been revoked');
    return { kind: 'channel', keyId: row.id, keyName: row.name, keyPrefix: row.prefix, channelId: row.channel_id, scopes: row.scopes };
  }
}
