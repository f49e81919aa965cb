import { Fragment, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useChannel } from '../channel';
import { explainAll, formErrors } from '../errors';
import { graphql } from '../gql';
import type { ChannelWebhookEvent, WebhookDeliveryStatus } from '../gql/graphql';
import { useLiveDeliveries } from '../live';
import { Link, paths } from '../router';
import { Badge, described, Empty, ErrorNote, Field, FormFoot, Time, withOffset } from '../ui/bits';
import { Dialog } from '../ui/dialog';
import { useToast } from '../ui/toast';
import { STATUS_NAMES, STATUS_TONE, wireEvent } from '../webhook-bits';
import { Ping } from './webhooks';

const DeliveryLog = graphql(`
  query DeliveryLog($slug: String!) {
    channel(slug: $slug) {
      id
      webhookEndpoints {
        id url enabled
        deliveries(first: 50) {
          ...DeliveryFields
        }
      }
    }
  }
`);
const Redeliver = graphql(`
  mutation RedeliverWebhookDelivery($id: ID!) { redeliverWebhookDelivery(id: $id) { id status } }
`);
const Recover = graphql(`
  mutation RecoverWebhookDeliveries($endpoint: ID!, $since: DateTimeISO!, $until: DateTimeISO) {
    recoverWebhookDeliveries(endpoint: $endpoint, since: $since, until: $until) { id }
  }
`);

const STATUSES: WebhookDeliveryStatus[] = ['PENDING', 'SENDING', 'SUCCEEDED', 'FAILED'];
const ALL_EVENTS: ChannelWebhookEvent[] = ['BROADCAST_SCHEDULED', 'BROADCAST_LIVE', 'BROADCAST_ENDED', 'REPLAY_READY', 'PING'];

