import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { DISCIPLINE_NAMES, SOURCE_NAMES, StateBadge, VISIBILITY_NAMES } from '../broadcast-bits';
import { useChannel } from '../channel';
import { apiErrors, explain, explainAll } from '../errors';
import { graphql } from '../gql';
import { useLiveHealth } from '../live';
import { takeOnce, useSecretOnce } from '../once';
import { Link, paths } from '../router';
import { CopyButton, Empty, ErrorNote, SecretOnce, Time } from '../ui/bits';
import { Confirm } from '../ui/dialog';
import { useToast } from '../ui/toast';
import { BroadcastForm } from './broadcast-form';
import { HealthPanel } from './health';

const BroadcastDetail = graphql(`
  query BroadcastDetail($slug: String!, $id: ID!) {
    channel(slug: $slug) {
      id
      broadcast(id: $id) {
        ...BroadcastFields
        ...HealthFields
      }
    }
  }
`);

const GoLive = graphql(`
  mutation GoLive($id: ID!) { goLive(id: $id) { ...BroadcastFields } }
`);
const End = graphql(`
  mutation EndBroadcast($id: ID!) { endBroadcast(id: $id) { ...BroadcastFields } }
`);
const RotateKey = graphql(`
  mutation RotateStreamKey($id: ID!) { rotateStreamKey(id: $id) { id ingest { serverUrl streamKey } } }
`);

export function BroadcastScreen({ slug, id }: { slug: string; id: string }) {
  const [result] = useQuery({ query: BroadcastDetail, variables: { slug, id } });
  const { can } = useChannel(slug);
  useLiveHealth(id);
  const [editing, setEditing] = useState(false);
  const [ending, setEnding] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [streamKey, setStreamKey] = useSecretOnce(id);
  const [live, goLive] = useMutation(GoLive);
  const [ended, end] = useMutation(End);
  const [rotated, rotate] = useMutation(RotateKey);
  const toast = useToast();
  const b = result.data?.channel.broadcast;

  if (result.error && !b) {
    return (
      <>
        <p><Link href={paths.broadcasts(slug)}>← Broadcasts</Link></p>
        <Empty title="This broadcast does not exist on this channel." />
      </>
    );
  }
  if (!b) return <p className="muted">Loading…</p>;
  const manage = can('BROADCASTS');
  const refusal = apiErrors(live.error)[0];

  const start = async () => {
    const r = await goLive({ id: b.id });
    if (r.data) toast(`“${b.title}” is live.`);
  };
  const stop = async () => {
    const r = await end({ id: b.id });
    setEnding(false);
    if (r.data) toast(`“${b.title}” has ended.`);
  };
  const newKey = async () => {
    const r = await rotate({ id: b.id });
    setRotating(false);
    if (r.data?.rotateStreamKey.ingest?.streamKey) {
      setStreamKey(r.data.rotateStreamKey.ingest.streamKey);
      toast('A new stream key is in force; the old one no longer works.');
    }
  };

  return (
    <section aria-labelledby="broadcast-title">
      <p><Link href={paths.broadcasts(slug)}>← Broadcasts</Link></p>
      <header className="page-header">
        <div>
          <h1 id="broadcast-title">{b.title}</h1>
          <div className="header-meta"><StateBadge state={b.state} /> <span className="muted">{SOURCE_NAMES[b.source]}</span></div>
        </div>
        {manage && (
          <div className="actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>Edit</button>
            {b.state === 'SCHEDULED' && <button type="button" className="button primary" disabled={live.fetching} onClick={start}>Go live</button>}
            {b.state === 'LIVE' && <button type="button" className="button danger" onClick={() => setEnding(true)}>End broadcast</button>}
          </div>
        )}
      </header>
      {refusal && (
        <div className="refusal" role="alert">
          <strong>It could not go live.</strong> {explain(refusal)}
        </div>
      )}
      <ErrorNote text={explainAll(ended.error) || explainAll(rotated.error)} />

      <div className="grid-2">
        <div className="card">
          <h2>Details</h2>
          <dl className="details">
            <dt>Scheduled</dt><dd><Time value={b.scheduledAt} /></dd>
            <dt>Started</dt><dd><Time value={b.startedAt} /></dd>
            <dt>Ended</dt><dd><Time value={b.endedAt} /></dd>
            <dt>Visibility</dt><dd>{VISIBILITY_NAMES[b.visibility]}</dd>
            <dt>Discipline</dt><dd>{b.discipline ? DISCIPLINE_NAMES[b.discipline] : <span className="muted">None</span>}</dd>
            <dt>Language</dt><dd>{b.language}</dd>
            <dt>Tags</dt><dd>{b.tags.length ? b.tags.map((t) => <span key={t} className="tag">{t}</span>) : <span className="muted">None</span>}</dd>
            <dt>Public slug</dt><dd><code>{b.slug}</code></dd>
            {b.sourceUrl && (<><dt>Source URL</dt><dd className="break">{b.sourceUrl}</dd></>)}
            {b.replayUrl && (<><dt>Replay</dt><dd className="break" data-testid="replay-url">{b.replayUrl}</dd></>)}
          </dl>
        </div>
        <HealthPanel state={b.state} health={b.health} />
      </div>

      {b.ingest && (
        <div className="card">
          <h2>Ingest</h2>
          <div className="secret-row">
            <span className="secret-label">Server URL</span>
            <code className="secret-value" data-testid="ingest-server">{b.ingest.serverUrl}</code>
            <CopyButton value={b.ingest.serverUrl} what="server URL" />
          </div>
          {streamKey ? (
            <SecretOnce label="Stream key" value={streamKey} note="Copy it into your encoder now: it is shown this once. Rotate it if it leaks." />
          ) : (
            <p className="hint">The stream key was shown once, when it was made. {manage ? 'Rotate it to get a new one (the old one stops working).' : ''}</p>
          )}
          {manage && <button type="button" className="button" onClick={() => setRotating(true)}>Rotate stream key</button>}
        </div>
      )}

      {manage && <BroadcastForm slug={slug} open={editing} onClose={() => { setEditing(false); const k = takeOnce(b.id); if (k) setStreamKey(k); }} broadcast={b} />}
      <Confirm title="End this broadcast?" open={ending} onClose={() => setEnding(false)} onConfirm={stop} action="End broadcast" busy={ended.fetching}>
        <p>Viewers lose the stream now. {b.source === 'INGEST' ? 'It becomes a replay when its recording is ready.' : 'It becomes a replay at once.'}</p>
      </Confirm>
      <Confirm title="Rotate the stream key?" open={rotating} onClose={() => setRotating(false)} onConfirm={newKey} action="Rotate key" busy={rotated.fetching}>
        <p>The current key stops working at once: an encoder pushing with it is cut off until it uses the new key.</p>
      </Confirm>
    </section>
  );
}
