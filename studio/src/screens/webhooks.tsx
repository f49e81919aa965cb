import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useChannel } from '../channel';
import { explainAll, formErrors } from '../errors';
import { graphql } from '../gql';
import type { ChannelWebhookEvent } from '../gql/graphql';
import { Link, paths } from '../router';
import { Badge, Checks, described, Empty, ErrorNote, Field, FormFoot, SecretOnce, Time, withOffset } from '../ui/bits';
import { Confirm, Dialog } from '../ui/dialog';
import { useToast } from '../ui/toast';
import { EVENTS, wireEvent } from '../webhook-bits';

export const Endpoints = graphql(`
  query WebhookEndpoints($slug: String!) {
    channel(slug: $slug) { id webhookEndpoints { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }
  }
`);
const CreateEndpoint = graphql(`
  mutation CreateWebhookEndpoint($slug: String!, $url: String!, $events: [ChannelWebhookEvent!]!) {
    createWebhookEndpoint(channel: $slug, url: $url, events: $events) { secret endpoint { id url events enabled disabledReason ratePerSecond secretSwitchAt createdAt } }
  }
`);
const UpdateEndpoint = graphql(`
  mutation SetWebhookEndpointEnabled($id: ID!, $enabled: Boolean!) {
    updateWebhookEndpoint(id: $id, enabled: $enabled) { id enabled disabledReason }
  }
`);
const DeleteEndpoint = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }
`);
const Rotate = graphql(`
  mutation RotateWebhookSecret($id: ID!, $switchAt: DateTimeISO) {
    rotateWebhookSecret(id: $id, switchAt: $switchAt) { secret switchAt endpoint { id secretSwitchAt } }
  }
`);
export const Ping = graphql(`
  mutation PingWebhookEndpoint($id: ID!) { pingWebhookEndpoint(id: $id) { id status event createdAt } }
