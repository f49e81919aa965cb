import type { Clock } from '../clock';
import type { DomainError } from '../errors';
import { hashToken } from '../partners/api-key.token';
import type { Change, Transactional } from '../unit-of-work';
import type { Telemetry } from './broadcast-health';
import type { BroadcastService } from './broadcast.service';
import type { IngestRepository, TelemetryMetrics } from './ingest.repository';
import { IngestService } from './ingest.service';

/** IngestService's rules on an in-memory repository (no database); the upsert's SQL is tested end to end in test/e2e/tv. */
class FakeIngestRepository implements IngestRepository {
  readonly broadcasts = new Map<string, { id: string; state: string }>();
  readonly telemetries = new Map<string, Telemetry>();
  /** What happened, in order: saves and announcements, each within its transaction. */
  readonly log: string[] = [];

  async broadcastByStreamKeyHash(hash: string) {
    return this.broadcasts.get(hash) ?? null;
  }
  async saveTelemetry(broadcastId: string, publishing: boolean, metrics: TelemetryMetrics | null, at: Date) {
    const last = this.telemetries.get(broadcastId);
    const kept = metrics ?? {
      bitrate_kbps: last?.bitrate_kbps ?? null,
      resolution: last?.resolution ?? null,
      fps: last?.fps ?? null,
      viewers: last?.viewers ?? null,
    };
    this.telemetries.set(broadcastId, { publishing, ...kept, reported_at: at });
    this.log.push(`save ${broadcastId}`);
  }
  async telemetry(broadcastId: string) {
    return this.telemetries.get(broadcastId) ?? null;
  }
  async changed(change: Change) {
    this.log.push(...(change.topics ?? []).map((t) => `announce ${t}`));
  }
}

const NOW = new Date('2030-06-01T12:00:00Z');
const clock: Clock = { now: () => new Date(NOW), today: () => '2030-06-01' };
const KEY = 'sk_live_key';
let repo: FakeIngestRepository;
let ingest: IngestService;
let transactions: number;
let recordings: [string, string][];
beforeEach(() => {
  repo = new FakeIngestRepository();
  repo.broadcasts.set(hashToken(KEY), { id: 'b1', state: 'live' });
  transactions = 0;
  recordings = [];
  const storage: Transactional<IngestRepository> = {
    run: (_tx, fn) => {
      transactions++;
      return fn(repo);
    },
    read: () => repo,
  };
  const broadcasts = {
    recordingReady: async (id: string, url: string) => {
      recordings.push([id, url]);
    },
  } as unknown as BroadcastService;
  ingest = new IngestService(storage, clock, broadcasts);
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: DomainError) => `${e.code}: ${e.message}`,
  );

describe('telemetry', () => {
  it('a report saves rounded metrics and announces the studio change in the same transaction', async () => {
    await ingest.report(KEY, { bitrate_kbps: 4500.6, resolution: '1920x1080', fps: 29.97, viewers: 10.4 });
    expect(repo.telemetries.get('b1')).toEqual({ publishing: true, bitrate_kbps: 4501, resolution: '1920x1080', fps: 29.97, viewers: 10, reported_at: NOW });
    expect(repo.log).toEqual(['save b1', 'announce studio']);
    expect(transactions).toBe(1);
  });

  it('publish start and stop keep the last metrics; an absent metric is null', async () => {
    await ingest.report(KEY, { bitrate_kbps: 3000 });
    await ingest.onPublishDone(KEY);
    expect(repo.telemetries.get('b1')).toEqual({ publishing: false, bitrate_kbps: 3000, resolution: null, fps: null, viewers: null, reported_at: NOW });
    expect(await ingest.onPublish(KEY)).toEqual({ broadcastId: 'b1' });
    expect(repo.telemetries.get('b1')?.publishing).toBe(true);
    expect(repo.log).toEqual(['save b1', 'announce studio', 'save b1', 'announce studio', 'save b1', 'announce studio']);
  });

  it.each([
    [{ bitrate_kbps: -1 }, 'bitrate_kbps, fps and viewers must be non-negative numbers'],
    [{ fps: 1001 }, 'bitrate_kbps, fps and viewers must be non-negative numbers'],
    [{ viewers: Number.NaN }, 'bitrate_kbps, fps and viewers must be non-negative numbers'],
    [{ bitrate_kbps: '3000' as never }, 'bitrate_kbps, fps and viewers must be non-negative numbers'],
    [{ resolution: '1080p' }, 'resolution must look like 1920x1080'],
    [{ resolution: 1080 as never }, 'resolution must look like 1920x1080'],
  ])('refuses %j before looking the key up', async (metrics, message) => {
    expect(await refusal(ingest.report('sk_unknown', metrics))).toBe(`invalid_metrics: ${message}`);
    expect(transactions).toBe(0);
  });

  it('an unknown or malformed stream key is forbidden; an ended broadcast may not publish', async () => {
    expect(await refusal(ingest.report('sk_unknown', {}))).toBe('forbidden: unknown stream key');
    expect(await refusal(ingest.onPublish('not-a-stream-key'))).toBe('forbidden: unknown stream key');
    repo.broadcasts.set(hashToken('sk_ended'), { id: 'b2', state: 'ended' });
    expect(await refusal(ingest.onPublish('sk_ended'))).toBe('forbidden: this broadcast has ended');
    expect(repo.log).toEqual([]);
  });
});

describe('a finished recording', () => {
  it('needs an https replay URL, then makes the broadcast a replay', async () => {
    expect(await refusal(ingest.recordingDone(KEY, 'http://cdn.example/r.mp4'))).toBe('invalid_replay_url: replay_url must be an https URL');
    await ingest.recordingDone(KEY, 'https://cdn.example/r.mp4');
    expect(recordings).toEqual([['b1', 'https://cdn.example/r.mp4']]);
  });
});
