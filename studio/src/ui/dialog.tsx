import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: focus moves in and comes back, Escape closes it,
 * the page behind is inert.
 */
export function Dialog({ title, open, onClose, children, wide }: { title: string; open: boolean; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className={wide ? 'dialog wide' : 'dialog'} aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>×</button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}

/** A confirmation: a sentence, a destructive button, Cancel. */
export function Confirm({ title, open, onClose, onConfirm, children, action, busy }: {
  title: string; open: boolean; onClose: () => void; onConfirm: () => void; children: ReactNode; action: string; busy?: boolean;
}) {
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <div className="prose">{children}</div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>Cancel</button>
        <button type="button" className="button danger" disabled={busy} onClick={onConfirm}>{action}</button>
      </div>
    </Dialog>
  );
}