export function DeliveriesScreen({ slug, id }: { slug: string; id: string }) {
  const { can } = useChannel(slug);
  const manage = can('WEBHOOKS');
  const [result] = useQuery({ query: DeliveryLog, variables: { slug } });
  useLiveDeliveries(slug);
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [event, setEvent] = useState<ChannelWebhookEvent | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const [recovering, setRecovering] = useState(false);
  const [redelivered, redeliver] = useMutation(Redeliver);
  const [pinged, ping] = useMutation(Ping);
  const toast = useToast();
  const endpoint = result.data?.channel.webhookEndpoints.find((e) => e.id === id);

  if (result.data && !endpoint) return <Empty title="This webhook endpoint does not exist on this channel." />;
  if (!endpoint) return <p className="muted">Loading…</p>;
  const shown = endpoint.deliveries.filter((d) => (!status || d.status === status) && (!event || d.event === event));

  const again = async (deliveryId: string) => {
    const r = await redeliver({ id: deliveryId });
    if (r.data) toast('Sent again as a new delivery.');
  };
  const test = async () => {
    const r = await ping({ id: endpoint.id });
    if (r.data) toast('A ping is on its way.');
  };

  return (
    <section aria-labelledby="log-title">
      <p><Link href={paths.webhooks(slug)}>← Webhooks</Link></p>
      <header className="page-header">
        <div>
          <h1 id="log-title">Delivery log</h1>
          <p className="muted break">{endpoint.url}</p>
        </div>
        {manage && (
          <div className="actions">
            <button type="button" className="button" onClick={test} disabled={pinged.fetching}>Test</button>
            <button type="button" className="button" onClick={() => setRecovering(true)}>Recover failed…</button>
          </div>
        )}
      </header>
      <div className="filters">
        <label>Status
          <select value={status} onChange={(e) => setStatus(e.target.value as WebhookDeliveryStatus | '')}>
            <option value="">Any</option>
            {STATUSES.map((s) => <option key={s} value={s}>{STATUS_NAMES[s]}</option>)}
          </select>
        </label>
        <label>Event
          <select value={event} onChange={(e) => setEvent(e.target.value as ChannelWebhookEvent | '')}>
            <option value="">Any</option>
            {ALL_EVENTS.map((ev) => <option key={ev} value={ev}>{wireEvent(ev)}</option>)}
          </select>
        </label>
        <span className="muted small">The newest 50 deliveries; updated live.</span>
      </div>
      <ErrorNote text={explainAll(result.error) || explainAll(redelivered.error) || explainAll(pinged.error)} />
      {endpoint.deliveries.length === 0 && <Empty title="Nothing has been sent to this endpoint yet.">{manage ? 'Press Test to send a ping.' : null}</Empty>}
      {endpoint.deliveries.length > 0 && shown.length === 0 && <Empty title="No delivery matches these filters." />}
      {shown.length > 0 && (
        <table className="table deliveries" data-testid="delivery-log">
          <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Created</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {shown.map((d) => (
              <Fragment key={d.id}>
                <tr data-testid="delivery" data-event={wireEvent(d.event)} data-status={d.status}>
                  <td><code>{wireEvent(d.event)}</code>{d.replayOf && <div className="muted small">redelivery</div>}</td>
                  <td><Badge tone={STATUS_TONE[d.status]}>{STATUS_NAMES[d.status]}</Badge>{d.status === 'PENDING' && d.nextAttemptAt && <div className="muted small">next <Time value={d.nextAttemptAt} /></div>}</td>
                  <td>{d.attempt}</td>
                  <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                  <td><Time value={d.createdAt} /></td>
                  <td className="row-actions">
                    <button type="button" className="button small" aria-expanded={open === d.id} aria-controls={`attempts-${d.id}`} onClick={() => setOpen(open === d.id ? null : d.id)}>Attempts</button>
                    {manage && <button type="button" className="button small" onClick={() => again(d.id)}>Redeliver</button>}
                  </td>
                </tr>
                {open === d.id && (
                  <tr id={`attempts-${d.id}`} className="attempts-row">
                    <td colSpan={6}>
                      <div className="muted small">Delivery <code>{d.id}</code> · payload <code>{d.eventId}</code></div>
                      {d.attempts.length === 0 && <p className="muted">No attempt yet.</p>}
                      {d.attempts.map((a) => (
                        <div key={a.attemptNo} className="attempt">
                          <div className="attempt-head">
                            <strong>Attempt {a.attemptNo}</strong> · <Time value={a.startedAt} /> · {a.durationMs} ms ·{' '}
                            {a.statusCode !== null && a.statusCode !== undefined ? <span data-testid="attempt-status">HTTP {a.statusCode}</span> : <span className="danger-text">{a.error}</span>}
                          </div>
                          <details>
                            <summary>Request headers</summary>
                            <pre>{Object.entries(a.requestHeaders).map(([k, v]) => `${k}: ${String(v)}`).join('\n')}</pre>
                          </details>
                          <details>
                            <summary>Response excerpt</summary>
                            <pre>{a.responseExcerpt || '(empty)'}</pre>
                          </details>
                        </div>
                      ))}
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {manage && <RecoverDialog endpointId={endpoint.id} open={recovering} onClose={() => setRecovering(false)} />}
    </section>
  );
}

function RecoverDialog({ endpointId, open, onClose }: { endpointId: string; open: boolean; onClose: () => void }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [result, recover] = useMutation(Recover);
  const toast = useToast();
  const { byField, other } = formErrors(result.error, ['since', 'until']);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await recover({ endpoint: endpointId, since: withOffset(since), until: until ? withOffset(until) : null });
    if (!r.data) return;
    const n = r.data.recoverWebhookDeliveries.length;
    toast(n === 0 ? 'No failed delivery in that period.' : `${n} failed ${n === 1 ? 'delivery is' : 'deliveries are'} sent again.`);
    onClose();
  };
  return (
    <Dialog title="Recover failed deliveries" open={open} onClose={onClose}>
      <form onSubmit={submit} noValidate className="form">
        <p className="prose">Every delivery to this endpoint that failed for good in the period is sent again, as a new delivery with the same payload id.</p>
        <Field label="Failed since" id="r-since" error={byField.since} hint="Your local time.">
          <input type="datetime-local" required {...described('r-since', byField.since, 'hint')} value={since} onChange={(e) => setSince(e.target.value)} />
        </Field>
        <Field label="Until (optional)" id="r-until" error={byField.until} hint="Empty: until now.">
          <input type="datetime-local" {...described('r-until', byField.until, 'hint')} value={until} onChange={(e) => setUntil(e.target.value)} />
        </Field>
        <FormFoot errors={other} onCancel={onClose} submit="Send again" busy={result.fetching || !since} />
      </form>
    </Dialog>
  );
}
