// Controls folded away at phone width, so an inbox's first screen shows messages: each fold is a panel and one
// toggle button (aria-expanded) that opens it. At wider widths styles.css hides the toggles and always shows the
// panels, so the open state only matters on a phone.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface PhoneFold {
  /** The panel's element id, for the toggle's aria-controls. */
  id: string;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Opens the panel and moves the focus to the element with this id once the panel shows. */
  openAndFocus: (elementId: string) => void;
}

export function usePhoneFold(id: string): PhoneFold {
  const [open, setOpen] = useState(false);
  const focusPending = useRef<string | null>(null);
  // A layout effect: a folded panel is display: none, so what is in it can take the focus only once it is drawn open.
  useLayoutEffect(() => {
    if (!open || focusPending.current === null) return;
    document.getElementById(focusPending.current)?.focus();
    focusPending.current = null;
  });
  const openAndFocus = (elementId: string) => {
    if (open) return void document.getElementById(elementId)?.focus();
    focusPending.current = elementId;
    setOpen(true);
  };
  return { id, open, setOpen, openAndFocus };
}

export function FoldToggle(props: { fold: PhoneFold; children: ComponentChildren }) {
  const { fold } = props;
  return (
    <button type="button" class="quiet fold-toggle" aria-expanded={fold.open} aria-controls={fold.id} onClick={() => fold.setOpen(!fold.open)}>
      {props.children}
    </button>
  );
}

export function FoldPanel(props: { fold: PhoneFold; children: ComponentChildren }) {
  return <div id={props.fold.id} class={props.fold.open ? 'fold-panel open' : 'fold-panel'}>{props.children}</div>;
}
