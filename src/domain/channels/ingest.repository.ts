import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, transactional, type Change, type Changed, type Transactional, type UnitOfWork } from '../unit-of-work';
import type { Telemetry } from './broadcast-health';

/** What the media server measures of a publish. */
export type TelemetryMetrics = Pick<Telemetry, 'bitrate_kbps' | 'resolution' | 'fps' | 'viewers'>;

/** What IngestService asks of storage: only that. */
export interface IngestRepository {
  /** The broadcast of a stream key's hash (its id and state), or null. */
  broadcastByStreamKeyHash(hash: string): Promise<{ id: string; state: string } | null>;
  /** Whether the broadcast publishes, as of `at`; `metrics` replace the last ones, null keeps them. */
  saveTelemetry(broadcastId: string, publishing: boolean, metrics: TelemetryMetrics | null, at: Date): Promise<void>;
  /** The broadcast's last telemetry, or null. */
  telemetry(broadcastId: string): Promise<Telemetry | null>;
  /** States what the transaction changed (topics to announce); the unit of work runs the rest. */
  changed(change: Change): Promise<void>;
}

/** The repository on a transaction's EntityManager (or a fresh fork, for reads). */
export class MikroIngestRepository implements IngestRepository {
  constructor(
    private readonly em: EntityManager,
    readonly changed: Changed,
  ) {}

  async broadcastByStreamKeyHash(hash: string): Promise<{ id: string; state: string } | null> {
    const [b] = await sql<{ id: string; state: string }[]>(this.em, `select id, state from broadcast where stream_key_hash = ?`, [hash]);
    return b ?? null;
  }

  async saveTelemetry(broadcastId: string, publishing: boolean, metrics: TelemetryMetrics | null, at: Date): Promise<void> {
    await sql(
      this.em,
      `insert into broadcast_telemetry (broadcast_id, publishing, bitrate_kbps, resolution, fps, viewers, reported_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (broadcast_id) do update set publishing = excluded.publishing, reported_at = excluded.reported_at
         ${metrics ? ', bitrate_kbps = excluded.bitrate_kbps, resolution = excluded.resolution, fps = excluded.fps, viewers = excluded.viewers' : ''}`,
      [broadcastId, publishing, metrics?.bitrate_kbps ?? null, metrics?.resolution ?? null, metrics?.fps ?? null, metrics?.viewers ?? null, at],
    );
  }

  async telemetry(broadcastId: string): Promise<Telemetry | null> {
    const [t] = await sql<Telemetry[]>(
      this.em,
      `select publishing, bitrate_kbps, resolution, fps, viewers, reported_at from broadcast_telemetry where broadcast_id = ?`,
      [broadcastId],
    );
    return t ?? null;
  }
}

/** IngestService's storage on MikroORM. */
export function ingestStorage(uow: UnitOfWork): Transactional<IngestRepository> {
  return transactional(uow, (em, changed) => new MikroIngestRepository(em, changed));
}
