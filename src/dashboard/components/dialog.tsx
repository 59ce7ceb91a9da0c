// Modal dialogs on the native <dialog> element: showModal() traps focus, makes the rest of the page inert, and closes
// on Escape; focus goes back to where it was when the dialog closes.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = `dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.showModal();
    return () => opener?.focus({ preventScroll: true });
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby={headingId} class="dialog" onClose={props.onClose}>
      <h2 id={headingId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** Asks before something that cannot be undone; the safe choice has the focus. */
export function ConfirmDialog(props: { title: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void; children: ComponentChildren }) {
  return (
    <Dialog title={props.title} onClose={props.onCancel}>
      <div class="stack">{props.children}</div>
      <div class="row dialog-actions">
        <button type="button" class="quiet" autoFocus onClick={props.onCancel}>Cancel</button>
        <button type="button" class="danger" onClick={props.onConfirm}>{props.confirmLabel}</button>
      </div>
    </Dialog>
  );
}
