/** Ingest telemetry older than this means the signal is lost (the media server reports every few seconds). */
export const TELEMETRY_STALE_MS = 15_000;
const LOW_BITRATE_KBPS = 1500;
const LOW_FPS = 24;

/** receiving: fresh ingest reports; no_signal: none, or too old; external: a source played from elsewhere (no metrics). */
export const SIGNALS = ['receiving', 'no_signal', 'external'] as const;
export type Signal = (typeof SIGNALS)[number];

export interface Telemetry {
  publishing: boolean;
  bitrate_kbps: number | null;
  resolution: string | null;
  fps: number | null;
  viewers: number | null;
  reported_at: Date;
}

export interface Health {
  broadcast_id: string;
  state: string;
  signal: Signal;
  bitrate_kbps: number | null;
  resolution: string | null;
  fps: number | null;
  viewers: number | null;
  warnings: { code: string; message: string }[];
  updated_at: string | null;
}

/**
 * docs/decisions.md#health: signal, metrics and warnings follow from the latest report and its age. Non-ingest
 * sources are played from elsewhere: their signal is `external` and their metrics unknown.
 */
export function computeHealth(b: { id: string; source: string; state: string }, t: Telemetry | null, now: Date): Health {
  const base = { broadcast_id: b.id, state: b.state, updated_at: t ? new Date(t.reported_at).toISOString() : null };
  if (b.source !== 'ingest') {
    return { ...base, signal: 'external', bitrate_kbps: null, resolution: null, fps: null, viewers: null, warnings: [] };
  }
  /** The latest report while it is fresh, else null. */
  const fresh = t && isFresh(t, now) ? t : null;
  const warnings: Health['warnings'] = [];
  if (!fresh && b.state === 'live') {
    warnings.push({
      code: 'no_signal_while_live',
      message: t?.publishing
        ? `no report from the media server for over ${TELEMETRY_STALE_MS / 1000} s`
        : 'the broadcast is live but nothing is being received',
    });
  }
  if (fresh && fresh.bitrate_kbps !== null && fresh.bitrate_kbps < LOW_BITRATE_KBPS) {
    warnings.push({ code: 'low_bitrate', message: `bitrate ${fresh.bitrate_kbps} kbps is below ${LOW_BITRATE_KBPS} kbps` });
  }
  if (fresh && fresh.fps !== null && fresh.fps < LOW_FPS) warnings.push({ code: 'low_fps', message: `${fresh.fps} fps is below ${LOW_FPS} fps` });
  return {
    ...base,
    signal: fresh ? 'receiving' : 'no_signal',
    bitrate_kbps: fresh ? fresh.bitrate_kbps : null,
    resolution: fresh ? fresh.resolution : null,
    fps: fresh ? fresh.fps : null,
    viewers: fresh ? fresh.viewers : null,
    warnings,
  };
}

function isFresh(t: Telemetry | null, now: Date): boolean {
  return !!t && t.publishing && now.getTime() - new Date(t.reported_at).getTime() <= TELEMETRY_STALE_MS;
}

/**
 * Until when `computeHealth` gives the same answer without a new report (milliseconds since the
 * epoch, inclusive): a receiving signal turns into no_signal once its latest report is older than
 * TELEMETRY_STALE_MS; any other health only changes with a new report or a new state. Null: no
 * deadline.
 */
export function healthHoldsUntil(b: { source: string }, t: Telemetry | null, now: Date): number | null {
  if (b.source !== 'ingest' || !t || !isFresh(t, now)) return null;
  return new Date(t.reported_at).getTime() + TELEMETRY_STALE_MS;
}
