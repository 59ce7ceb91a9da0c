// Which messages of an inbox's list are selected: picked one by one (a shift-click picks the range from the last one
// picked), or every message matching the search, loaded or not.
import { useRef, useState } from 'preact/hooks';
import type { MessageSummary } from '../../message-cache.js';

type Selection = { mode: 'ids'; ids: Set<string> } | { mode: 'matching' };

export interface MessageSelection {
  /** Every message matching the search is selected, also those not loaded. */
  matching: boolean;
  /** How many messages are picked; null when every matching message is selected. */
  size: number | null;
  isSelected(message: MessageSummary): boolean;
  /** Picks or unpicks the message at `index`; with `range`, every message from the last one picked to it. */
  toggle(index: number, range: boolean): void;
  selectMatching(): void;
  clear(): void;
  /** What a batch acts on: the picked ids, else the message at `current` (if any); null: every message matching. */
  target(current: number): string[] | null;
}

export function useMessageSelection(items: MessageSummary[]): MessageSelection {
  const [selection, setSelection] = useState<Selection>({ mode: 'ids', ids: new Set() });
  const anchorId = useRef<string | null>(null);

  const toggle = (index: number, range: boolean) => {
    const message = items[index];
    if (!message) return;
    const ids = new Set(selection.mode === 'matching' ? items.map((item) => item.id) : selection.ids);
    const anchor = range && anchorId.current ? items.findIndex((item) => item.id === anchorId.current) : -1;
    if (anchor >= 0) {
      const select = !(selection.mode === 'ids' && selection.ids.has(message.id));
      for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i++) {
        if (select) ids.add(items[i]!.id);
        else ids.delete(items[i]!.id);
      }
    } else if (selection.mode === 'ids' && ids.has(message.id)) {
      ids.delete(message.id);
    } else if (selection.mode === 'matching') {
      // Out of "all matching": what stays selected is what is loaded, without this one.
      ids.delete(message.id);
    } else {
      ids.add(message.id);
    }
    anchorId.current = message.id;
    setSelection({ mode: 'ids', ids });
  };

  const target = (current: number): string[] | null => {
    if (selection.mode === 'matching') return null;
    if (selection.ids.size > 0) return [...selection.ids];
    const message = items[current];
    return message ? [message.id] : [];
  };

  return {
    matching: selection.mode === 'matching',
    size: selection.mode === 'matching' ? null : selection.ids.size,
    isSelected: (message) => selection.mode === 'matching' || selection.ids.has(message.id),
    toggle,
    selectMatching: () => setSelection({ mode: 'matching' }),
    clear: () => setSelection({ mode: 'ids', ids: new Set() }),
    target,
  };
}
