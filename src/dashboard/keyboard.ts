// Keyboard shortcuts: one keydown listener on the document and a stack of registrations, so whatever is on screen
// decides what a key does. The `?` dialog lists what is registered at the moment.
//
// A page or component registers its keys while it is mounted; for a key registered more than once, the newest
// registration wins. The message viewer, for the open message:
//
//   useShortcuts([
//     { key: 'Delete', description: 'Delete the message', run: () => void remove() },
//     { key: 'u', description: 'Mark the message read or unread', run: () => void toggleUnread() },
//     { key: 'Escape', description: 'Back to the inbox', run: () => navigate(`/inboxes/${inboxId}`) },
//   ]);
//
// Keys are KeyboardEvent.key values ('j', '/', '?', 'Delete', 'Escape'). Shortcuts do not fire while Ctrl, Alt or Meta
// is held, while a modal dialog is open (it has its own keys), or while the person types in a field; there Escape
// only leaves the field, so typing a 'j' in the search box stays a 'j'.
import { useEffect, useRef, useState } from 'preact/hooks';

export interface Shortcut {
  key: string;
  /** What it does, as the `?` dialog lists it. */
  description: string;
  run: (event: KeyboardEvent) => void;
}

const registrations: Shortcut[][] = [];
const changeListeners = new Set<() => void>();

function changed(): void {
  for (const listener of changeListeners) listener();
}

/**
 * Registers shortcuts until the returned function is called. The document's keydown listener is there while anything
 * is registered, added with the first registration rather than when this module loads.
 */
export function registerShortcuts(shortcuts: Shortcut[]): () => void {
  if (registrations.length === 0) document.addEventListener('keydown', onKeyDown);
  registrations.push(shortcuts);
  changed();
  return () => {
    const index = registrations.indexOf(shortcuts);
    if (index !== -1) registrations.splice(index, 1);
    if (registrations.length === 0) document.removeEventListener('keydown', onKeyDown);
    changed();
  };
}

/** The shortcut each registered key runs now (the newest registration of it), oldest registration first. */
export function activeShortcuts(): Shortcut[] {
  const byKey = new Map<string, Shortcut>();
  for (const shortcut of registrations.flat()) {
    byKey.delete(shortcut.key);
    byKey.set(shortcut.key, shortcut);
  }
  return [...byKey.values()];
}

/**
 * Registers the shortcuts while the component is mounted. `run` may close over the latest render's state: the
 * registration calls the latest shortcuts given, and is renewed only when the set of keys or descriptions changes.
 */
export function useShortcuts(shortcuts: Shortcut[]): void {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  const signature = shortcuts.map((shortcut) => `${shortcut.key}\u0000${shortcut.description}`).join('\u0001');
  useEffect(() => registerShortcuts(latest.current.map((shortcut) => ({
    key: shortcut.key,
    description: shortcut.description,
    run: (event: KeyboardEvent) => latest.current.find((current) => current.key === shortcut.key)?.run(event),
  }))), [signature]);
}

/** The active shortcuts, re-read whenever a registration comes or goes. */
export function useActiveShortcuts(): Shortcut[] {
  const [shortcuts, setShortcuts] = useState(activeShortcuts);
  useEffect(() => {
    const update = () => setShortcuts(activeShortcuts());
    changeListeners.add(update);
    update();
    return () => void changeListeners.delete(update);
  }, []);
  return shortcuts;
}

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

function isTyping(target: EventTarget | null): target is HTMLElement {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

function onKeyDown(event: KeyboardEvent): void {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
  if (document.querySelector('dialog[open]')) return;
  if (isTyping(event.target)) {
    if (event.key === 'Escape') event.target.blur();
    return;
  }
  const shortcut = activeShortcuts().find((candidate) => candidate.key === event.key);
  if (!shortcut) return;
  event.preventDefault();
  shortcut.run(event);
}
