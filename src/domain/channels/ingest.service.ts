import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { hashToken } from '../partners/api-key.token';
import { announceChange } from '../announce-change';
import { inTransaction, sql } from '../unit-of-work';
import { computeHealth, type Health, type Telemetry } from './broadcast-health';
import type { BroadcastService } from './broadcast.service';
import type { Principal } from './channel-access';

export interface IngestMetrics {
  bitrate_kbps?: number | null;
  resolution?: string | null;
  fps?: number | null;
  viewers?: number | null;
}

/**
 * What the media server tells us: a publish starting or stopping (nginx-rtmp's on_publish /
 * on_publish_done, which pass the stream key as `name`), periodic metrics, and a finished
 * recording. A stream key identifies the broadcast; a rotated key stops working at once.
 */
export class IngestService {
  constructor(private readonly root: EntityManager, private readonly clock: Clock, private readonly broadcasts: BroadcastService) {}

  /** Allows a publish only for a current key of a broadcast that has not ended. */
  async onPublish(streamKey: string): Promise<{ broadcastId: string }> {
    return inTransaction(this.root, undefined, async (em) => {
      const b = await this.byKey(em, streamKey);
      if (b.state === 'ended' || b.state === 'replay') throw new DomainError('forbidden', 'this broadcast has ended');
      await this.upsert(em, b.id, { publishing: true });
      return { broadcastId: b.id };
    });
  }

  async onPublishDone(streamKey: string): Promise<void> {
    await inTransaction(this.root, undefined, async (em) => {
      const b = await this.byKey(em, streamKey);
      await this.upsert(em, b.id, { publishing: false });
    });
  }

  async report(streamKey: string, m: IngestMetrics): Promise<void> {
    const bad = (v: unknown, max: number) => v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max);
    if (bad(m.bitrate_kbps, 1_000_000) || bad(m.fps, 1000) || bad(m.viewers, 1e9)) throw new DomainError('invalid_metrics', 'bitrate_kbps, fps and viewers must be non-negative numbers');
    if (m.resolution != null && (typeof m.resolution !== 'string' || !/^\d{2,5}x\d{2,5}$/.test(m.resolution))) throw new DomainError('invalid_metrics', 'resolution must look like 1920x1080');
    await inTransaction(this.root, undefined, async (em) => {
      const b = await this.byKey(em, streamKey);
      await this.upsert(em, b.id, {
        publishing: true,
        bitrate_kbps: m.bitrate_kbps == null ? null : Math.round(m.bitrate_kbps),
        resolution: m.resolution ?? null,
        fps: m.fps ?? null,
        viewers: m.viewers == null ? null : Math.round(m.viewers),
      });
    });
  }

  async recordingDone(streamKey: string, replayUrl: string): Promise<void> {
    if (!/^https:\/\/[^\s\u0000-\u001f\u007f]+$/.test(replayUrl)) throw new DomainError('invalid_replay_url', 'replay_url must be an https URL');
    const b = await this.byKey(this.root.fork(), streamKey);
    await this.broadcasts.recordingReady(b.id, replayUrl);
  }

  /** A broadcast's health, for a principal who may read its channel. */
  async health(principal: Principal, broadcastId: string): Promise<Health> {
    const b = await this.broadcasts.get(principal, broadcastId);
    const [t] = await sql<Telemetry[]>(this.root.fork(),
      `select publishing, bitrate_kbps, resolution, fps, viewers, reported_at from broadcast_telemetry where broadcast_id = ?`, [b.id]);
    return computeHealth(b, t ?? null, this.clock.now());
  }

  private async byKey(em: EntityManager, streamKey: string): Promise<{ id: string; state: string }> {
    if (typeof streamKey !== 'string' || !streamKey.startsWith('sk_') || streamKey.length > 100) throw new DomainError('forbidden', 'unknown stream key');
    const [b] = await sql<{ id: string; state: string }[]>(em, `select id, state from broadcast where stream_key_hash = ?`, [hashToken(streamKey)]);
    if (!b) throw new DomainError('forbidden', 'unknown stream key');
    return b;
  }

  private async upsert(em: EntityManager, broadcastId: string, t: Partial<Telemetry> & { publishing: boolean }): Promise<void> {
    const keep = t.bitrate_kbps === undefined;
    await sql(em,
      `insert into broadcast_telemetry (broadcast_id, publishing, bitrate_kbps, resolution, fps, viewers, reported_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (broadcast_id) do update set publishing = excluded.publishing, reported_at = excluded.reported_at
         ${keep ? '' : ', bitrate_kbps = excluded.bitrate_kbps, resolution = excluded.resolution, fps = excluded.fps, viewers = excluded.viewers'}`,
      [broadcastId, t.publishing, t.bitrate_kbps ?? null, t.resolution ?? null, t.fps ?? null, t.viewers ?? null, this.clock.now()]);
    await announceChange(em, 'studio');
  }
}
