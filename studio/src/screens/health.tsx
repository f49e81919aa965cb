import type { BroadcastState, Signal } from '../gql/graphql';
import { Badge, Time } from '../ui/bits';

interface Health {
  signal: Signal; bitrateKbps?: number | null; resolution?: string | null; fps?: number | null; viewers?: number | null;
  warnings: { code: string; message: string }[]; updatedAt?: string | null;
}

const SIGNAL: Record<Signal, { text: string; tone: 'green' | 'red' | 'grey' }> = {
  RECEIVING: { text: 'Receiving', tone: 'green' },
  NO_SIGNAL: { text: 'No signal', tone: 'red' },
  EXTERNAL: { text: 'External source', tone: 'grey' },
};

const show = (v: number | string | null | undefined, unit = '') => (v === null || v === undefined ? '—' : `${v}${unit}`);

/** A broadcast's health; the subscription keeps it current. */
export function HealthPanel({ health, state }: { state: BroadcastState; health: Health }) {
  return (
    <div className="card" aria-labelledby="health-title">
      <h2 id="health-title">Health</h2>
      <div className="health-signal" data-testid="signal">
        <Badge tone={SIGNAL[health.signal].tone}>{SIGNAL[health.signal].text}</Badge>
        {state === 'LIVE' && <span className="muted small"> live now</span>}
      </div>
      <dl className="metrics" aria-live="polite">
        <div><dt>Bitrate</dt><dd data-testid="bitrate">{show(health.bitrateKbps, ' kbps')}</dd></div>
        <div><dt>Resolution</dt><dd data-testid="resolution">{show(health.resolution)}</dd></div>
        <div><dt>Frame rate</dt><dd data-testid="fps">{show(health.fps, ' fps')}</dd></div>
        <div><dt>Viewers</dt><dd data-testid="viewers">{show(health.viewers)}</dd></div>
      </dl>
      {health.warnings.length > 0 ? (
        <ul className="warnings">
          {health.warnings.map((w) => <li key={w.code} className="warning">{w.message}</li>)}
        </ul>
      ) : (
        <p className="muted small">No warnings.</p>
      )}
      <p className="muted small">Last report: <Time value={health.updatedAt} /></p>
    </div>
  );
}
