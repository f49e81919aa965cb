import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useChannel } from '../channel';
import { explainAll, formErrors } from '../errors';
import { graphql } from '../gql';
import type { ChannelScope } from '../gql/graphql';
import { Badge, Checks, described, Empty, ErrorNote, Field, FormFoot, SecretOnce, Time } from '../ui/bits';
import { Confirm, Dialog } from '../ui/dialog';
import { useToast } from '../ui/toast';

const Keys = graphql(`
  query ChannelKeys($slug: String!) {
    channel(slug: $slug) { id apiKeys { id name prefix scopes createdAt revokedAt lastUsedAt } }
  }
`);
const CreateKey = graphql(`
  mutation CreateChannelKey($slug: String!, $name: String!, $scopes: [ChannelScope!]!) {
    createChannelApiKey(channel: $slug, name: $name, scopes: $scopes) { secret key { id name prefix scopes createdAt revokedAt lastUsedAt } }
  }
`);
const RevokeKey = graphql(`
  mutation RevokeChannelKey($slug: String!, $id: ID!) {
    revokeChannelApiKey(channel: $slug, id: $id) { id revokedAt }
  }
`);

const SCOPES: { value: ChannelScope; label: string; hint: string }[] = [
  { value: 'READ', label: 'read', hint: 'Read the channel, its broadcasts and their health.' },
  { value: 'BROADCASTS_WRITE', label: 'broadcasts:write', hint: 'Create, edit, start and end broadcasts.' },
];

export function KeysScreen({ slug }: { slug: string }) {
  const { channel, can } = useChannel(slug);
  if (channel && !can('KEYS')) {
    return (
      <section aria-labelledby="keys-title">
        <header className="page-header"><h1 id="keys-title">API keys</h1></header>
        <Empty title="Your role does not manage API keys.">Owners and managers create and revoke the keys of the TV API.</Empty>
      </section>
    );
  }
  return channel ? <KeysManager slug={slug} /> : null;
}

function KeysManager({ slug }: { slug: string }) {
  const [result] = useQuery({ query: Keys, variables: { slug } });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [revoked, revoke] = useMutation(RevokeKey);
  const toast = useToast();
  const keys = result.data?.channel.apiKeys ?? [];

  const confirmRevoke = async () => {
    if (!revoking) return;
    const r = await revoke({ slug, id: revoking.id });
    setRevoking(null);
    if (r.data) toast(`“${revoking.name}” is revoked: it no longer works on the TV API.`);
  };

  return (
    <section aria-labelledby="keys-title">
      <header className="page-header">
        <div>
          <h1 id="keys-title">API keys</h1>
          <p className="muted">Keys for the TV API (<code>/api/tv</code>), sent as <code>Authorization: Bearer ck_…</code>.</p>
        </div>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>Create key</button>
      </header>
      <ErrorNote text={explainAll(result.error) || explainAll(revoked.error)} />
      {result.data && keys.length === 0 && <Empty title="No API key yet.">Create one to automate broadcasts from your own tools.</Empty>}
      {keys.length > 0 && (
        <table className="table">
          <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td><code>{k.prefix}…</code></td>
                <td>{k.scopes.map((s) => <span key={s} className="tag">{SCOPES.find((x) => x.value === s)?.label ?? s}</span>)}</td>
                <td><Time value={k.createdAt} /></td>
                <td><Time value={k.lastUsedAt} /></td>
                <td>{k.revokedAt ? <Badge tone="grey">Revoked</Badge> : <Badge tone="green">Active</Badge>}</td>
                <td className="row-actions">{!k.revokedAt && <button type="button" className="button small danger" onClick={() => setRevoking({ id: k.id, name: k.name })}>Revoke<span className="visually-hidden"> {k.name}</span></button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateKeyDialog slug={slug} open={creating} onClose={() => setCreating(false)} />
      <Confirm title="Revoke this key?" open={!!revoking} onClose={() => setRevoking(null)} onConfirm={confirmRevoke} action="Revoke key" busy={revoked.fetching}>
        <p>“{revoking?.name}” stops working at once; whatever uses it gets 401 answers. This cannot be undone.</p>
      </Confirm>
    </section>
  );
}

function CreateKeyDialog({ slug, open, onClose }: { slug: string; open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ChannelScope[]>(['READ']);
  const [secret, setSecret] = useState<string | null>(null);
  const [result, create] = useMutation(CreateKey);
  const { byField, other } = formErrors(result.error, ['name', 'scopes']);
  const close = () => {
    setName('');
    setScopes(['READ']);
    setSecret(null);
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await create({ slug, name, scopes });
    if (r.data) setSecret(r.data.createChannelApiKey.secret);
  };
  return (
    <Dialog title={secret ? 'Your new key' : 'Create an API key'} open={open} onClose={close}>
      {secret ? (
        <>
          <SecretOnce label="API key" value={secret} />
          <div className="dialog-actions"><button type="button" className="button primary" onClick={close}>Done</button></div>
        </>
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <Field label="Name" id="k-name" error={byField.name} hint="To recognise the key by, e.g. “CI pipeline”.">
            <input {...described('k-name', byField.name, 'hint')} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Checks legend="Scopes" options={SCOPES.map((x) => ({ value: x.value, code: x.label, hint: x.hint }))} value={scopes} onChange={setScopes} error={byField.scopes} />
          <FormFoot errors={other} onCancel={close} submit="Create key" busy={result.fetching} />
        </form>
      )}
    </Dialog>
  );
}
