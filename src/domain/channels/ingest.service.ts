import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { hashToken } from '../partners/api-key.token';
import type { Transactional } from '../unit-of-work';
import { computeHealth, type Health } from './broadcast-health';
import type { BroadcastService } from './broadcast.service';
import type { Principal } from './channel-access';
import type { IngestRepository, TelemetryMetrics } from './ingest.repository';

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
  constructor(
    private readonly storage: Transactional<IngestRepository>,
    private readonly clock: Clock,
    private readonly broadcasts: BroadcastService,
  ) {}

  /** Allows a publish only for a current key of a broadcast that has not ended. */
  async onPublish(streamKey: string): Promise<{ broadcastId: string }> {
    return this.storage.run(undefined, async (repo) => {
      const b = await this.byKey(repo, streamKey);
      if (b.state === 'ended' || b.state === 'replay') throw new DomainError('forbidden', 'this broadcast has ended');
      await this.save(repo, b.id, true, null);
      return { broadcastId: b.id };
    });
  }

  async onPublishDone(streamKey: string): Promise<void> {
    await this.storage.run(undefined, async (repo) => {
      const b = await this.byKey(repo, streamKey);
      await this.save(repo, b.id, false, null);
    });
  }

  async report(streamKey: string, m: IngestMetrics): Promise<void> {
    const bad = (v: unknown, max: number) => v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max);
    if (bad(m.bitrate_kbps, 1_000_000) || bad(m.fps, 1000) || bad(m.viewers, 1e9))
      throw new DomainError('invalid_metrics', 'bitrate_kbps, fps and viewers must be non-negative numbers');
    if (m.resolution != null && (typeof m.resolution !== 'string' || !/^\d{2,5}x\d{2,5}$/.test(m.resolution)))
      throw new DomainError('invalid_metrics', 'resolution must look like 1920x1080');
    await this.storage.run(undefined, async (repo) => {
      const b = await this.byKey(repo, streamKey);
      await this.save(repo, b.id, true, {
        bitrate_kbps: m.bitrate_kbps == null ? null : Math.round(m.bitrate_kbps),
        resolution: m.resolution ?? null,
        fps: m.fps ?? null,
        viewers: m.viewers == null ? null : Math.round(m.viewers),
      });
    });
  }

  async recordingDone(streamKey: string, replayUrl: string): Promise<void> {
    if (!/^https:\/\/[^\s\u0000-\u001f\u007f]+$/.test(replayUrl)) throw new DomainError('invalid_replay_url', 'replay_url must be an https URL');
    const b = await this.byKey(this.storage.read(), streamKey);
    await this.broadcasts.recordingReady(b.id, replayUrl);
  }

  /** A broadcast's health, for a principal who may read its channel. */
  async health(principal: Principal, broadcastId: string): Promise<Health> {
    const b = await this.broadcasts.get(principal, broadcastId);
    const t = await this.storage.read().telemetry(b.id);
    return computeHealth(b, t, this.clock.now());
  }

  private async byKey(repo: IngestRepository, streamKey: string): Promise<{ id: string; state: string }> {
    if (typeof streamKey !== 'string' || !streamKey.startsWith('sk_') || streamKey.length > 100) throw new DomainError('forbidden', 'unknown stream key');
    const b = await repo.broadcastByStreamKeyHash(hashToken(streamKey));
    if (!b) throw new DomainError('forbidden', 'unknown stream key');
    return b;
  }

  /** The telemetry and the studio's announcement, in the caller's transaction. */
  private async save(repo: IngestRepository, broadcastId: string, publishing: boolean, metrics: TelemetryMetrics | null): Promise<void> {
    await repo.saveTelemetry(broadcastId, publishing, metrics, this.clock.now());
    await repo.changed({ topics: ['studio'] });
  }
}