`);

type Endpoint = { id: string; url: string };

export function WebhooksScreen({ slug }: { slug: string }) {
  const { can } = useChannel(slug);
  const manage = can('WEBHOOKS');
  const [result] = useQuery({ query: Endpoints, variables: { slug } });
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [updated, update] = useMutation(UpdateEndpoint);
  const [deleted, remove] = useMutation(DeleteEndpoint);
  const [pinged, ping] = useMutation(Ping);
  const toast = useToast();
  const endpoints = result.data?.channel.webhookEndpoints ?? [];

  const test = async (e: Endpoint) => {
    const r = await ping({ id: e.id });
    if (r.data) toast('A ping is on its way: watch it in the delivery log.');
  };
  const toggle = async (id: string, enabled: boolean) => {
    const r = await update({ id, enabled });
    if (r.data) toast(enabled ? 'Deliveries resume.' : 'Deliveries are paused for this endpoint.');
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const r = await remove({ id: deleting.id });
    setDeleting(null);
    if (r.data) toast('The endpoint is deleted.');
  };

  return (
    <section aria-labelledby="webhooks-title">
      <header className="page-header">
        <div>
          <h1 id="webhooks-title">Webhooks</h1>
          <p className="muted">Signed POSTs to your endpoints when broadcasts change (<code>X-SVC-Signature</code>).</p>
        </div>
        {manage && <button type="button" className="button primary" onClick={() => setCreating(true)}>Add endpoint</button>}
      </header>
      <ErrorNote text={explainAll(result.error) || explainAll(updated.error) || explainAll(deleted.error) || explainAll(pinged.error)} />
      {result.data && endpoints.length === 0 && <Empty title="No webhook endpoint yet.">{manage ? 'Add one to be told when a broadcast is scheduled, goes live, ends or has its replay.' : null}</Empty>}
      {endpoints.length > 0 && (
        <table className="table">
          <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Secret switch</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {endpoints.map((e) => (
              <tr key={e.id}>
                <td className="break"><Link href={paths.deliveries(slug, e.id)}>{e.url}</Link></td>
                <td>{e.events.map((ev) => <span key={ev} className="tag">{wireEvent(ev)}</span>)}</td>
                <td>{e.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="grey">Disabled</Badge>}{e.disabledReason && <div className="muted small">{e.disabledReason}</div>}{e.ratePerSecond != null && <div className="muted small">At most {e.ratePerSecond} a second (set by the federation)</div>}</td>
                <td><Time value={e.secretSwitchAt} /></td>
                <td className="row-actions">
                  <Link className="button small" href={paths.deliveries(slug, e.id)}>Delivery log</Link>
                  {manage && (
                    <>
                      <button type="button" className="button small" onClick={() => test(e)} disabled={pinged.fetching}>Test<span className="visually-hidden"> {e.url}</span></button>
                      <button type="button" className="button small" onClick={() => toggle(e.id, !e.enabled)}>{e.enabled ? 'Disable' : 'Enable'}</button>
                      <button type="button" className="button small" onClick={() => setRotating(e)}>Rotate secret</button>
                      <button type="button" className="button small danger" onClick={() => setDeleting(e)}>Delete</button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manage && <CreateEndpointDialog slug={slug} open={creating} onClose={() => setCreating(false)} />}
      {manage && <RotateDialog endpoint={rotating} onClose={() => setRotating(null)} />}
      <Confirm title="Delete this endpoint?" open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} action="Delete endpoint" busy={deleted.fetching}>
        <p>Nothing more is sent to <code className="break">{deleting?.url}</code>; deliveries waiting for it fail.</p>
      </Confirm>
    </section>
  );
}

function CreateEndpointDialog({ slug, open, onClose }: { slug: string; open: boolean; onClose: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ChannelWebhookEvent[]>(EVENTS.map((e) => e.value));
  const [secret, setSecret] = useState<string | null>(null);
  const [result, create] = useMutation(CreateEndpoint);
  const { byField, other } = formErrors(result.error, ['url', 'events']);
  const close = () => {
    setUrl('');
    setEvents(EVENTS.map((e) => e.value));
    setSecret(null);
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await create({ slug, url: url.trim(), events });
    if (r.data) setSecret(r.data.createWebhookEndpoint.secret);
  };
  return (
    <Dialog title={secret ? 'Endpoint added' : 'Add a webhook endpoint'} open={open} onClose={close}>
      {secret ? (
        <>
          <SecretOnce label="Signing secret" value={secret} note="Your receiver checks X-SVC-Signature with it. It is shown this once." />
          <div className="dialog-actions"><button type="button" className="button primary" onClick={close}>Done</button></div>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <Field label="Endpoint URL" id="w-url" error={byField.url} hint="An https URL that answers 2xx quickly.">
            <input type="url" {...described('w-url', byField.url, 'hint')} placeholder="https://example.com/webhooks" value={url} onChange={(e) => setUrl(e.target.value)} />
          </Field>
          <Checks legend="Events" options={EVENTS.map((x) => ({ value: x.value, code: x.wire, hint: x.hint }))} value={events} onChange={setEvents} error={byField.events} />
          <FormFoot errors={other} onCancel={close} submit="Add endpoint" busy={result.fetching} />
        </form>
      )}
    </Dialog>
  );
}

function RotateDialog({ endpoint, onClose }: { endpoint: Endpoint | null; onClose: () => void }) {
  const [switchAt, setSwitchAt] = useState('');
  const [rotated, setRotated] = useState<{ secret: string; switchAt: string } | null>(null);
  const [result, rotate] = useMutation(Rotate);
  const { byField, other } = formErrors(result.error, ['switchAt']);
  const close = () => {
    setSwitchAt('');
    setRotated(null);
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!endpoint) return;
    const r = await rotate({ id: endpoint.id, switchAt: switchAt ? withOffset(switchAt) : null });
    if (r.data) setRotated({ secret: r.data.rotateWebhookSecret.secret, switchAt: r.data.rotateWebhookSecret.switchAt });
  };
  return (
    <Dialog title={rotated ? 'New signing secret' : 'Rotate the signing secret'} open={!!endpoint} onClose={close}>
      {rotated ? (
        <>
          <SecretOnce label="Signing secret" value={rotated.secret} note={`The old secret keeps signing until ${new Date(rotated.switchAt).toLocaleString()}; accept both until then. Shown this once.`} />
          <div className="dialog-actions"><button type="button" className="button primary" onClick={close}>Done</button></div>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <p className="prose">A new secret is issued now. The old one keeps signing until the switch time, so your receiver can accept both in between.</p>
          <Field label="Switch time" id="w-switch" error={byField.switchAt} hint="Leave empty for 24 hours from now. Your local time.">
            <input type="datetime-local" {...described('w-switch', byField.switchAt, 'hint')} value={switchAt} onChange={(e) => setSwitchAt(e.target.value)} />
          </Field>
          <FormFoot errors={other} onCancel={close} submit="Rotate secret" busy={result.fetching} />
        </form>
      )}
    </Dialog>
  );
}
