import { useState, type ReactNode } from 'react';
import { useToast } from './toast';

/** A secret shown once: the value, a copy button, and the warning that it will not be shown again. */
export function SecretOnce({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="secret">
      <div className="secret-label">{label}</div>
      <div className="secret-row">
        <code className="secret-value" data-testid="secret">{value}</code>
        <CopyButton value={value} what={label.toLowerCase()} />
      </div>
      <p className="hint">{note ?? 'Copy it now: it is shown this once and cannot be read again.'}</p>
    </div>
  );
}

/** Copies `value`; its accessible name is “Copy <what>”, which starts with what it shows. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const toast = useToast();
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
      toast('Copied to the clipboard.');
    } catch {
      toast('The browser refused the clipboard: select the text and copy it.', 'error');
    }
  };
  return <button type="button" className="button small" onClick={copy}>{done ? 'Copied' : 'Copy'}<span className="visually-hidden"> {what}</span></button>;
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="empty-body">{children}</div>}
    </div>
  );
}

export function Badge({ tone, children }: { tone: 'green' | 'red' | 'amber' | 'blue' | 'grey'; children: ReactNode }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

export function ErrorNote({ text }: { text: string }) {
  if (!text) return null;
  return <div className="error-note" role="alert">{text}</div>;
}

export function Field({ label, id, error, hint, children }: { label: string; id: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && !error && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  );
}

/** Accessible attributes of an input inside Field. */
export const described = (id: string, error?: string, hint?: string) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
});

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  return <time dateTime={value}>{dateTime.format(new Date(value))}</time>;
}

/** A datetime-local input's value as ISO 8601 with this browser's offset (the API wants an offset). */
export function withOffset(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  if (Number.isNaN(d.getTime())) return local;
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${local.length === 16 ? `${local}:00` : local}${sign}${pad(off / 60)}:${pad(off % 60)}`;
}

/** An ISO time as a datetime-local input's value, in this browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A set of checkboxes over a closed list (scopes, events), with the API's message for the field. */
export function Checks<V extends string>({ legend, options, value, onChange, error }: {
  legend: string; options: readonly { value: V; code: string; hint: string }[]; value: readonly V[]; onChange: (next: V[]) => void; error?: string;
}) {
  return (
    <fieldset className="checks">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="check">
          <input type="checkbox" checked={value.includes(o.value)} onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((x) => x !== o.value))} />
          <span><code>{o.code}</code> <span className="muted">{o.hint}</span></span>
        </label>
      ))}
      {error && <p className="field-error" role="alert">{error}</p>}
    </fieldset>
  );
}

/** The foot of a form in a dialog: the errors that name no field, Cancel, and the submit button. */
export function FormFoot({ errors, onCancel, submit, busy }: { errors: string[]; onCancel: () => void; submit: string; busy: boolean }) {
  return (
    <>
      <ErrorNote text={errors.join(' ')} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>Cancel</button>
        <button type="submit" className="button primary" disabled={busy}>{submit}</button>
      </div>
    </>
  );
}
