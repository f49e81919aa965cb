import { useEffect, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { DISCIPLINE_NAMES, SOURCE_NAMES, VISIBILITY_NAMES } from '../broadcast-bits';
import { formErrors } from '../errors';
import { graphql } from '../gql';
import type { BroadcastPatch, BroadcastSource, Discipline, Visibility } from '../gql/graphql';
import { keepOnce } from '../once';
import { navigate, paths } from '../router';
import { Dialog } from '../ui/dialog';
import { described, Field, FormFoot, toLocalInput, withOffset } from '../ui/bits';
import { useToast } from '../ui/toast';

const Create = graphql(`
  mutation CreateBroadcast($slug: String!, $input: BroadcastInput!) {
    createBroadcast(channel: $slug, input: $input) { ...BroadcastFields }
  }
`);

const Update = graphql(`
  mutation UpdateBroadcast($id: ID!, $input: BroadcastPatch!) {
    updateBroadcast(id: $id, input: $input) { ...BroadcastFields }
  }
`);

const FIELDS = ['title', 'source', 'sourceUrl', 'scheduledAt', 'visibility', 'discipline', 'language', 'tags'] as const;

interface Values {
  title: string; source: BroadcastSource; sourceUrl: string; scheduledAt: string; visibility: Visibility; discipline: Discipline | ''; language: string; tags: string;
}

export interface Editable {
  id: string; title: string; source: BroadcastSource; sourceUrl?: string | null; scheduledAt: string; visibility: Visibility;
  discipline?: Discipline | null; language: string; tags: string[];
}

function initial(b?: Editable): Values {
  if (!b) {
    const inAnHour = new Date(Date.now() + 3600_000);
    inAnHour.setMinutes(0, 0, 0);
    return { title: '', source: 'YOUTUBE', sourceUrl: '', scheduledAt: toLocalInput(inAnHour.toISOString()), visibility: 'PUBLIC', discipline: '', language: 'en', tags: '' };
  }
  return {
    title: b.title, source: b.source, sourceUrl: b.sourceUrl ?? '', scheduledAt: toLocalInput(b.scheduledAt), visibility: b.visibility,
    discipline: b.discipline ?? '', language: b.language, tags: b.tags.join(', '),
  };
}

const tagList = (s: string) => s.split(/[,\s]+/).map((t) => t.trim()).filter(Boolean);

/** Create or edit a broadcast: every creation field; the API judges the values and its messages show next to the fields. */
export function BroadcastForm({ slug, open, onClose, broadcast }: { slug: string; open: boolean; onClose: () => void; broadcast?: Editable }) {
  const [values, setValues] = useState<Values>(() => initial(broadcast));
  const [created, create] = useMutation(Create);
  const [updated, update] = useMutation(Update);
  const toast = useToast();
  const result = broadcast ? updated : created;
  useEffect(() => {
    if (open) setValues(initial(broadcast));
  }, [open]);
  const { byField, other } = formErrors(result.error, FIELDS);
  const set = <K extends keyof Values>(k: K) => (v: Values[K]) => setValues((s) => ({ ...s, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const all = {
      title: values.title, source: values.source, sourceUrl: values.source === 'INGEST' ? null : values.sourceUrl,
      scheduledAt: withOffset(values.scheduledAt), visibility: values.visibility, discipline: values.discipline || null,
      language: values.language, tags: tagList(values.tags),
    };
    if (!broadcast) {
      const r = await create({ slug, input: all });
      if (!r.data) return;
      const b = r.data.createBroadcast;
      if (b.ingest?.streamKey) keepOnce(b.id, b.ingest.streamKey);
      toast(`“${b.title}” is scheduled.`);
      onClose();
      navigate(paths.broadcast(slug, b.id));
      return;
    }
    // only what changed: what may change depends on the state, and the API says so
    const before = initial(broadcast);
    const input: BroadcastPatch = {};
    if (values.title !== before.title) input.title = all.title;
    if (values.source !== before.source) input.source = all.source;
    if (values.sourceUrl !== before.sourceUrl || values.source !== before.source) input.sourceUrl = all.sourceUrl;
    if (values.scheduledAt !== before.scheduledAt) input.scheduledAt = all.scheduledAt;
    if (values.visibility !== before.visibility) input.visibility = all.visibility;
    if (values.discipline !== before.discipline) input.discipline = all.discipline;
    if (values.language !== before.language) input.language = all.language;
    if (values.tags !== before.tags) input.tags = all.tags;
    if (Object.keys(input).length === 0) return onClose();
    const r = await update({ id: broadcast.id, input });
    if (!r.data) return;
    const b = r.data.updateBroadcast;
    if (b.ingest?.streamKey) keepOnce(b.id, b.ingest.streamKey);
    toast('Changes saved.');
    onClose();
  };

  return (
    <Dialog title={broadcast ? 'Edit broadcast' : 'New broadcast'} open={open} onClose={onClose} wide>
      <form onSubmit={submit} noValidate className="form">
        <Field label="Title" id="b-title" error={byField.title} hint="1 to 140 characters.">
          <input {...described('b-title', byField.title, '1 to 140 characters.')} value={values.title} onChange={(e) => set('title')(e.target.value)} />
        </Field>
        <div className="form-row">
          <Field label="Source" id="b-source" error={byField.source}>
            <select {...described('b-source', byField.source)} value={values.source} onChange={(e) => set('source')(e.target.value as BroadcastSource)}>
              {Object.entries(SOURCE_NAMES).map(([v, n]) => <option key={v} value={v}>{n}</option>)}
            </select>
          </Field>
          <Field label="Scheduled for" id="b-scheduled" error={byField.scheduledAt} hint="Your local time.">
            <input type="datetime-local" {...described('b-scheduled', byField.scheduledAt, 'Your local time.')} value={values.scheduledAt} onChange={(e) => set('scheduledAt')(e.target.value)} />
          </Field>
        </div>
        {values.source !== 'INGEST' ? (
          <Field label="Source URL" id="b-url" error={byField.sourceUrl} hint="https: a YouTube or Vimeo page, an .m3u8 playlist or an .mp4 file, matching the source.">
            <input type="url" {...described('b-url', byField.sourceUrl, 'https')} placeholder="https://" value={values.sourceUrl} onChange={(e) => set('sourceUrl')(e.target.value)} />
          </Field>
        ) : (
          <p className="hint">You push the stream to the ingest server: its URL and a stream key are shown once, after saving.</p>
        )}
        <div className="form-row">
          <Field label="Visibility" id="b-visibility" error={byField.visibility}>
            <select {...described('b-visibility', byField.visibility)} value={values.visibility} onChange={(e) => set('visibility')(e.target.value as Visibility)}>
              {Object.entries(VISIBILITY_NAMES).map(([v, n]) => <option key={v} value={v}>{n}</option>)}
            </select>
          </Field>
          <Field label="Discipline" id="b-discipline" error={byField.discipline}>
            <select {...described('b-discipline', byField.discipline)} value={values.discipline} onChange={(e) => set('discipline')(e.target.value as Discipline | '')}>
              <option value="">None</option>
              {Object.entries(DISCIPLINE_NAMES).map(([v, n]) => <option key={v} value={v}>{n}</option>)}
            </select>
          </Field>
          <Field label="Language" id="b-language" error={byField.language} hint="Two letters (ISO 639-1), e.g. en.">
            <input {...described('b-language', byField.language, 'two letters')} value={values.language} maxLength={8} onChange={(e) => set('language')(e.target.value)} />
          </Field>
        </div>
        <Field label="Tags" id="b-tags" error={byField.tags} hint="Up to 10, separated by commas: a-z, 0-9 and -.">
          <input {...described('b-tags', byField.tags, 'tags')} value={values.tags} onChange={(e) => set('tags')(e.target.value)} />
        </Field>
        <FormFoot errors={other} onCancel={onClose} submit={broadcast ? 'Save changes' : 'Create broadcast'} busy={result.fetching} />
      </form>
    </Dialog>
  );
}
